/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of HFI perf-0 CPUs as overflow (kern.sched.hmp.perf0=overflow,
 * DESIGN decision 7) with a thread that sleeps and wakes: O1 of docs/hmp.md.
 * The property run's generated machines 69 and 169 (`frames`: a render
 * loop and CPU hogs, one thread more than the CPUs with perf > 0) showed
 * the renderer, batch by ULE's score, sleeping from its CPU; the hog on
 * the overflow CPU left for that CPU at once, the renderer woke to every
 * scored CPU busy, took the overflow CPU in its place (a row throttled to
 * perf 0 runs at an eighth) and stayed there: 9 fps against ULE's 25. */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_shape.h>
#include <tests/unit/ut_place.h>

/* 2 P cores x 2, two 3-core E modules, one LP-E core at HFI perf 0 (ee
 * kept): CPUs 0-3 P, 4-9 E, 10 the overflow CPU. */
static const struct ut_shape o1_shape = {
	.p_cores = 2, .p_threads = 2, .e_modules = { 3, 3 }, .lpe = 1,
	.cap = { 1000, 540, 420 }, .perf = { 244, 140, 0 }, .ee = { 80, 200, 230 },
};
#define O1_OVERFLOW 10

/* A renderer (thread 0, batch, running in stretches of a tick) and ten
 * hogs: the renderer and nine hogs on the ten scored CPUs, the tenth hog
 * on the overflow CPU. The renderer runs a tick, then sleeps for `sleep`
 * ticks while every CPU ticks, then wakes; returns the CPU it wakes to. */
static int o1_renderer_wakes_to(int seed, int sleep)
{
	ut_shape_boot(&o1_shape);
	seed_all(seed);
	assert_true(hmp_avoid(O1_OVERFLOW) && !hmp_never(O1_OVERFLOW));
	int own = place(0);
	assert_true(own < 4);
	for (int k = 1; k <= 10; k++)
		place(k);
	assert_int_equal(tdq_load_of(O1_OVERFLOW), 1);
	run_round();
	spt_advance(1);   /* a frame: a tick on end (no poller waking for a moment) */
	spt.self = own;
	sched_sleep(&th[0]);
	assert_null(sched_switch(&th[0], SCHED_SW_SLEEP));
	for (int t = 0; t < sleep; t++)
		run_round();
	spt.self = 0;
	sched_wakeup(&th[0]);
	return th[0].ts_cpu;
}

/* O1: while the renderer sleeps for less than a slice its CPU still has
 * its thread: the overflow hog stays, and the renderer wakes to a scored
 * CPU. A sleep longer than a slice keeps nothing: the hog leaves the
 * overflow CPU for the renderer's idle one, as for any free scored CPU. */
static void test_overflow_keeps_off_a_returning_sleepers_cpu(void **state)
{
	(void)state;
	for (int seed = 0; seed < 20; seed++) {
		int cpu = o1_renderer_wakes_to(seed, 2);
		if (cpu == O1_OVERFLOW)
			fail_msg("seed %d: the renderer woke to the overflow CPU", seed);
		assert_int_equal(tdq_load_of(O1_OVERFLOW), 1);   /* the hog is still there */
	}
	for (int seed = 0; seed < 20; seed++) {
		o1_renderer_wakes_to(seed, (int)sched_slice + 2);
		assert_int_equal(STAT(hmp_avoid_moves) + STAT(upmigrations) > 0, 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overflow_keeps_off_a_returning_sleepers_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
