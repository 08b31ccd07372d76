/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of sched_pickcpu (kernel/sched/ule_pickcpu.c): each step of
 * FreeBSD's sched_pickcpu() in order, and which schedstats path counter it bumps, on an
 * 8-CPU tree: root (none) → two L3 packages {0-3}, {4-7} → SMT cores. */
#include <tests/unit/ule_test_util.h>

static struct td_sched ts;

static void machine(void)
{
	ut_machine(8, 2, 1, 2);
	for (int c = 0; c < 8; c++)
		ut_set(c, 0, 0, PRI_MAX_IDLE);
	spt.self = 0;
	sched_thread_init(&ts, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	ts.ts_pri = 150;
}

static uint64_t stat_of(int cpu, size_t offset)
{
	struct sched_stats st;
	sched_stats_cpu(cpu, &st);
	return *(uint64_t *)((char *)&st + offset);
}
#define STAT(cpu, field) stat_of(cpu, offsetof(struct sched_stats, field))

static void test_before_smp_and_fixed(void **state)
{
	(void)state;
	machine();
	sched_smp_started = 0;
	ts.ts_cpu = 5;
	assert_int_equal(sched_pickcpu(&ts, 0), 0);          /* step 1: self */
	sched_start_smp();
	ts.ts_pinned = 1;                                    /* step 2: pinned stays */
	assert_int_equal(sched_pickcpu(&ts, 0), 5);
	ts.ts_pinned = 0;
	assert_int_equal(sched_pickcpu(&ts, SPC_OURSELF), 5);
	assert_int_equal(STAT(0, pick_fixed), 3);
}

static void test_idle_affinity(void **state)
{
	(void)state;
	machine();
	ts.ts_cpu = 6;
	ts.ts_rltick = spt.ticks;                            /* just left: warm */
	ut_set(0, 1, 0, 150);                                /* local busy */
	assert_int_equal(sched_pickcpu(&ts, 0), 6);
	assert_int_equal(STAT(0, pick_idle_affinity), 1);
	/* a busy SMT sibling disqualifies the fast path */
	ut_set(7, 1, 0, 150);
	assert_int_not_equal(sched_pickcpu(&ts, 0), 7);
	assert_int_equal(STAT(0, pick_idle_affinity), 1);
	/* so does an expired affinity (left 3 ticks ago, L2 allows 2) */
	ut_set(7, 0, 0, PRI_MAX_IDLE);
	ts.ts_rltick = spt.ticks - 3;
	sched_pickcpu(&ts, 0);
	assert_int_equal(STAT(0, pick_idle_affinity), 1);
}

static void test_llc_idle(void **state)
{
	(void)state;
	machine();
	/* package 0 mostly busy but cpu3 idle; package 1 all idle. Warm in the
	 * L3 (left 2 ticks ago: L3 allows 3): stay in package 0 → cpu2 or 3;
	 * only cpu3 is idle-enough (lowpri worse than 223). */
	ts.ts_cpu = 0;
	ts.ts_rltick = spt.ticks - 2;
	ut_set(0, 1, 0, 150), ut_set(1, 1, 0, 150), ut_set(2, 1, 0, 120);
	int cpu = sched_pickcpu(&ts, 0);
	assert_int_equal(cpu, 3);
	assert_int_equal(STAT(0, pick_llc_idle), 1);
	/* affinity expired: global search, least loaded path = package 1 */
	ts.ts_rltick = spt.ticks - 10;
	cpu = sched_pickcpu(&ts, 0);
	assert_true(cpu >= 4);
	assert_int_equal(STAT(0, pick_preempt), 1);
}

static void test_preempt_then_lowest(void **state)
{
	(void)state;
	machine();
	ts.ts_cpu = 0;
	ts.ts_rltick = spt.ticks - 100;
	/* every CPU busy; only cpu5 runs something worse than 150 */
	for (int c = 0; c < 8; c++)
		ut_set(c, 2, 0, 100);
	ut_set(5, 3, 0, 200);
	assert_int_equal(sched_pickcpu(&ts, 0), 5);
	assert_int_equal(STAT(0, pick_preempt), 1);
	/* nowhere better: least loaded path anywhere (package 1 totals 6
	 * threads against 8 - 1/2 for the thread's own package; then cpu6) */
	ut_set(5, 3, 0, 100);
	ut_set(6, 0, 0, 100);
	assert_int_equal(sched_pickcpu(&ts, 0), 6);
	assert_int_equal(STAT(0, pick_lowest), 1);
}

static void test_local(void **state)
{
	(void)state;
	machine();
	spt.self = 4;
	ts.ts_cpu = 0;
	ts.ts_rltick = spt.ticks - 100;
	ts.ts_pri = 100;
	for (int c = 0; c < 8; c++)
		ut_set(c, 2, 0, 50);
	ut_set(4, 3, 0, 200);                   /* self: we would be its best thread */
	ut_set(1, 2, 0, 180);                   /* search winner (less loaded path) */
	int cpu = sched_pickcpu(&ts, 0);
	assert_int_equal(cpu, 4);               /* load(self) 3 <= load(cpu1) 2 + 1 */
	assert_int_equal(STAT(4, pick_local), 1);
	ut_set(4, 4, 0, 200);                   /* one thread too many locally */
	assert_int_equal(sched_pickcpu(&ts, 0), 1);
}

static void test_mask(void **state)
{
	(void)state;
	machine();
	struct cpuset only7 = ut_only(7);
	ts.ts_mask = only7;
	ts.ts_cpu = 0;
	for (int c = 0; c < 7; c++)
		ut_set(c, 0, 0, PRI_MAX_IDLE);
	ut_set(7, 5, 0, 100);
	assert_int_equal(sched_pickcpu(&ts, 0), 7);
	/* offline CPUs are never chosen */
	ts.ts_mask = ut_all();
	for (int c = 1; c < 8; c++)
		spt.online[c] = 0;
	sched_start_smp();
	ut_set(0, 4, 0, 100);
	assert_int_equal(sched_pickcpu(&ts, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_before_smp_and_fixed),
		cmocka_unit_test(test_idle_affinity),
		cmocka_unit_test(test_llc_idle),
		cmocka_unit_test(test_preempt_then_lowest),
		cmocka_unit_test(test_local),
		cmocka_unit_test(test_mask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
