/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo.h — the ULE cpu_group tree: which CPUs share which cache.
 *
 * Built once from the per-CPU descriptors (cpu_desc.h) and then only read.
 * Levels, from the leaves up: SMT core (same core_id) → L2 module/cluster
 * (same cache_id[2]) → LLC (same cache_id[3]; CPUs without an L3 form their
 * own group beside it) → package → root. A level where a group would have a
 * single child is skipped, so every inner group has at least two children;
 * a group whose children would all be single CPUs is a leaf (a single CPU
 * is always one). The group's share level is the largest cache all its CPUs
 * share. Full rules: docs/topology.md.
 *
 * Examples (docs/topology.md): an i7-1370P is root (L3, 20 CPUs) → six
 * P-core leaves of 2 threads (L2, SMT) and two E-core module leaves of 4
 * CPUs (L2). A Meteor Lake 155H is root (none) → L3 group of 20 CPUs and
 * an LP-E module leaf of 2 CPUs without L3.
 *
 * A second builder, topo_build_freebsd() (topo_freebsd*.c), builds the tree
 * FreeBSD's x86 code would build from the same CPUID values: the boot CPU's
 * leaves extrapolated over every CPU's APIC id (kern.sched.topology=freebsd;
 * docs/topology.md, "The FreeBSD-compatible tree").
 *
 * Portable: compiled into the kernel, the host replay tool, the simulator
 * and the unit tests; storage is static (struct topo holds everything).
 */
#ifndef MOSAIC_SCHED_TOPO_H
#define MOSAIC_SCHED_TOPO_H
#include <stddef.h>
#include <stdint.h>
#include <lib/cpu_desc.h>
#include <sched/topo_cpuset.h>
#include <sched/topo_freebsd.h>

/* Share levels (cg_level): the largest cache every CPU of the group shares. */
#define CG_SHARE_NONE 0
#define CG_SHARE_L1 1
#define CG_SHARE_L2 2
#define CG_SHARE_L3 3

/* Flags (cg_flags). The builder sets only SMT: a group of the hardware
 * threads of one core. The scheduler tests CG_FLAG_THREAD (either bit). */
#define CG_FLAG_HTT 0x01
#define CG_FLAG_SMT 0x02
#define CG_FLAG_THREAD (CG_FLAG_HTT | CG_FLAG_SMT)
#define CG_FLAG_NODE 0x04

struct cpu_group {
	struct cpu_group *cg_parent;   /* NULL at the root */
	struct cpu_group *cg_child;    /* cg_children contiguous groups; NULL for a leaf */
	struct cpuset cg_mask;         /* CPUs of the group (union of the children's) */
	int32_t cg_count;              /* CPUs in cg_mask */
	int32_t cg_first, cg_last;     /* lowest and highest CPU id in cg_mask */
	int16_t cg_children;           /* 0: leaf, iterate the CPUs of cg_mask */
	int8_t cg_level;               /* CG_SHARE_* */
	int8_t cg_flags;               /* CG_FLAG_* */
	int32_t cg_norm;               /* multiplies this group's total before it is compared
	                                * with its siblings': the least common multiple of the
	                                * siblings' CPU counts divided by cg_count (1 at the
	                                * root; see topo_norm_children) */
};

/* The common multiple of the siblings' CPU counts is exact up to this;
 * beyond it cg_norm is TOPO_NORM_MAX / cg_count, rounded (a per-CPU
 * average in fixed point). */
#define TOPO_NORM_MAX (1 << 16)

/* An inner group has >= 2 children and a leaf >= 1 CPU, so a tree over
 * TOPO_MAXCPU CPUs has fewer than 2 * TOPO_MAXCPU groups. */
#define TOPO_MAX_GROUPS (2 * TOPO_MAXCPU)

enum topo_error {
	TOPO_OK = 0,
	TOPO_ERR_NO_CPUS = -1,       /* zero CPUs present */
	TOPO_ERR_TOO_MANY = -2,      /* more than TOPO_MAXCPU descriptors */
	TOPO_ERR_DUP_APIC = -3,      /* two CPUs with one APIC id */
	TOPO_ERR_INCONSISTENT = -4,  /* CPUs disagree: SMT siblings or L2 sharers on other
	                              * caches, a cache shared across packages */
	TOPO_ERR_UNMODELLED = -5,    /* FreeBSD's probe builds no tree from these values */
};

/* Which tree (kern.sched.topology, schedsim --topology). */
enum topo_kind {
	TOPO_MOSAIC = 0,             /* ours, from every CPU's descriptor (topo_build) */
	TOPO_FREEBSD = 1,            /* FreeBSD's x86 cpu_topo() (topo_build_freebsd) */
};

struct topo {
	struct cpu_group *root;              /* NULL until a build succeeded */
	int ncpus;                           /* CPUs in the tree */
	int ngroups;                         /* groups used in groups[] */
	uint8_t source;                      /* enum cpu_desc_source of the descriptors */
	uint8_t mixed_sources;               /* 1 if descriptors came from several sources */
	struct cpuset present;               /* CPUs in the tree */
	uint8_t core_type[TOPO_MAXCPU];      /* enum cpu_core_type per CPU, for printing */
	char error[160];                     /* why the last build failed, "" after success */
	int error_cpu[2];                    /* the two CPUs an error is about, else -1 */
	uint8_t flat;                        /* topo_build_or_flat() fell back to one leaf */
	uint8_t kind;                        /* enum topo_kind of the last build */
	struct topo_fbsd fbsd;               /* TOPO_FREEBSD: the probe it was built from */
	struct cpu_group groups[TOPO_MAX_GROUPS];
	/* builder scratch: CPUs being partitioned, their subset marks, the
	 * reordered copy, subset sizes */
	uint16_t order[TOPO_MAXCPU], mark[TOPO_MAXCPU], sorted[TOPO_MAXCPU], sizes[TOPO_MAXCPU];
};

/* Builds the tree in t from descs[0..ncpu-1], indexed by logical CPU id;
 * CPUs not in present are left out (present NULL: all ncpu). Returns TOPO_OK,
 * or a negative enum topo_error with a one-line reason in t->error and
 * t->root NULL; never crashes on bad descriptors. Not thread-safe on one t. */
int topo_build(struct topo *t, const struct cpu_desc *descs, unsigned ncpu,
	       const struct cpuset *present);

/* The tree FreeBSD's x86 code builds (x86topo_add_sched_group over
 * topo_probe's layers): the lowest present CPU's layout (cpu_desc.h) gives
 * the shifts, every present CPU's layout.apic its place; groups carry
 * FreeBSD's share levels and SMT flags. The same contract as topo_build();
 * TOPO_ERR_DUP_APIC for two equal layout APIC ids, TOPO_ERR_UNMODELLED when
 * FreeBSD's probe would refuse the values (reason in t->error). */
int topo_build_freebsd(struct topo *t, const struct cpu_desc *descs, unsigned ncpu,
		       const struct cpuset *present);

/* topo_build() or topo_build_freebsd() by kind (enum topo_kind). */
int topo_build_kind(struct topo *t, int kind, const struct cpu_desc *descs, unsigned ncpu,
		    const struct cpuset *present);

/* For a running system, which needs some tree: topo_build_kind(), but when
 * the FreeBSD tree cannot be built (TOPO_ERR_UNMODELLED) ours instead, the
 * reason kept in t->error and t->kind saying TOPO_MOSAIC; and when the
 * descriptors contradict each other (TOPO_ERR_DUP_APIC,
 * TOPO_ERR_INCONSISTENT) the flat fallback: one leaf of all present CPUs
 * sharing nothing, t->flat set and the reason kept in t->error and
 * t->error_cpu. Returns what the first build returned; t->root is NULL
 * only for TOPO_ERR_NO_CPUS and TOPO_ERR_TOO_MANY. Not thread-safe on one t. */
int topo_build_or_flat(struct topo *t, int kind, const struct cpu_desc *descs, unsigned ncpu,
		       const struct cpuset *present);

/* The leaf group under top that contains cpu; NULL if top does not. */
struct cpu_group *topo_find(struct cpu_group *top, int cpu);

/* Output callback of the printers: printf-like, restricted to the subset the
 * kernel's printk understands (%d %u %x %lx %s %c, '-' and '0' flags, width). */
typedef void (*topo_printf_fn)(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints the tree readably: a header (CPU and group counts, descriptor
 * source), then one line per group, indented by depth, with level, share
 * level, CPU list, count, flags and a core-type summary. */
void topo_print(const struct topo *t, topo_printf_fn pf, void *ctx);

/* Prints the tree as FreeBSD's kern.sched.topology_spec XML. */
void topo_print_spec(const struct topo *t, topo_printf_fn pf, void *ctx);

/* Writes s as a CPU list with ranges ("0-11,14,16-17", "none" if empty)
 * into buf (always NUL-terminated, cut with "..." if too short). */
void topo_cpulist(const struct cpuset *s, char *buf, size_t len);

/* "none", "L1", "L2", "L3" ("?" beyond). */
const char *topo_share_name(int level);
/* "P-core", "E-core", "LP-E-core", "" (unknown type). */
const char *topo_core_type_name(int core_type);
/* "CPUID", "CPUID dump", "machine description". */
const char *topo_source_name(int source);
/* "mosaic", "freebsd" (enum topo_kind; "?" beyond). */
const char *topo_kind_name(int kind);
/* The enum topo_kind named name, or -1. */
int topo_kind_find(const char *name);

#endif
