/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_stats.h — statistics of benchmark samples in integer arithmetic.
 *
 * A column is up to BENCH_MAX_SAMPLES samples of one workload at one thread
 * count under one policy, each an int64 in the workload's fixed-point unit
 * (sysbench events with two decimals are stored ×100). Samples must lie in
 * 0..BENCH_VALUE_MAX; every intermediate then fits the types below
 * (docs/bench.md "Ranges"). No floating point anywhere: the kernel is built
 * with -mgeneral-regs-only.
 *
 * Rounding is half up (ties away from zero) everywhere, as the seed report
 * ("Integration Strategy for hmp(4) & sched_ule(4) / Performance Improvement
 * Report for intelhfi(4) Usage") rounds its printed statistics.
 *
 * Portable C, no locks: callers own every structure they pass. The scratch
 * structure is large (~37 KiB): allocate it (kmalloc) or make it static,
 * never put it on a kernel stack.
 */
#ifndef MOSAIC_BENCH_STATS_H
#define MOSAIC_BENCH_STATS_H
#include <stdint.h>
#include <bench/bench_math.h>

#define BENCH_MAX_SAMPLES    1024
#define BENCH_VALUE_MAX      1000000000000000LL   /* 10^15 units */
#define BENCH_MAX_THREADS    4096                 /* a column's thread count */
#define BENCH_NA             (-1LL)               /* a value that is not defined */
#define BENCH_PCT_ONE        10000LL              /* ratios and CVs in 0.01 % (100.00 % = 10000) */
#define BENCH_RATIO_MAX      1000000000000LL      /* larger ratios (> 10^10 %) are BENCH_NA */
#define BENCH_P_ONE          1000000000000ULL     /* p-values in units of 10^-12 */
#define BENCH_MWU_EXACT_CELLS 400                 /* exact test when na*nb <= this and no ties */
#define BENCH_MWU_POLY       (BENCH_MWU_EXACT_CELLS + 32)   /* + the smaller size (<= 20) + 1 */
#define BENCH_BOOTSTRAP_RESAMPLES 2000
#define BENCH_BOOTSTRAP_TAIL      50                   /* resamples outside the 95 % CI at each end */
#define BENCH_BOOTSTRAP_SEED      0x6d6f7361696342ULL   /* default seed ("mosaicB") */

/* One column's statistics (values in the samples' unit). */
struct bench_col {
	int n;
	int threads;
	int64_t min, max;
	int64_t sum;              /* exact */
	int64_t mean;             /* sum / n, rounded */
	int64_t median2;          /* twice the median, exact (even n: sum of the two middle values) */
	int64_t median;           /* median2 / 2, rounded */
	int64_t median_per_core;  /* median2 / (2 threads), rounded: from the exact median */
	int64_t cv;               /* sample SD (n-1) / mean in 0.01 %, +-1; BENCH_NA if n < 2 or mean 0 */
};

enum bench_mwu_method {
	BENCH_MWU_NONE = 0,   /* a sample is empty */
	BENCH_MWU_EXACT,      /* no ties and na*nb <= BENCH_MWU_EXACT_CELLS */
	BENCH_MWU_NORMAL,     /* normal approximation, tie and continuity corrections */
};

/* Mann-Whitney U test of B against A, two-sided. */
struct bench_mwu {
	enum bench_mwu_method method;
	int64_t u2_b;        /* 2 U_B: pairs with b > a count 2, ties 1 */
	uint64_t p;          /* p-value in units of 10^-12 (BENCH_P_ONE is 1) */
};

/* Percentile bootstrap 95 % confidence interval of median(B) / median(A). */
struct bench_ci {
	int64_t lo, hi;      /* in 0.01 %; both BENCH_NA when not defined */
};

/* Policy B's column against policy A's (the baseline). Rates in 0.01 %,
 * BENCH_NA when the denominator is 0 or the rate exceeds BENCH_RATIO_MAX. */
struct bench_cmp {
	int64_t rate_avg;       /* mean_B / mean_A          (the report's Rate(Avg.)) */
	int64_t rate_median;    /* median_B / median_A      (Rate(Median)) */
	int64_t rate_max_min;   /* max_B / min_A            (Rate(Max-Min)) */
	int64_t rate_min_min;   /* min_B / min_A            (Rate(Min-Min)) */
	struct bench_mwu mwu;
	struct bench_ci ci;
};

struct bench_scratch {
	int64_t a[BENCH_MAX_SAMPLES];   /* sorted copies of the two columns */
	int64_t b[BENCH_MAX_SAMPLES];
	uint16_t count[BENCH_MAX_SAMPLES];
	int64_t ratio[BENCH_BOOTSTRAP_RESAMPLES];
	int64_t poly[BENCH_MWU_POLY];   /* exact U distribution, with room for its construction */
};

/* Sorts v[0..n) ascending in place (heapsort: bounded time, no recursion). */
void bench_sort(int64_t *v, int n);

/* Statistics of v[0..n) at `threads` threads; sorted[0..n) receives the
 * sorted samples. 0, or -1 (nothing written) when n is outside
 * 1..BENCH_MAX_SAMPLES, threads outside 1..BENCH_MAX_THREADS or a sample
 * outside 0..BENCH_VALUE_MAX. */
int bench_stats_column(const int64_t *v, int n, int threads, int64_t *sorted, struct bench_col *out);

/* num / den in 0.01 %, rounded; BENCH_NA if den is 0 or the result exceeds
 * BENCH_RATIO_MAX. */
int64_t bench_ratio(uint64_t num, uint64_t den);

/* Mann-Whitney U test of b_sorted[0..nb) against a_sorted[0..na) (both
 * sorted, valid columns; n may be 0); poly: BENCH_MWU_POLY
 * entries of scratch. */
void bench_mwu(const int64_t *a_sorted, int na, const int64_t *b_sorted, int nb, int64_t *poly,
	       struct bench_mwu *out);

/* The smallest two-sided p (in BENCH_P_ONE units, rounded) a
 * Mann-Whitney test of na against nb samples can give: 2 / C(na+nb, na),
 * all of one side above all of the other (2 runs each: 0.333). No locks. */
uint64_t bench_mwu_min_p(int na, int nb);
/* The fewest runs per policy whose smallest p is below alpha (BENCH_P_ONE
 * units; 0.05: 4 runs). No locks. */
int bench_mwu_runs_for(uint64_t alpha);

/* 2 Q(z) in units of 10^-12, Q the standard normal upper tail, for z >= 0
 * given as z^2 = num / den (den > 0); absolute error below 10^-13. */
uint64_t bench_normal_2sf(bench_u128 num, uint64_t den);

/* Bootstrap CI of median(B)/median(A) from the sorted columns, seeded. */
void bench_bootstrap_ci(const int64_t *a_sorted, int na, const int64_t *b_sorted, int nb, uint64_t seed,
		   struct bench_scratch *s, struct bench_ci *out);

/* Everything of struct bench_cmp for column b against column a, from the
 * samples (unsorted; validated by bench_stats_column() before). */
void bench_compare(const int64_t *a, const struct bench_col *ca, const int64_t *b,
		   const struct bench_col *cb, uint64_t seed, struct bench_scratch *s,
		   struct bench_cmp *out);

#endif
