/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of placement by Thread Director class (kern.sched.hmp.itd,
 * kernel/sched/ule_hmp.c, hmp_search.c) and of class swaps
 * (kern.sched.hmp.itd_swap, ule_itd_swap.c) on the i7-1370P shape with a
 * vector column in which E-cores score far lower than in class 0 (a
 * vector thread gains more from a P-core than a scalar one). */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_place.h>
#include <lib/itd_class.h>

#define E_VECTOR_PERF 60   /* raw HFI byte: E-cores' vector perf (class 0: 140) */

/* The i7 shape, its HFI with a vector column (P as class 0, E 60) and a
 * spin column of the same P/E ratio as class 0 (P 122, E 70). */
static void itd_i7(void)
{
	ut_hybrid(UT_I7, 0);
	for (int c = 0; c < UT_I7_NCPU; c++) {
		int cap, perf, ee;
		ut_hybrid_values(UT_I7, c, 0, &cap, &perf, &ee);
		hmp_provide_class(HMP_PROV_MACHINE, c, ITD_VECTOR, c < 12 ? perf * 4 : E_VECTOR_PERF * 4, ee * 4);
		hmp_provide_class(HMP_PROV_MACHINE, c, ITD_SPIN, perf * 2, ee * 4);
	}
	hmp_publish();
}

/* place_on_class() on every CPU. */
static int place_class(int i, unsigned cls)
{
	return place_on_class(i, cls, NULL);
}

/* Thread i of class cls placed on the one CPU cpu, then free to move. */
static void place_class_on(int i, unsigned cls, int cpu)
{
	struct cpuset one = ut_only(cpu);
	place_on_class(i, cls, &one);
	assert_int_equal(th[i].ts_cpu, cpu);
	sched_set_affinity(&th[i], NULL);
}

/* The column: class 0 unless itd, the thread's class with it; the scores
 * read from it. */
static void test_column_selection(void **state)
{
	(void)state;
	itd_i7();
	struct td_sched t = { 0 };
	sched_thread_init(&t, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	sched_itd_class_set(&t, ITD_VECTOR);
	assert_int_equal(search_mode_for(&t).cls, 0);
	hmp_itd = 1;
	assert_int_equal(search_mode_for(&t).cls, ITD_VECTOR);
	sched_itd_class_set(&t, ITD_CLASS_MAX);   /* out of range: ignored */
	assert_int_equal(search_mode_for(&t).cls, ITD_VECTOR);
	assert_int_equal(hmp_score_class(12, HMP_METRIC_PERF, 0, ITD_VECTOR), E_VECTOR_PERF * 4);
	assert_int_equal(hmp_score_class(12, HMP_METRIC_PERF, 0, ITD_VNNI), 140 * 4);   /* not given */
}

/* With the six P cores busy, a 7th thread goes to an E-core (560 against
 * a busy core's sibling, 976 x 0.39 = 381) — and so does a vector thread
 * with itd 0; with itd 1 the vector thread takes a P sibling (381 against
 * its E column's 240), a scalar one still an E-core. */
static void test_vector_thread_takes_a_p_sibling(void **state)
{
	(void)state;
	for (int itd = 0; itd <= 1; itd++)
		for (int trial = 0; trial < 20; trial++) {
			itd_i7();
			hmp_itd = itd;
			seed_all(trial);
			for (int i = 0; i < 6; i++)
				place_class_on(i, ITD_SCALAR, 2 * i);
			int v = place_class(6, ITD_VECTOR), s = place_class(7, ITD_SCALAR);
			assert_true(s >= 12);
			if (itd)
				assert_true(v < 12 && v % 2 == 1);
			else
				assert_true(v >= 12);
		}
}

/* Every P CPU busy with a scalar thread, a vector thread on E CPU 12: the
 * pass asks the vector thread and one P thread to trade, both move at
 * their switches (counted), and the next pass asks nothing more. */
static void test_swap(void **state)
{
	(void)state;
	itd_i7();
	hmp_itd = 1;
	for (int i = 0; i < 12; i++)
		place_class_on(i, ITD_SCALAR, i);
	place_class_on(12, ITD_VECTOR, 12);
	struct search_mode mode = search_mode_now();
	spt.self = 0;
	hmp_itd_swap_pass(&mode);
	assert_true(th[12].ts_flags & TSF_PICKCPU);
	assert_true(th[12].ts_flags & TSF_ITDSWAP);
	int p = th[12].ts_move_to;
	assert_true(p >= 0 && p < 12);
	assert_true(th[p].ts_flags & TSF_ITDSWAP);
	assert_int_equal(th[p].ts_move_to, 12);
	assert_true(tdq_cpu(0)->tdq_stats.itd_swap_asks == 2);
	for (int i = 0; i < 12; i++)
		assert_true(i == p || !(th[i].ts_flags & TSF_PICKCPU));   /* one pair only */
	spt.self = 12;
	assert_int_equal(sched_ipi(12, &th[12]), 1);
	sched_switch(&th[12], SCHED_SW_PREEMPT);
	assert_int_equal(th[12].ts_cpu, p);
	spt.self = p;
	assert_int_equal(sched_ipi(p, &th[p]), 1);
	assert_ptr_equal(sched_switch(&th[p], SCHED_SW_PREEMPT), &th[12]);   /* it runs where p ran */
	assert_int_equal(th[p].ts_cpu, 12);
	spt.self = 12;
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &th[p]);
	assert_true(tdq_cpu(12)->tdq_stats.itd_swaps == 1 && tdq_cpu(p)->tdq_stats.itd_swaps == 1);
	assert_false((th[12].ts_flags | th[p].ts_flags) & TSF_ITDSWAP);
	spt_advance(1000);
	spt.self = 0;
	hmp_itd_swap_pass(&mode);   /* swapped back would lose: nothing asked */
	for (int i = 0; i <= 12; i++)
		assert_false(th[i].ts_flags & TSF_PICKCPU);
}

/* No swap: at equal gain (spin has class 0's P/E ratio; two scalar
 * threads), when the P CPU is idle or has a queued thread besides its
 * running one, when either thread is pinned, with itd 0 or itd_swap 0. */
static void test_no_swap(void **state)
{
	(void)state;
	for (int c = 0; c < 7; c++) {
		itd_i7();
		hmp_itd = 1;
		unsigned cls = c == 0 ? ITD_SPIN : c == 1 ? ITD_SCALAR : ITD_VECTOR;
		int p_busy = c != 2;
		if (p_busy)
			place_class_on(0, ITD_SCALAR, 0);
		place_class_on(12, cls, 12);
		if (c == 3)
			place_class_on(1, ITD_SCALAR, 0);   /* CPU 0 has two threads */
		if (c == 4)
			ts_pin_add(&th[0], 1);
		if (c == 5)
			hmp_itd = 0;
		if (c == 6)
			hmp_itd_swap = 0;
		struct search_mode mode = search_mode_now();
		spt.self = 0;
		hmp_itd_swap_pass(&mode);
		if (th[12].ts_flags & TSF_ITDSWAP)
			fail_msg("case %d: swap asked", c);
		assert_false(th[0].ts_flags & TSF_ITDSWAP);
		assert_true(tdq_cpu(0)->tdq_stats.itd_swap_asks == 0);
	}
}

/* An asked thread that may no longer run on its partner's CPU stays. */
static void test_swap_target_refused(void **state)
{
	(void)state;
	itd_i7();
	hmp_itd = 1;
	place_class_on(0, ITD_SCALAR, 0);
	place_class_on(12, ITD_VECTOR, 12);
	struct search_mode mode = search_mode_now();
	spt.self = 0;
	hmp_itd_swap_pass(&mode);
	assert_int_equal(th[12].ts_move_to, 0);
	struct cpuset e = ut_only(12);
	spt.self = 12;
	sched_set_affinity(&th[12], &e);
	sched_switch(&th[12], SCHED_SW_PREEMPT);
	assert_int_equal(th[12].ts_cpu, 12);
	assert_true(tdq_cpu(12)->tdq_stats.itd_swaps == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_column_selection),
		cmocka_unit_test(test_vector_thread_takes_a_p_sibling),
		cmocka_unit_test(test_swap),
		cmocka_unit_test(test_no_swap),
		cmocka_unit_test(test_swap_target_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
