/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_hist.h — latency histograms for the workloads: log-linear buckets
 * (32 per power of two), so a percentile is exact below 32 ns and within
 * 1/64 of its value above (docs/bench.md, "Latency percentiles").
 *
 * A histogram belongs to one thread while it records; histograms of
 * several threads are merged after they are joined. Portable C, no locks.
 */
#ifndef MOSAIC_BENCH_HIST_H
#define MOSAIC_BENCH_HIST_H
#include <stdint.h>

#define BENCH_HIST_SUB_BITS 5                       /* 32 sub-buckets per power of two */
#define BENCH_HIST_MAX_BITS 40                      /* values up to 2^40 ns (18 minutes) */
#define BENCH_HIST_BUCKETS  ((BENCH_HIST_MAX_BITS - BENCH_HIST_SUB_BITS + 1) << BENCH_HIST_SUB_BITS)

struct bench_hist {
	uint64_t n;                 /* values recorded */
	uint64_t max;               /* the largest value (ns) */
	uint32_t b[BENCH_HIST_BUCKETS];
};

/* Records one value (ns; larger than 2^40 - 1 counts as 2^40 - 1). */
void bench_hist_add(struct bench_hist *h, uint64_t ns);
/* dst += src. */
void bench_hist_merge(struct bench_hist *dst, const struct bench_hist *src);
/* The nearest-rank percentile (the value at rank ceil(n x permille /
 * 1000), 1..1000 per mille) as the middle of its bucket, never above the
 * largest value recorded; -1 when the histogram is empty. */
int64_t bench_hist_pct(const struct bench_hist *h, unsigned permille);
/* p50, p90, p99, p99.9 into out[4] (-1 each when empty). */
void bench_hist_pcts(const struct bench_hist *h, int64_t *out);

#endif
