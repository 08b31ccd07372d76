/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_stats.c — one column's statistics and the rates of one column
 * against another (see bench_stats.h; ranges in docs/bench.md).
 */
#include <bench/bench_stats.h>

/* Moves v[i] down the heap v[0..n) until its children are smaller. */
static void sift_down(int64_t *v, int i, int n)
{
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && v[c + 1] > v[c])
			c++;
		if (v[i] >= v[c])
			return;
		int64_t t = v[i];
		v[i] = v[c];
		v[c] = t;
		i = c;
	}
}

void bench_sort(int64_t *v, int n)
{
	for (int i = n / 2 - 1; i >= 0; i--)
		sift_down(v, i, n);
	for (int end = n - 1; end > 0; end--) {
		int64_t t = v[0];
		v[0] = v[end];
		v[end] = t;
		sift_down(v, 0, end);
	}
}

/* Sample standard deviation over the mean in 0.01 %, from the sorted
 * samples. With d = x - min (0..10^15): S = n sum(d^2) - (sum d)^2 is at
 * most 1024 * 1024 * 10^30 < 2^120, and var = S / (n (n-1)). The SD is
 * taken as isqrt(S 2^2k / (n (n-1))) = SD 2^k with k as large as S allows
 * (at most 32), which keeps its relative error below 2^-20, so the CV is
 * within 1 of the exact rounded value. */
static int64_t column_cv(const int64_t *s, int n, int64_t sum)
{
	if (n < 2 || sum == 0)
		return BENCH_NA;
	bench_u128 sd = 0, sd2 = 0;
	for (int i = 0; i < n; i++) {
		uint64_t d = (uint64_t)(s[i] - s[0]);
		sd += d;
		sd2 += (bench_u128)d * d;
	}
	bench_u128 S = (bench_u128)n * sd2 - sd * sd;
	int k = (127 - bench_bits(S)) / 2;
	if (k > 32)
		k = 32;
	uint64_t sd_fp = bench_isqrt(bench_divmod(S << (2 * k), (bench_u128)n * (uint64_t)(n - 1), 0));
	/* CV = SD n / sum; 10^4 * 2^82 * 2^10 and 2^60 * 2^32 fit. */
	bench_u128 cv = bench_div_round((bench_u128)sd_fp * BENCH_PCT_ONE * (uint64_t)n,
					(bench_u128)(uint64_t)sum << k);
	return (int64_t)cv;
}

int bench_stats_column(const int64_t *v, int n, int threads, int64_t *sorted, struct bench_col *out)
{
	if (n < 1 || n > BENCH_MAX_SAMPLES || threads < 1 || threads > BENCH_MAX_THREADS)
		return -1;
	for (int i = 0; i < n; i++)
		if (v[i] < 0 || v[i] > BENCH_VALUE_MAX)
			return -1;
	int64_t sum = 0;   /* at most 1024 * 10^15 < 2^63 */
	for (int i = 0; i < n; i++) {
		sorted[i] = v[i];
		sum += v[i];
	}
	bench_sort(sorted, n);
	out->n = n;
	out->threads = threads;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->sum = sum;
	out->mean = (int64_t)bench_div_round((uint64_t)sum, (uint64_t)n);
	out->median2 = n % 2 ? 2 * sorted[n / 2] : sorted[n / 2 - 1] + sorted[n / 2];
	out->median = (int64_t)bench_div_round((uint64_t)out->median2, 2);
	out->median_per_core = (int64_t)bench_div_round((uint64_t)out->median2, 2 * (uint64_t)threads);
	out->cv = column_cv(sorted, n, sum);
	return 0;
}

/* Rounded ratio of two 128-bit quantities in 0.01 %, or BENCH_NA. */
static int64_t ratio128(bench_u128 num, bench_u128 den)
{
	if (den == 0)
		return BENCH_NA;
	bench_u128 r = bench_div_round(num * BENCH_PCT_ONE, den);
	return r > BENCH_RATIO_MAX ? BENCH_NA : (int64_t)r;
}

int64_t bench_ratio(uint64_t num, uint64_t den)
{
	return ratio128(num, den);
}

void bench_compare(const int64_t *a, const struct bench_col *ca, const int64_t *b,
		   const struct bench_col *cb, uint64_t seed, struct bench_scratch *s,
		   struct bench_cmp *out)
{
	/* mean_B / mean_A = sum_B n_A / (sum_A n_B): below 2^70 each. */
	out->rate_avg = ratio128((bench_u128)(uint64_t)cb->sum * (uint64_t)ca->n,
				 (bench_u128)(uint64_t)ca->sum * (uint64_t)cb->n);
	out->rate_median = bench_ratio((uint64_t)cb->median2, (uint64_t)ca->median2);
	out->rate_max_min = bench_ratio((uint64_t)cb->max, (uint64_t)ca->min);
	out->rate_min_min = bench_ratio((uint64_t)cb->min, (uint64_t)ca->min);
	for (int i = 0; i < ca->n; i++)
		s->a[i] = a[i];
	for (int i = 0; i < cb->n; i++)
		s->b[i] = b[i];
	bench_sort(s->a, ca->n);
	bench_sort(s->b, cb->n);
	bench_mwu(s->a, ca->n, s->b, cb->n, s->poly, &out->mwu);
	bench_bootstrap_ci(s->a, ca->n, s->b, cb->n, seed, s, &out->ci);
}
