/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_mwu.c — Mann-Whitney U test, two-sided (see bench_stats.h).
 *
 * U_B counts the pairs (a, b) with b > a, ties as one half; U_A = na nb - U_B.
 * The statistic is U = max(U_A, U_B).
 * - Exact (no tied values anywhere and na nb <= BENCH_MWU_EXACT_CELLS):
 *   p = min(1, 2 P(U' >= U)) over the exact null distribution of U', whose
 *   counts are the coefficients of the Gaussian binomial [na+nb choose na]_q.
 * - Otherwise the normal approximation with the tie correction of the
 *   variance and a continuity correction of 1/2:
 *   z = (U - na nb / 2 - 1/2) / sqrt(na nb / 12 ((n + 1) - T / (n (n - 1)))),
 *   T = sum over groups of tied values of t^3 - t, p = min(1, 2 Q(z)).
 * Both are what SciPy 1.10's mannwhitneyu() computes for method "exact" and
 * "asymptotic" (tests/host/test_bench_scipy.py compares them).
 */
#include <bench/bench_stats.h>

/* Counts of U' = 0..na*nb over all C(na+nb, na) orderings, in c[]. Built
 * as [M+i choose i]_q for i = 1..m (m = the smaller size, M the larger):
 * times (1 - q^(M+i)), then divided by (1 - q^i), which is exact. Every
 * coefficient stays within C(na+nb, na) <= C(40, 20) < 2^38 in magnitude;
 * c[] needs na*nb + m + 1 entries (BENCH_MWU_POLY). */
static void mwu_counts(int na, int nb, int64_t *c)
{
	int m = na < nb ? na : nb, M = na < nb ? nb : na;
	c[0] = 1;
	int deg = 0;
	for (int i = 1; i <= m; i++) {
		int k = M + i;
		for (int u = deg + 1; u <= deg + k; u++)
			c[u] = 0;
		for (int u = deg + k; u >= k; u--)
			c[u] -= c[u - k];
		deg += k;
		for (int u = i; u <= deg; u++)
			c[u] += c[u - i];
		deg -= i;
	}
}

/* 2 U_B and the tie term T from the two sorted columns by one merge. */
static int64_t mwu_u2_b(const int64_t *a, int na, const int64_t *b, int nb, int64_t *ties)
{
	int64_t rank2_b = 0;   /* sum of twice B's (mid)ranks */
	int i = 0, j = 0, pos = 0;
	*ties = 0;
	while (i < na || j < nb) {
		int64_t v = j >= nb || (i < na && a[i] < b[j]) ? a[i] : b[j];
		int ta = 0, tb = 0;
		while (i < na && a[i] == v) {
			i++;
			ta++;
		}
		while (j < nb && b[j] == v) {
			j++;
			tb++;
		}
		int64_t t = ta + tb;
		rank2_b += tb * (2 * (int64_t)pos + t + 1);   /* ranks pos+1..pos+t average */
		*ties += t * t * t - t;
		pos += (int)t;
	}
	return rank2_b - (int64_t)nb * (nb + 1);
}

void bench_mwu(const int64_t *a, int na, const int64_t *b, int nb, int64_t *poly, struct bench_mwu *out)
{
	out->method = BENCH_MWU_NONE;
	out->u2_b = 0;
	out->p = BENCH_P_ONE;
	if (na < 1 || nb < 1)
		return;
	int64_t T;
	int64_t cells = (int64_t)na * nb;
	out->u2_b = mwu_u2_b(a, na, b, nb, &T);
	int64_t u2 = out->u2_b > cells ? out->u2_b : 2 * cells - out->u2_b;   /* 2 max(U_A, U_B) */
	if (T == 0 && cells <= BENCH_MWU_EXACT_CELLS) {
		out->method = BENCH_MWU_EXACT;
		mwu_counts(na, nb, poly);
		uint64_t total = 0, tail = 0;
		for (int64_t u = 0; u <= cells; u++) {
			total += (uint64_t)poly[u];
			if (2 * u >= u2)
				tail += (uint64_t)poly[u];
		}
		bench_u128 p = bench_div_round((bench_u128)2 * tail * BENCH_P_ONE, total);
		out->p = p > BENCH_P_ONE ? BENCH_P_ONE : (uint64_t)p;
		return;
	}
	out->method = BENCH_MWU_NORMAL;
	/* d = 2 (U - mu - 1/2); d <= 0 means z <= 0 and p >= 1. With n <= 2048:
	 * z^2 = 3 d^2 n (n-1) / (na nb K), K = (n+1) n (n-1) - T; the numerator
	 * is below 2^64, the denominator below 2^54. */
	int64_t d = u2 - cells - 1;
	int64_t n = (int64_t)na + nb;
	uint64_t K = (uint64_t)((n + 1) * n * (n - 1) - T);
	if (d <= 0 || K == 0)
		return;   /* p = 1; K = 0: every value equal */
	bench_u128 num = (bench_u128)3 * (uint64_t)d * (uint64_t)d * (uint64_t)(n * (n - 1));
	out->p = bench_normal_2sf(num, (uint64_t)cells * K);
}

/* See bench_stats.h. */
uint64_t bench_mwu_min_p(int na, int nb)
{
	if (na < 1 || nb < 1)
		return BENCH_P_ONE;
	/* c = C(na + nb, k) by c_i = c_(i-1) (n - k + i) / i = C(n - k + i, i),
	 * exact at every step; past 2 BENCH_P_ONE the p is below one unit. */
	int k = na < nb ? na : nb, n = na + nb;
	uint64_t c = 1;
	for (int i = 1; i <= k; i++) {
		c = c * (uint64_t)(n - k + i) / (uint64_t)i;
		if (c > 2 * BENCH_P_ONE)
			return 0;
	}
	uint64_t p = (2 * BENCH_P_ONE + c / 2) / c;   /* rounded, as bench_mwu */
	return p > BENCH_P_ONE ? BENCH_P_ONE : p;
}

/* See bench_stats.h. */
int bench_mwu_runs_for(uint64_t alpha)
{
	int r = 1;
	while (r < 64 && bench_mwu_min_p(r, r) >= alpha)
		r++;
	return r;
}
