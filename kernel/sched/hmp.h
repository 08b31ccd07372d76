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
 *                      HFI byte << 2; perf 0 = "do not schedule here"
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

#define HMP_CAPACITY_MAX 1024
#define HMP_SCORE_MAX 1020        /* 255 << 2 */
#define HMP_WEIGHT_SLOWEST 256    /* = SEARCH_LOAD_ONE */

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

/* A published per-CPU record. */
struct hmp_cpu {
	uint16_t capacity, weight, perf, ee;
	uint8_t avoid;            /* perf 0 while some other CPU has perf > 0 */
	uint8_t capacity_from;    /* enum hmp_provider that gave each field */
	uint8_t perf_from, ee_from;
	uint64_t generation;
};

/* Sets up ncpu CPUs with only the "all equal" provider. Boot, once, before
 * any other hmp call; storage from sched_plat_alloc(). */
void hmp_init(int ncpu);
/* Provider p's values for cpu: the fields in mask (HMP_CAPACITY: 1..1024,
 * HMP_PERF / HMP_EE: 0..1020, clamped). Takes effect at hmp_publish(). */
void hmp_provide(enum hmp_provider p, int cpu, unsigned mask, int capacity, int perf, int ee);
/* Provider p no longer knows the fields in mask of cpu (-1: every CPU). */
void hmp_withdraw(enum hmp_provider p, int cpu, unsigned mask);
/* Whether provider p applies, and a one-line reason (copied, at most 127
 * characters, shown by the `hmp` command): "HFI table of 8 rows", "not
 * supported: no CPUID 0x06 HWP bit", ... */
void hmp_set_status(enum hmp_provider p, int active, const char *why);
/* Resolves every CPU from the providers, recomputes the weights, and
 * publishes the records that changed (bumping their generations and the
 * global one). Returns the number of CPUs whose record changed. When every
 * CPU's perf resolves to 0 the scores are taken as "no information": no
 * CPU is marked avoid, and hmp_all_perf_zero() says so. */
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
