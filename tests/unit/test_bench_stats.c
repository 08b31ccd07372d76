/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests of the benchmark statistics (kernel/bench/bench_stats.c,
 * bench_mwu.c, bench_normal.c, bench_bootstrap.c, bench_math.c): small cases
 * worked by hand, and every Min, Max, Avg., Median, Median Per Core and
 * Rate value the seed report printed, recomputed from its samples
 * (tests/data/seed-report/). tests/host/test_bench_scipy.py checks the same
 * code against SciPy on many more sample sets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <bench/bench_stats.h>
#include <sim/seed_table.h>

static struct bench_scratch scratch;

static void test_math(void **state)
{
	(void)state;
	bench_u128 r;
	bench_u128 big = ((bench_u128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
	bench_u128 q = bench_divmod(big, 1000000007ULL, &r);
	assert_true(q * 1000000007ULL + r == big && r < 1000000007ULL);
	q = bench_divmod(big, big >> 3, &r);   /* 128-bit divisor */
	assert_true(q == 8 && r == (big & 7));
	bench_u128 top = ~(bench_u128)0;
	q = bench_divmod(top, top - 1, &r);    /* divisor above 2^127 */
	assert_true(q == 1 && r == 1);
	assert_true(bench_div_round(5, 2) == 3);   /* half up */
	assert_true(bench_div_round(7, 2) == 4);
	assert_true(bench_div_round(4, 3) == 1);
	assert_true(bench_div_round(5, 3) == 2);
	assert_true(bench_isqrt(0) == 0 && bench_isqrt(1) == 1 && bench_isqrt(15) == 3 && bench_isqrt(16) == 4);
	assert_true(bench_isqrt(top) == UINT64_MAX);
	assert_true(bench_isqrt((bench_u128)1 << 126) == (uint64_t)1 << 63);
	assert_int_equal(bench_bits(0), 0);
	assert_int_equal(bench_bits(top), 128);
}

static void test_sort(void **state)
{
	(void)state;
	int64_t v[] = { 5, -1, 3, 3, 0, 9, 2, 2, 8, -7 };
	int64_t w[] = { -7, -1, 0, 2, 2, 3, 3, 5, 8, 9 };
	bench_sort(v, 10);
	assert_memory_equal(v, w, sizeof(v));
	bench_sort(v, 0);
	bench_sort(v, 1);
}

/* Statistics worked by hand. */
static void test_column_by_hand(void **state)
{
	(void)state;
	int64_t s[8];
	struct bench_col c;
	const int64_t odd[] = { 3, 1, 2 };
	assert_int_equal(bench_stats_column(odd, 3, 2, s, &c), 0);
	assert_int_equal(c.min, 1);
	assert_int_equal(c.max, 3);
	assert_int_equal(c.sum, 6);
	assert_int_equal(c.mean, 2);
	assert_int_equal(c.median2, 4);
	assert_int_equal(c.median, 2);
	assert_int_equal(c.median_per_core, 1);
	assert_int_equal(c.cv, 5000);   /* SD 1 over mean 2: 50.00 % */
	assert_int_equal(s[0], 1);
	assert_int_equal(s[2], 3);

	const int64_t even[] = { 4, 1, 3, 2 };
	assert_int_equal(bench_stats_column(even, 4, 1, s, &c), 0);
	assert_int_equal(c.median2, 5);
	assert_int_equal(c.median, 3);   /* 2.5 rounds up */
	assert_int_equal(c.mean, 3);     /* 10 / 4 = 2.5 rounds up */
	assert_int_equal(c.cv, 5164);    /* sqrt(5/3) / 2.5 = 0.516398 */

	const int64_t pair[] = { 10, 11 };   /* median 10.5 per 4 threads: 2.625 */
	assert_int_equal(bench_stats_column(pair, 2, 4, s, &c), 0);
	assert_int_equal(c.median_per_core, 3);

	const int64_t one[] = { 7 };
	assert_int_equal(bench_stats_column(one, 1, 1, s, &c), 0);
	assert_int_equal(c.median, 7);
	assert_int_equal(c.cv, BENCH_NA);

	const int64_t zeros[] = { 0, 0, 0 };
	assert_int_equal(bench_stats_column(zeros, 3, 1, s, &c), 0);
	assert_int_equal(c.cv, BENCH_NA);   /* mean 0 */
	const int64_t same[] = { 5, 5, 5 };
	assert_int_equal(bench_stats_column(same, 3, 1, s, &c), 0);
	assert_int_equal(c.cv, 0);

	const int64_t ends[] = { 0, BENCH_VALUE_MAX };
	assert_int_equal(bench_stats_column(ends, 2, BENCH_MAX_THREADS, s, &c), 0);
	assert_int_equal(c.mean, BENCH_VALUE_MAX / 2);
	assert_int_equal(c.cv, 14142);      /* sqrt(2) */
}

static void test_column_refusals(void **state)
{
	(void)state;
	int64_t s[4];
	struct bench_col c = { .n = 99 };
	const int64_t neg[] = { 1, -1 }, over[] = { BENCH_VALUE_MAX + 1 }, ok[] = { 1 };
	assert_int_equal(bench_stats_column(neg, 2, 1, s, &c), -1);
	assert_int_equal(bench_stats_column(over, 1, 1, s, &c), -1);
	assert_int_equal(bench_stats_column(ok, 0, 1, s, &c), -1);
	assert_int_equal(bench_stats_column(ok, BENCH_MAX_SAMPLES + 1, 1, s, &c), -1);
	assert_int_equal(bench_stats_column(ok, 1, 0, s, &c), -1);
	assert_int_equal(bench_stats_column(ok, 1, BENCH_MAX_THREADS + 1, s, &c), -1);
	assert_int_equal(c.n, 99);   /* nothing written */
}

static void test_ratio(void **state)
{
	(void)state;
	assert_int_equal(bench_ratio(1, 3), 3333);
	assert_int_equal(bench_ratio(2, 3), 6667);
	assert_int_equal(bench_ratio(1, 8), 1250);
	assert_int_equal(bench_ratio(1, 20000), 1);   /* 0.005 % rounds up to 0.01 % */
	assert_int_equal(bench_ratio(1, 20001), 0);
	assert_int_equal(bench_ratio(1, 0), BENCH_NA);
	assert_int_equal(bench_ratio(0, 5), 0);
	assert_int_equal(bench_ratio(BENCH_RATIO_MAX / BENCH_PCT_ONE, 1), BENCH_RATIO_MAX);
	assert_int_equal(bench_ratio(BENCH_RATIO_MAX / BENCH_PCT_ONE + 1, 1), BENCH_NA);
}

/* Exact p-values worked by hand: all orderings of the two samples counted. */
static void test_mwu_exact(void **state)
{
	(void)state;
	struct bench_mwu m;
	const int64_t a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	bench_mwu(a, 3, b, 3, scratch.poly, &m);   /* U = 9 only in 1 of C(6,3) = 20 orderings */
	assert_int_equal(m.method, BENCH_MWU_EXACT);
	assert_int_equal(m.u2_b, 18);
	assert_true(m.p == BENCH_P_ONE / 10);
	bench_mwu(b, 3, a, 3, scratch.poly, &m);   /* symmetric */
	assert_int_equal(m.u2_b, 0);
	assert_true(m.p == BENCH_P_ONE / 10);

	const int64_t a2[] = { 1, 3 }, b2[] = { 2, 4 };
	bench_mwu(a2, 2, b2, 2, scratch.poly, &m);   /* U counts 1,1,2,1,1: P(U >= 3) = 2/6 */
	assert_int_equal(m.u2_b, 6);
	assert_true(m.p == 666666666667ULL);

	const int64_t one_a[] = { 1 }, one_b[] = { 2 };
	bench_mwu(one_a, 1, one_b, 1, scratch.poly, &m);
	assert_int_equal(m.method, BENCH_MWU_EXACT);
	assert_true(m.p == BENCH_P_ONE);

	bench_mwu(one_a, 0, one_b, 1, scratch.poly, &m);
	assert_int_equal(m.method, BENCH_MWU_NONE);

	/* 20 x 20 is the largest square exact case: all B above all A. */
	int64_t a20[20], b20[20];
	for (int i = 0; i < 20; i++) {
		a20[i] = i;
		b20[i] = 100 + i;
	}
	bench_mwu(a20, 20, b20, 20, scratch.poly, &m);   /* 2 / C(40, 20) = 1.4509e-11 */
	assert_int_equal(m.method, BENCH_MWU_EXACT);
	assert_true(m.p == 15);
	int64_t b21[21];
	for (int i = 0; i < 21; i++)
		b21[i] = 100 + i;
	bench_mwu(a20, 20, b21, 21, scratch.poly, &m);   /* 420 pairs: normal */
	assert_int_equal(m.method, BENCH_MWU_NORMAL);
}

/* With ties: ranks 1.5 1.5 3.5 3.5 5.5 5.5, U_B = 8.5, T = 18,
 * z = (8.5 - 4.5 - 0.5) / sqrt(9/12 (7 - 18/30)) = 1.59752. */
static void test_mwu_ties(void **state)
{
	(void)state;
	struct bench_mwu m;
	const int64_t a[] = { 1, 1, 2 }, b[] = { 2, 3, 3 };
	bench_mwu(a, 3, b, 3, scratch.poly, &m);
	assert_int_equal(m.method, BENCH_MWU_NORMAL);
	assert_int_equal(m.u2_b, 17);
	assert_true(m.p >= 110148924184ULL && m.p <= 110148924188ULL);   /* 0.110148924186 */
	const int64_t all[] = { 4, 4, 4 };
	bench_mwu(all, 3, all, 3, scratch.poly, &m);   /* no variance: p = 1 */
	assert_true(m.p == BENCH_P_ONE);
}

/* 2 Q(z) at known points (z^2 given as a fraction). */
static void test_normal_tail(void **state)
{
	(void)state;
	static const struct {
		uint64_t num, den, want, tol;
	} cases[] = {
		{ 0, 1, 1000000000000ULL, 0 },
		{ 1, 1, 317310507863ULL, 1 },                   /* z = 1 */
		{ 3841458820694124ULL, 1000000000000000ULL, 50000000000ULL, 1 },   /* z = 1.959964 */
		{ 16, 1, 63342484ULL, 1 },                       /* z = 4, the series' end */
		{ 1601, 100, 63008795ULL, 1 },                   /* z = 4.00125, the fraction's start */
		{ 25, 1, 573303ULL, 1 },                         /* z = 5 */
		{ 49, 1, 3ULL, 1 },                              /* z = 7: 2.56e-12 */
		{ 289, 4, 0, 0 },                                /* z = 8.5 */
		{ 1000, 1, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t p = bench_normal_2sf(cases[i].num, cases[i].den);
		uint64_t d = p > cases[i].want ? p - cases[i].want : cases[i].want - p;
		if (d > cases[i].tol)
			fail_msg("2Q(sqrt(%llu/%llu)) = %llu, want %llu", (unsigned long long)cases[i].num,
				 (unsigned long long)cases[i].den, (unsigned long long)p,
				 (unsigned long long)cases[i].want);
	}
}

static void test_bootstrap(void **state)
{
	(void)state;
	struct bench_ci ci, again;
	const int64_t a[] = { 100, 100, 100 }, b[] = { 150, 150 };
	bench_bootstrap_ci(a, 3, b, 2, 1, &scratch, &ci);
	assert_int_equal(ci.lo, 15000);
	assert_int_equal(ci.hi, 15000);
	const int64_t za[] = { 0, 0, 1 };
	bench_bootstrap_ci(za, 3, b, 2, 1, &scratch, &ci);   /* a resampled median of A is 0 */
	assert_int_equal(ci.lo, BENCH_NA);
	assert_int_equal(ci.hi, BENCH_NA);
	const int64_t sa[] = { 90, 95, 100, 105, 110 }, sb[] = { 120, 125, 130, 135 };
	bench_bootstrap_ci(sa, 5, sb, 4, 7, &scratch, &ci);
	bench_bootstrap_ci(sa, 5, sb, 4, 7, &scratch, &again);
	assert_int_equal(ci.lo, again.lo);   /* deterministic */
	assert_int_equal(ci.hi, again.hi);
	/* every resample ratio lies between min_B / max_A and max_B / min_A */
	assert_true(ci.lo <= ci.hi);
	assert_true(ci.lo >= bench_ratio(120, 110) && ci.hi <= bench_ratio(135, 90));
	assert_true(ci.lo <= bench_ratio(255, 200) && ci.hi >= bench_ratio(255, 200));
}

/* Every statistic and Rate the seed report printed for one machine. */
static void check_seed_machine(const char *path)
{
	static struct seed_table t;
	assert_int_equal(seed_table_load(path, &t), 0);
	static const char *const stat_name[] = { "Min", "Max", "Avg.", "Median", "Median Per Core" };
	static const char *const rate_name[] = { "Rate(Avg.)", "Rate(Median)", "Rate(Max-Min)", "Rate(Min-Min)" };
	int bad = 0;
	for (int c = 0; c < SEED_COLS; c++) {
		struct bench_col col[SEED_POLICIES];
		for (int p = 0; p < SEED_POLICIES; p++) {
			const int64_t *v = &t.v[(p * SEED_COLS + c) * SEED_SAMPLES];
			assert_int_equal(bench_stats_column(v, SEED_SAMPLES, t.threads[c], scratch.a, &col[p]), 0);
			const int64_t got[SEED_NSTATS] = { col[p].min, col[p].max, col[p].mean, col[p].median,
							   col[p].median_per_core };
			for (int k = 0; k < SEED_NSTATS; k++) {
				if (got[k] != t.stat[p][k][c]) {
					print_error("%s: %s, %d threads, %s: got %lld, the report %lld (x100)\n", path,
						    t.policy[p], t.threads[c], stat_name[k], (long long)got[k],
						    (long long)t.stat[p][k][c]);
					bad++;
				}
			}
		}
		struct bench_cmp m;
		bench_compare(&t.v[c * SEED_SAMPLES], &col[0], &t.v[(SEED_COLS + c) * SEED_SAMPLES], &col[1],
			      BENCH_BOOTSTRAP_SEED, &scratch, &m);
		const int64_t got[SEED_NRATES] = { m.rate_avg, m.rate_median, m.rate_max_min, m.rate_min_min };
		for (int k = 0; k < SEED_NRATES; k++) {
			if (got[k] != t.rate[k][c]) {
				print_error("%s: %d threads, %s: got %lld, the report %lld (0.01 %%)\n", path,
					    t.threads[c], rate_name[k], (long long)got[k], (long long)t.rate[k][c]);
				bad++;
			}
		}
		/* the median ratio lies in its own bootstrap interval */
		assert_true(m.ci.lo <= m.rate_median && m.rate_median <= m.ci.hi);
		assert_true(m.mwu.method == BENCH_MWU_EXACT && m.mwu.p <= BENCH_P_ONE);
	}
	assert_int_equal(bad, 0);
}

static void test_seed_i7_1370p(void **state)
{
	(void)state;
	check_seed_machine("tests/data/seed-report/i7-1370p.table");
}

static void test_seed_core_ultra_7_155h(void **state)
{
	(void)state;
	check_seed_machine("tests/data/seed-report/core-ultra-7-155h.table");
}

/* The smallest p a two-sided Mann-Whitney test can give: 2 / C(na+nb, na);
 * the exact test reaches it when one side is wholly above the other. */
static void test_mwu_min_p(void **state)
{
	(void)state;
	assert_int_equal(bench_mwu_min_p(2, 2), (2 * BENCH_P_ONE + 3) / 6);        /* 0.333 */
	assert_int_equal(bench_mwu_min_p(3, 3), BENCH_P_ONE / 10);               /* 2/20 */
	assert_int_equal(bench_mwu_min_p(4, 4), (2 * BENCH_P_ONE + 35) / 70);    /* 0.029 */
	assert_int_equal(bench_mwu_min_p(1, 1), BENCH_P_ONE);
	assert_int_equal(bench_mwu_min_p(0, 4), BENCH_P_ONE);
	assert_int_equal(bench_mwu_min_p(200, 200), 0);                          /* below 10^-12 */
	assert_int_equal(bench_mwu_runs_for(BENCH_P_ONE / 20), 4);
	assert_int_equal(bench_mwu_runs_for(BENCH_P_ONE / 100), 5);              /* 2/252 = 0.0079 */
	int64_t a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 }, poly[BENCH_MWU_POLY];
	struct bench_mwu m;
	bench_mwu(a, 4, b, 4, poly, &m);
	assert_int_equal(m.method, BENCH_MWU_EXACT);
	assert_int_equal(m.p, bench_mwu_min_p(4, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_math),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_column_by_hand),
		cmocka_unit_test(test_column_refusals),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_mwu_exact),
		cmocka_unit_test(test_mwu_ties),
		cmocka_unit_test(test_normal_tail),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_mwu_min_p),
		cmocka_unit_test(test_seed_i7_1370p),
		cmocka_unit_test(test_seed_core_ultra_7_155h),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
