/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of learned synchronous wake-ups (kernel/sched/ule_sync.c):
 * which stretches make a thread a sync waker, and what hmp's placement
 * does with one — a request/answer pair (pgbench's client and backend)
 * settles on one P core and each wake-up ends at step 4, where before the
 * woken thread found its last CPU's sibling busy with its waker, searched,
 * and the pairs wandered over the cores with a backend left on an E-core
 * (pgbench on the i7-1370P model: 0.94 x ULE at 10 clients, 16.9 CPUs
 * looked at per pick at 4 clients against ULE's 1.0); a dispatcher's
 * workers take a core each; a backend leaves a slower warm cache group
 * for its client's core. */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_place.h>

/* Every CPU with nothing running runs what it has queued. */
static void run_queued(void)
{
	for (int c = 0; c < spt.ncpu; c++)
		if (!tdq_cpu(c)->tdq_curthread && tdq_load_of(c) > 0) {
			spt.self = c;
			sched_switch(NULL, SCHED_SW_YIELD);
		}
	spt.self = 0;
}

/* The calling CPU's running thread t wakes w, then (if sleep) sleeps in
 * the same tick; every CPU then runs what it has. */
static void wake_then_sleep(struct td_sched *t, struct td_sched *w, int sleep)
{
	spt.self = t->ts_cpu;
	sched_wakeup(w);
	if (sleep) {
		sched_sleep(t);
		sched_switch(t, SCHED_SW_SLEEP);
	}
	run_queued();
}

/* th[i] sleeps on its CPU. */
static void sleep_now(int i)
{
	spt.self = th[i].ts_cpu;
	sched_sleep(&th[i]);
	sched_switch(&th[i], SCHED_SW_SLEEP);
	spt.self = 0;
}

/* A stretch that wakes N threads and sleeps within the tick of the last
 * makes a sync waker of N (its N-th wake-up of a stretch leaves its CPU);
 * sleeping a tick later does not, nor does being preempted (no sleep:
 * nothing learned). */
static void test_what_makes_a_sync_waker(void **state)
{
	(void)state;
	ut_hybrid(UT_I7, 0);
	struct cpuset c4 = ut_only(4), c12 = ut_only(12), c13 = ut_only(13);
	place_on(0, &c4);
	place_on(1, &c12);
	place_on(2, &c13);
	sleep_now(1);
	sleep_now(2);
	wake_then_sleep(&th[0], &th[1], 1);            /* one wake-up, then a sleep */
	assert_int_equal(th[0].ts_sync_wakes, 1);
	sleep_now(1);
	sched_wakeup(&th[0]);                          /* th[0] runs again on CPU 4 */
	spt.self = 4;
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &th[0]);
	assert_int_equal(sched_sync_waker(4), 1);      /* its first is its last, as learned */
	sched_wakeup(&th[1]);
	sched_wakeup(&th[2]);                          /* then two more */
	sched_sleep(&th[0]);
	sched_switch(&th[0], SCHED_SW_SLEEP);
	assert_int_equal(th[0].ts_sync_wakes, 3);      /* the two probes count as wake-ups */
	spt.self = 0;
	sched_wakeup(&th[0]);
	spt.self = 4;
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &th[0]);
	assert_int_equal(sched_sync_waker(4), 0);
	assert_int_equal(sched_sync_waker(4), 0);
	assert_int_equal(sched_sync_waker(4), 1);      /* the third: it sleeps next */
	spt_advance(1);                                /* but a tick passes first */
	sched_sleep(&th[0]);
	sched_switch(&th[0], SCHED_SW_SLEEP);
	assert_int_equal(th[0].ts_sync_wakes, 0);
	spt.self = 0;
}

/* What a sync waker learns is counted from its wake-up to its sleep: a
 * burst cut by preemptions (each woken thread preempting its waker, as a
 * dispatcher's workers do on its CPU) still teaches the whole burst.
 * Counted per switch-in, the burst's last piece taught 1 and every first
 * wake-up of the next burst counted as the last: that worker queued on
 * its waker's CPU, preempted it, and the burst was cut again (schbench at
 * 24 workers on a generated 3 P×2 + 5 E + 1 LP-E machine, 0.95 x ULE). */
static void test_a_burst_is_learned_whole(void **state)
{
	(void)state;
	ut_hybrid(UT_I7, 0);
	struct cpuset c4 = ut_only(4), c12 = ut_only(12), c13 = ut_only(13), c14 = ut_only(14);
	place_on(0, &c4);
	place_on(1, &c12);
	place_on(2, &c13);
	place_on(3, &c14);
	for (int w = 1; w <= 3; w++)
		sleep_now(w);
	spt.self = 4;
	sched_wakeup(&th[1]);
	assert_ptr_equal(sched_switch(&th[0], SCHED_SW_PREEMPT), &th[0]);   /* preempted, chosen again */
	sched_wakeup(&th[2]);
	assert_ptr_equal(sched_switch(&th[0], SCHED_SW_PREEMPT), &th[0]);
	sched_wakeup(&th[3]);
	sched_sleep(&th[0]);
	sched_switch(&th[0], SCHED_SW_SLEEP);
	assert_int_equal(th[0].ts_sync_wakes, 3);
	spt.self = 0;
}

/* A dispatcher th[0] hands a request to two workers each round and sleeps
 * until one answers, on the i7 tree with two P cores free (its own, CPUs
 * 0-1, and CPUs 2-3) and everything else busy. Once learned, its second
 * wake-up of a round counts its CPU without it, so the two workers take a
 * core each instead of the two threads of core 1 beside an idle core 0
 * (a generated 2P+2LP-E machine ran schbench at 2 workers at 0.91 x ULE
 * that way); every seed. */
static void test_dispatcher_workers_take_a_core_each(void **state)
{
	(void)state;
	for (int seed = 1; seed <= 20; seed++) {
		ut_hybrid(UT_I7, 0);
		seed_all(seed);
		for (int k = 3; k < 17; k++) {   /* CPUs 4..17: hogs */
			struct cpuset one = ut_only(k + 1);
			place_on(k, &one);
		}
		struct cpuset c18 = ut_only(18), c19 = ut_only(19), c0 = ut_only(0);
		place_on(17, &c18);
		place_on(18, &c19);
		place_on(0, &c0);
		sched_set_affinity(&th[0], NULL);
		for (int w = 1; w <= 2; w++) {
			place_on(w, NULL);
			sleep_now(w);
		}
		for (int round = 0; round < 50; round++) {
			spt.self = th[0].ts_cpu;
			sched_wakeup(&th[1]);
			sched_wakeup(&th[2]);
			sched_sleep(&th[0]);
			sched_switch(&th[0], SCHED_SW_SLEEP);
			run_queued();
			int a = th[1].ts_cpu, b = th[2].ts_cpu;
			if (round >= 2) {
				assert_true(a < 4 && b < 4);
				assert_int_not_equal(a / 2, b / 2);
			}
			sleep_now(2);
			wake_then_sleep(&th[1], &th[0], 1);    /* the answer */
			spt_advance(1);
		}
	}
}

/* A sync wake-up from a faster CPU than the woken thread's last skips its
 * warm cache group too: on the 155H tree with only the client's P core
 * (CPUs 0-1) and the LP-E module (20-21) free, a backend starting on an
 * LP-E core comes to the client's core at the first learned wake-up and
 * stays, where the warm LP-E module kept it (schbench at 1 worker on a
 * generated 1P+4LP-E machine: 0.25 x ULE). */
static void test_sync_wake_up_leaves_slower_warm_group(void **state)
{
	(void)state;
	ut_hybrid(UT_155H, 10);
	for (int k = 2; k < 20; k++) {   /* CPUs 2..19: hogs */
		struct cpuset one = ut_only(k);
		place_on(k, &one);
	}
	struct cpuset c0 = ut_only(0), c20 = ut_only(20);
	place_on(0, &c0);
	place_on(1, &c20);
	sched_set_affinity(&th[0], NULL);
	sched_set_affinity(&th[1], NULL);
	sleep_now(1);
	for (int i = 0; i < 20; i++) {
		wake_then_sleep(&th[0], &th[1], 1);
		if (i >= 2)
			assert_int_equal(th[1].ts_cpu / 2, 0);
		wake_then_sleep(&th[1], &th[0], 1);
		spt_advance(1);
	}
}

/* th[0] (client) and th[1] (backend) answer each other 200 times on the
 * i7 tree: first with two whole P cores free, where each stays on a core
 * of its own, then with one, th[1] starting on an E-core, where the
 * first sync wake-up from the faster CPU brings it onto the client's
 * core. Either way they stay where they are after the first rounds, and
 * each wake-up is a step-4 pick. */
static void test_request_answer_pair_settles(void **state)
{
	(void)state;
	for (int free_cores = 2; free_cores >= 1; free_cores--) {
		ut_hybrid(UT_I7, 0);
		for (int k = 2; k < 8 - free_cores; k++) {   /* P cores 1.. busy */
			struct cpuset one = ut_only(2 * (k - 1));
			place_on(k, &one);
		}
		struct cpuset c0 = ut_only(0), c12 = ut_only(12);
		place_on(0, &c0);
		place_on(1, free_cores == 2 ? NULL : &c12);
		sched_set_affinity(&th[0], NULL);
		sched_set_affinity(&th[1], NULL);
		spt.self = th[1].ts_cpu;
		sched_sleep(&th[1]);
		sched_switch(&th[1], SCHED_SW_SLEEP);
		uint64_t moves = 0, picks_before = 0, affinity_before = 0;
		for (int i = 0; i < 200; i++) {
			if (i == 100) {
				moves = th[0].ts_migrations + th[1].ts_migrations;
				picks_before = STAT(pick_idle_affinity) + STAT(pick_llc_idle) +
					       STAT(pick_preempt) + STAT(pick_lowest) + STAT(pick_local);
				affinity_before = STAT(pick_idle_affinity);
			}
			wake_then_sleep(&th[0], &th[1], 1);
			wake_then_sleep(&th[1], &th[0], 1);
			spt_advance(1);
		}
		int a = th[0].ts_cpu, b = th[1].ts_cpu;
		assert_true(a < 12 && b < 12);
		if (free_cores == 1)
			assert_int_equal(a / 2, b / 2);
		assert_int_equal(th[0].ts_migrations + th[1].ts_migrations, moves);
		uint64_t picks = STAT(pick_idle_affinity) + STAT(pick_llc_idle) + STAT(pick_preempt) +
				 STAT(pick_lowest) + STAT(pick_local) - picks_before;
		assert_int_equal(picks, 200);
		assert_int_equal(STAT(pick_idle_affinity) - affinity_before, 200);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_makes_a_sync_waker),
		cmocka_unit_test(test_a_burst_is_learned_whole),
		cmocka_unit_test(test_request_answer_pair_settles),
		cmocka_unit_test(test_dispatcher_workers_take_a_core_each),
		cmocka_unit_test(test_sync_wake_up_leaves_slower_warm_group),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
