/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_bootstrap.c — percentile bootstrap confidence interval of the ratio of
 * medians (see bench_stats.h).
 *
 * BENCH_BOOTSTRAP_RESAMPLES times: draw na indices of A and then nb of B
 * uniformly with replacement, take each resample's median (twice it, exact)
 * and the rounded ratio median(B)/median(A) in 0.01 %. After sorting the
 * ratios, the interval is [r[TAIL], r[RESAMPLES - 1 - TAIL]]: with 2000
 * resamples and a tail of 50, the 2.5 % and 97.5 % points. The generator is
 * splitmix64 from the seed, indices by rejection (no modulo bias), so the
 * interval depends only on the samples and the seed.
 */
#include <bench/bench_stats.h>

/* splitmix64: the next 64 random bits of state *x. */
static uint64_t bootstrap_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n >= 1): draws below the largest multiple of n only. */
static int bootstrap_index(uint64_t *x, int n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % (uint64_t)n;
	uint64_t r;
	do
		r = bootstrap_next(x);
	while (r >= limit);
	return (int)(r % (uint64_t)n);
}

/* Twice the median of one resample of sorted[0..n): counts how often each
 * index was drawn, then walks the sorted order to the middle rank(s). */
static int64_t bootstrap_median2(const int64_t *sorted, int n, uint64_t *x, uint16_t *count)
{
	for (int i = 0; i < n; i++)
		count[i] = 0;
	for (int i = 0; i < n; i++)
		count[bootstrap_index(x, n)]++;
	int lo = (n - 1) / 2, hi = n / 2;   /* 0-based ranks of the middle */
	int64_t m2 = 0;
	int seen = 0;
	for (int i = 0; i < n; i++) {
		int next = seen + count[i];
		if (lo >= seen && lo < next)
			m2 += sorted[i];
		if (hi >= seen && hi < next) {
			m2 += sorted[i];
			break;
		}
		seen = next;
	}
	return m2;
}

void bench_bootstrap_ci(const int64_t *a, int na, const int64_t *b, int nb, uint64_t seed,
		   struct bench_scratch *s, struct bench_ci *out)
{
	out->lo = out->hi = BENCH_NA;
	if (na < 1 || nb < 1)
		return;
	uint64_t x = seed;
	for (int r = 0; r < BENCH_BOOTSTRAP_RESAMPLES; r++) {
		int64_t ma = bootstrap_median2(a, na, &x, s->count);
		int64_t mb = bootstrap_median2(b, nb, &x, s->count);
		s->ratio[r] = bench_ratio((uint64_t)mb, (uint64_t)ma);
		if (s->ratio[r] == BENCH_NA)
			return;   /* a resampled median of A is 0: no interval */
	}
	bench_sort(s->ratio, BENCH_BOOTSTRAP_RESAMPLES);
	out->lo = s->ratio[BENCH_BOOTSTRAP_TAIL];
	out->hi = s->ratio[BENCH_BOOTSTRAP_RESAMPLES - 1 - BENCH_BOOTSTRAP_TAIL];
}
