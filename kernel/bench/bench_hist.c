/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_hist.c — log-linear latency histograms (see bench_hist.h). */
#include <bench/bench_hist.h>

#define SUB (1u << BENCH_HIST_SUB_BITS)
#define VALUE_MAX ((1ull << BENCH_HIST_MAX_BITS) - 1)

/* Bucket of v: v itself below SUB; else SUB sub-buckets per power of two. */
static unsigned bucket_of(uint64_t v)
{
	if (v < SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v);   /* BENCH_HIST_SUB_BITS..MAX_BITS-1 */
	unsigned sub = (unsigned)(v >> (e - BENCH_HIST_SUB_BITS)) & (SUB - 1);
	return ((e - BENCH_HIST_SUB_BITS + 1) << BENCH_HIST_SUB_BITS) + sub;
}

/* The smallest value of bucket i and the number of values it holds. */
static void bucket_range(unsigned i, uint64_t *lo, uint64_t *width)
{
	if (i < SUB) {
		*lo = i;
		*width = 1;
		return;
	}
	unsigned e = (i >> BENCH_HIST_SUB_BITS) + BENCH_HIST_SUB_BITS - 1;
	uint64_t sub = i & (SUB - 1);
	*width = 1ull << (e - BENCH_HIST_SUB_BITS);
	*lo = (1ull << e) + sub * *width;
}

/* See bench_hist.h. */
void bench_hist_add(struct bench_hist *h, uint64_t ns)
{
	if (ns > VALUE_MAX)
		ns = VALUE_MAX;
	h->b[bucket_of(ns)]++;
	h->n++;
	if (ns > h->max)
		h->max = ns;
}

/* See bench_hist.h. */
void bench_hist_merge(struct bench_hist *dst, const struct bench_hist *src)
{
	for (unsigned i = 0; i < BENCH_HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->n += src->n;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* See bench_hist.h. */
int64_t bench_hist_pct(const struct bench_hist *h, unsigned permille)
{
	if (!h->n || permille < 1 || permille > 1000)
		return -1;
	uint64_t rank = (h->n * permille + 999) / 1000, seen = 0;
	for (unsigned i = 0; i < BENCH_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen < rank)
			continue;
		uint64_t lo, width;
		bucket_range(i, &lo, &width);
		uint64_t mid = lo + width / 2;
		return (int64_t)(mid > h->max ? h->max : mid);
	}
	return (int64_t)h->max;
}

/* See bench_hist.h. */
void bench_hist_pcts(const struct bench_hist *h, int64_t *out)
{
	static const unsigned pm[4] = { 500, 900, 990, 999 };
	for (int k = 0; k < 4; k++)
		out[k] = bench_hist_pct(h, pm[k]);
}
