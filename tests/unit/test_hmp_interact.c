/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of capacity-invariant interactivity under hmp
 * (kernel/sched/ule_hmp.c, hmp_tick_charge): a tick charges the running
 * thread's run history with the work it did there, so the same thread is
 * as interactive wherever hmp placed it. Found by `frames` at CPUs + 1
 * threads on an 18-CPU machine whose SMT is weak (3 P-cores whose two
 * threads do 1.09 together, 11 E-cores at 0.78, one LP-E): the render
 * loop, placed on an idle P core, found every sibling busy once the hogs
 * arrived, ran its frames at 0.545 there, was charged as much run as it
 * slept, turned batch and waited behind a hog's whole slices (8 fps
 * against ULE's 25, whose renderer happened to start on an E-core). */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_shape.h>
#include <tests/unit/ut_place.h>

/* One weak-SMT P core (CPUs 0, 1: 1.09 together), two E-cores at 0.78
 * (CPUs 2, 3). HFI perf by speed. */
static const struct ut_shape weak_smt = {
	.p_cores = 1, .p_threads = 2, .e_modules = { 2 }, .lpe = 0,
	.cap = { 1000, 780, 0 }, .perf = { 255, 199, 0 }, .ee = { 60, 170, 0 }, .smt = 92,
};

/* th[1], pinned to CPU 1 beside a hog (th[0], CPU 0), runs `run` ticks
 * then sleeps `sleep` ticks, frames times over; returns its priority. */
static int render_beside_a_hog(int frames, int run, int sleep)
{
	struct cpuset c0 = ut_only(0), c1 = ut_only(1);
	place_on(0, &c0);
	spt.self = 0;
	sched_thread_init(&th[1], NULL, SCHED_CLASS_TIMESHARE, 0, &c1);
	th[1].ts_slptime = 50u << SCHED_TICK_SHIFT;   /* starts interactive, as a program's first thread */
	sched_add(&th[1], 0);
	spt.self = 1;
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &th[1]);
	for (int f = 0; f < frames; f++) {
		for (int t = 0; t < run; t++) {
			spt_advance(1);
			spt.self = 0;
			sched_clock(0, &th[0], 1);
			spt.self = 1;
			sched_clock(1, &th[1], 1);
		}
		spt.self = 1;
		sched_sleep(&th[1]);
		assert_null(sched_switch(&th[1], SCHED_SW_SLEEP));
		for (int t = 0; t < sleep; t++) {
			spt_advance(1);
			spt.self = 0;
			sched_clock(0, &th[0], 1);
		}
		spt.self = 0;
		sched_wakeup(&th[1]);
		spt.self = 1;
		assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &th[1]);
	}
	spt.self = 0;
	return th[1].ts_pri;
}

/* A loop that runs as long as it sleeps beside a busy sibling of a weak
 * SMT core did half the work of its sleep: interactive under hmp, batch
 * under stock ULE, which counts ticks. */
static void test_render_loop_stays_interactive_beside_a_busy_sibling(void **state)
{
	(void)state;
	ut_shape_boot(&weak_smt);
	assert_true(render_beside_a_hog(60, 2, 2) <= PRI_MAX_INTERACT);
	ut_shape_boot(&weak_smt);
	sched_policy = SCHED_POLICY_ULE;
	assert_true(render_beside_a_hog(60, 2, 2) > PRI_MAX_INTERACT);
}

/* What a tick charges: a whole tick under ULE, and alone on a P core (the
 * fastest, capacity 1024); capacity / 1024 of one on an E-core; the
 * thread's SMT share of the P core while its sibling is busy. */
static void test_tick_charges_work(void **state)
{
	(void)state;
	ut_shape_boot(&weak_smt);
	assert_int_equal(hmp_tick_charge(0), SCHED_TICKINCR);
	assert_int_equal(hmp_tick_charge(2), SCHED_TICKINCR * hmp_capacity(2) / HMP_CAPACITY_MAX);
	struct cpuset c0 = ut_only(0);
	place_on(0, &c0);
	assert_int_equal(hmp_tick_charge(1), SCHED_TICKINCR * (HMP_SMT_MAX + 92) / (2 * HMP_SMT_MAX));
	sched_policy = SCHED_POLICY_ULE;
	assert_int_equal(hmp_tick_charge(1), SCHED_TICKINCR);
	assert_int_equal(hmp_tick_charge(2), SCHED_TICKINCR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_loop_stays_interactive_beside_a_busy_sibling),
		cmocka_unit_test(test_tick_charges_work),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
