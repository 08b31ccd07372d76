/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hmp.h — per-CPU capacity and HFI scores for placement (the idea of
 * FreeBSD's proposed hmp(4)). Portable: also built on the host.
 *
 * Per CPU:
 *   capacity 1..1024   static speed, higher = faster, fastest CPU = 1024
 *   weight             SEARCH_LOAD_ONE × slowest capacity / capacity: the
 *                      load of one thread on this CPU as the placement
 *                      weighs it (256 on the slowest CPU, less on faster
 *                      ones: the seed report's inverted capacity)
 *   perf, ee 0..1020   dynamic performance / energy-efficiency scores, the
 *                      HFI byte << 2; perf 0 = "do not schedule here for
 *                      performance" (ee 0 too: not at all)
 *   smt 0..1024        what a second thread on this CPU's core adds, as a
 *                      share of one thread alone (1024 × (SMT yield − 1));
 *                      the *_shared scores are perf and ee × smt / 1024,
 *                      the worth of this CPU while an SMT sibling is busy
 *   generation         bumped on every change of this CPU's record
 *
 * Push interface: providers write what they know; hmp resolves each field
 * per CPU from the highest provider that has it, and publishes the result.
 * The scheduler only reads, lock-free, and never calls a provider.
 * Providers, highest first: manual overrides (sysctl kern.hmp.cpu.N.*),
 * the HFI table (scores), the machine description (emulated machines:
 * capacity from speeds, initial scores), HWP highest performance
 * (capacity), core-type defaults from CPUID 0x1A (capacity), and "all
 * equal" (capacity 1024, scores 1020), which always applies.
 *
 * Locking: writers (provide / withdraw / status / publish) serialise on
 * hmp's own lock (sched_plat_hmp_lock); readers take no lock and see each
 * CPU's record whole through a per-CPU sequence count.
 */
#ifndef MOSAIC_SCHED_HMP_H
#define MOSAIC_SCHED_HMP_H
#include <stddef.h>
#include <stdint.h>
#include <sched/topo_cpuset.h>
#include <lib/itd_class.h>

#define HMP_CAPACITY_MAX 1024
#define HMP_SCORE_MAX 1020        /* 255 << 2 */
#define HMP_WEIGHT_SLOWEST 256    /* = SEARCH_LOAD_ONE */
/* The slowest capacity hmp can weigh: 1/16 of the fastest, so that every
 * weight is at least 16 (256 / 16) and no CPU's load vanishes from the
 * searches; lower capacities are raised to it when published (providers
 * that can refuse do: kern.hmp.cpu.N.capacity, machine descriptions). */
#define HMP_CAPACITY_MIN (HMP_CAPACITY_MAX / 16)
#define HMP_SMT_MAX 1024
/* The SMT share where nobody knows better: a second thread adds 0.39 of
 * one, the i7-1370P's yield derived from the seed report's sysbench
 * medians (machines/i7-1370p.machine). */
#define HMP_SMT_DEFAULT 400

enum hmp_provider {
	HMP_PROV_MANUAL = 0,
	HMP_PROV_HFI,
	HMP_PROV_MACHINE,
	HMP_PROV_HWP,
	HMP_PROV_CORETYPE,
	HMP_PROV_DEFAULT,
	HMP_NPROV
};

/* Fields a provider gives (bit mask). */
#define HMP_CAPACITY 0x1u
#define HMP_PERF 0x2u
#define HMP_EE 0x4u
#define HMP_SMT 0x8u
#define HMP_CLASSES 0x10u   /* the class columns 1..ITD_CLASS_MAX-1 (hmp_provide_class) */

/* A published per-CPU record. */
struct hmp_cpu {
	uint16_t capacity, weight, perf, ee, smt;
	uint16_t perf_shared, ee_shared;   /* perf, ee × smt / 1024 */
	uint8_t avoid;            /* perf 0 while some other CPU has perf > 0 */
	uint8_t never;            /* avoid, and ee 0 too: not to be used at all */
	uint8_t capacity_from;    /* enum hmp_provider that gave each field */
	uint8_t perf_from, ee_from, smt_from;
	/* Thread Director class columns (itd_class.h): [0] is perf / ee;
	 * a class perf's provider did not give equals class 0 */
	uint16_t cls_perf[ITD_CLASS_MAX], cls_ee[ITD_CLASS_MAX];
	uint16_t cls_perf_shared[ITD_CLASS_MAX], cls_ee_shared[ITD_CLASS_MAX];
	uint64_t generation;
};

/* Sets up ncpu CPUs with only the "all equal" provider. Boot, once, before
 * any other hmp call; storage from sched_plat_alloc(). */
void hmp_init(int ncpu);
/* Provider p's values for cpu: the fields in mask (HMP_CAPACITY: 1..1024,
 * HMP_PERF / HMP_EE: 0..1020, clamped). Takes effect at hmp_publish(). */
void hmp_provide(enum hmp_provider p, int cpu, unsigned mask, int capacity, int perf, int ee);
/* Provider p's column of Thread Director class cls (1..ITD_CLASS_MAX-1;
 * class 0 is hmp_provide's perf and ee) for cpu: perf and ee 0..1020,
 * clamped (field HMP_CLASSES). A class is taken from the provider that
 * gives the CPU's class-0 perf (ee: class-0 ee); where that provider gave
 * no column of the class, the class scores as class 0 (so a manual perf
 * override applies to every class). Takes effect at hmp_publish(). */
void hmp_provide_class(enum hmp_provider p, int cpu, unsigned cls, int perf, int ee);
/* Provider p's SMT share for cpu (0..1024, clamped; field HMP_SMT). */
void hmp_provide_smt(enum hmp_provider p, int cpu, int smt);
/* Whether giving cpu the manual capacity cap keeps every resolved
 * capacity within 16 times of the fastest (HMP_CAPACITY_MIN after
 * scaling); if not, *floor is the least capacity cpu could have. Takes the
 * hmp lock. */
int hmp_capacity_fits(int cpu, int cap, int *floor);
/* Provider p no longer knows the fields in mask of cpu (-1: every CPU). */
void hmp_withdraw(enum hmp_provider p, int cpu, unsigned mask);
/* Whether provider p applies, and a one-line reason (copied, at most 127
 * characters, shown by the `hmp` command): "HFI table of 8 rows", "not
 * supported: no CPUID 0x06 HWP bit", ... */
void hmp_set_status(enum hmp_provider p, int active, const char *why);
/* Resolves every CPU from the providers, recomputes the weights, and
 * publishes the records that changed (bumping their generations and the
 * global one). Returns the number of CPUs whose record changed. When every
 * CPU's perf resolves to 0 the scores are taken as "no information": perf
 * then follows capacity (1020 × capacity / 1024, from capacity's
 * provider), no CPU is marked avoid, and hmp_all_perf_zero() says so; so
 * does the perf of a CPU no provider but "all equal" gives one. A
 * capacity below HMP_CAPACITY_MIN after scaling is raised to it. */
int hmp_publish(void);

/* ---- lock-free readers (the scheduling path) ---- */
int hmp_ncpu(void);
/* One CPU's record, whole. */
void hmp_read(int cpu, struct hmp_cpu *out);
/* Single fields (each read atomically; use hmp_read for several). */
int hmp_capacity(int cpu);
int hmp_weight(int cpu);
int hmp_perf(int cpu);
int hmp_ee(int cpu);
int hmp_avoid(int cpu);
int hmp_never(int cpu);
int hmp_smt(int cpu);
/* The score metric (HMP_METRIC_PERF 0, HMP_METRIC_EE 1) selects, alone or
 * while an SMT sibling is busy (shared). */
int hmp_score(int cpu, int metric, int shared);
/* The same in the column of Thread Director class cls (hmp_score for
 * class 0; classes nobody gave score as class 0; 0 for cls out of range). */
int hmp_score_class(int cpu, int metric, int shared, unsigned cls);
/* The CPUs marked avoid / never at the last publication (each word read
 * atomically: a publication in between may mix two). */
void hmp_avoid_set(struct cpuset *out);
void hmp_never_set(struct cpuset *out);
/* Bumped whenever any CPU's record changes. */
uint64_t hmp_generation(void);
/* 1 while the last publication found every perf 0 (ignored). */
int hmp_all_perf_zero(void);
/* 1 while every CPU has the same capacity and scores (a homogeneous
 * machine: nothing for placement to tell apart), or before hmp_init(). */
int hmp_uniform(void);
/* A provider's name: "manual", "HFI", "machine", "HWP", "core type",
 * "all equal". */
const char *hmp_provider_name(enum hmp_provider p);
/* Whether provider p applies, with its reason copied into why (len bytes).
 * Takes the hmp lock: not from the scheduling path. */
int hmp_provider_status(enum hmp_provider p, char *why, size_t len);
/* What provider p last gave for cpu (mask of fields it has, values out).
 * Takes the hmp lock. */
unsigned hmp_provider_values(enum hmp_provider p, int cpu, int *capacity, int *perf, int *ee);

#endif
