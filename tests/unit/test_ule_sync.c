/* Host tests of learned synchronous wake-ups (kernel/sched/ule_sync.c):
 * which stretches make a thread a sync waker, and what hmp's placement
 * does with one — a request/answer pair (pgbench's client and backend)
 * settles on one P core and each wake-up ends at step 4, where before the
 * woken thread found its last CPU's sibling busy with its waker, searched,
 * and the pairs wandered over the cores with a backend left on an E-core
 * (pgbench on the i7-1370P model: 0.94 x ULE at 10 clients, 16.9 CPUs
 * looked at per pick at 4 clients against ULE's 1.0). */
#include "ule_test_util.h"
#include "ut_hybrid.h"
#include "ut_place.h"

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
	for (int c = 0; c < spt.ncpu; c++)
		if (!tdq_cpu(c)->tdq_curthread && tdq_load_of(c) > 0) {
			spt.self = c;
			sched_switch(NULL, SCHED_SW_YIELD);
		}
	spt.self = 0;
}

/* A stretch that wakes one thread and sleeps within the tick makes a sync
 * waker; waking two, or sleeping a tick later, or being preempted (no
 * sleep: nothing learned) do not. */
static void test_what_makes_a_sync_waker(void **state)
{
	(void)state;
	ut_hybrid(UT_I7, 0);
	struct cpuset c4 = ut_only(4), c12 = ut_only(12), c13 = ut_only(13);
	place_on(0, &c4);
	place_on(1, &c12);
	place_on(2, &c13);
	spt.self = 12;
	sched_sleep(&th[1]);
	sched_switch(&th[1], SCHED_SW_SLEEP);
	spt.self = 13;
	sched_sleep(&th[2]);
	sched_switch(&th[2], SCHED_SW_SLEEP);
	wake_then_sleep(&th[0], &th[1], 1);            /* one wake-up, then a sleep */
	assert_true(th[0].ts_flags & TSF_SYNCWAKER);
	spt.self = 12;
	sched_sleep(&th[1]);
	sched_switch(&th[1], SCHED_SW_SLEEP);
	spt.self = 0;
	sched_wakeup(&th[0]);                          /* th[0] runs again on CPU 4 */
	spt.self = 4;
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &th[0]);
	spt.self = 4;
	sched_wakeup(&th[1]);
	sched_wakeup(&th[2]);                          /* two: a fan-out, not a request */
	sched_sleep(&th[0]);
	sched_switch(&th[0], SCHED_SW_SLEEP);
	assert_false(th[0].ts_flags & TSF_SYNCWAKER);
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
		cmocka_unit_test(test_request_answer_pair_settles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
