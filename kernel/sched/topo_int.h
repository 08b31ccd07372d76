/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_int.h — internal to kernel/sched/topo_*.c: the pieces of
 * topo_build.c that the FreeBSD-compatible builder (topo_freebsd.c) uses
 * too. None of them locks; each works on one struct topo its caller owns.
 */
#ifndef MOSAIC_SCHED_TOPO_INT_H
#define MOSAIC_SCHED_TOPO_INT_H
#include <sched/topo.h>

/* Resets t for a build of kind (enum topo_kind) and fills t->present and
 * t->ncpus from present (NULL: CPUs 0..ncpu-1). TOPO_OK, or
 * TOPO_ERR_TOO_MANY / TOPO_ERR_NO_CPUS with t->error set. */
int topo_begin(struct topo *t, int kind, unsigned ncpu, const struct cpuset *present);

/* Lists the present CPUs in t->order (ascending) and records their core
 * types and sources; returns how many there are. */
int topo_take_cpus(struct topo *t, const struct cpu_desc *descs);

/* Sets t->error to "<a><n1><b><n2><c>" (numbers decimal), t->root NULL;
 * returns code. */
int topo_fail(struct topo *t, int code, const char *a, uint64_t n1, const char *b, uint64_t n2,
	      const char *c);

/* topo_fail() for two CPUs i and j whose descriptors contradict each
 * other: "CPUs i and j <what>", then " (A and B)" when ids is given;
 * records the pair in t->error_cpu. */
int topo_fail_pair(struct topo *t, int code, unsigned i, unsigned j, const char *what,
		   const uint32_t *ids);

/* The key a CPU is grouped by (equal keys: one group). */
typedef uint64_t (*topo_key_fn)(const void *ctx, unsigned cpu);

/* Reorders t->order[start..start+n) stably so CPUs with equal keys are
 * adjacent, subsets in order of their first CPU. Writes subset sizes to
 * t->sizes[] and returns how many subsets there are. */
int topo_partition(struct topo *t, int start, int n, topo_key_fn key, const void *ctx);

/* Fills cg's mask, count, first and last from t->order[start..start+n);
 * no children, share none, no flags. */
void topo_group_init(struct topo *t, struct cpu_group *cg, int start, int n);

/* Gives cg k contiguous children from t->groups, sized by t->sizes[0..k)
 * (cg_count and cg_parent set); TOPO_OK or TOPO_ERR_TOO_MANY. */
int topo_alloc_children(struct topo *t, struct cpu_group *cg, int k);

/* Sets cg_norm of cg's children and of their subtrees: group totals of
 * groups with different CPU counts (2-CPU SMT groups, 4-CPU E modules)
 * become comparable per CPU without a division at search time. */
void topo_norm_children(struct cpu_group *cg);

#endif
