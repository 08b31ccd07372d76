/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of ULE's per-thread arithmetic (kernel/sched/ule_interact.c):
 * interactivity score and priority for given run/sleep histories, history
 * bounding, slice scaling with load, the preemption rule; and the same
 * through the API: a sleeper ends interactive, a CPU hog ends batch. */
#include <tests/unit/ule_test_util.h>

#define K(x) ((uint32_t)(x) << SCHED_TICK_SHIFT)

static struct td_sched ts;

static void setup_one_cpu(void)
{
	ut_machine(2, 1, 1, 2);
	spt.self = 0;
	memset(&ts, 0, sizeof(ts));
	ts.ts_class = SCHED_CLASS_TIMESHARE;
}

static void test_score(void **state)
{
	(void)state;
	setup_one_cpu();
	ts.ts_runtime = 0, ts.ts_slptime = 0;               /* r >= s shortcut first */
	assert_int_equal(sched_interact_score(&ts), 50);
	ts.ts_runtime = K(10), ts.ts_slptime = K(10);
	assert_int_equal(sched_interact_score(&ts), 50);
	ts.ts_runtime = K(10), ts.ts_slptime = K(100);    /* div = s/50 = 2048 → 10240/2048 */
	assert_int_equal(sched_interact_score(&ts), 5);
	ts.ts_runtime = K(100), ts.ts_slptime = K(10);    /* shortcut while interact <= 50 */
	assert_int_equal(sched_interact_score(&ts), 50);
	sched_interact = 60;                              /* no shortcut: 50 + (50 - 5) */
	assert_int_equal(sched_interact_score(&ts), 95);
	ts.ts_runtime = 0, ts.ts_slptime = 0;             /* no history at all */
	assert_int_equal(sched_interact_score(&ts), 0);
	sched_interact = 30;
	ts.ts_runtime = 0, ts.ts_slptime = K(500);
	assert_int_equal(sched_interact_score(&ts), 0);
}

static void test_priority(void **state)
{
	(void)state;
	setup_one_cpu();
	/* interactive: score 5 → 88 + 48 * 5 / 30 = 96; nice adds to the score */
	ts.ts_runtime = K(10), ts.ts_slptime = K(100);
	sched_priority(&ts);
	assert_int_equal(ts.ts_pri, 96);
	ts.ts_nice = 5;                                   /* score 10 → 88 + 16 */
	sched_priority(&ts);
	assert_int_equal(ts.ts_pri, 104);
	/* batch, no %CPU ticks: SCHED_PRI_MIN + nice */
	ts.ts_nice = 0;
	ts.ts_runtime = K(100), ts.ts_slptime = K(10);
	ts.ts_ticks = 0;
	sched_priority(&ts);
	assert_int_equal(ts.ts_pri, SCHED_PRI_MIN);
	/* full 10 s window busy: 1000 ticks / (1008 / 48 = 21) = 47 → 203 */
	ts.ts_ftick = 0, ts.ts_ltick = 1000, ts.ts_ticks = K(1000);
	sched_priority(&ts);
	assert_int_equal(ts.ts_pri, SCHED_PRI_MAX);
	ts.ts_ticks = K(500);                             /* half busy: 500 / 21 = 23 */
	sched_priority(&ts);
	assert_int_equal(ts.ts_pri, SCHED_PRI_MIN + 23);
	ts.ts_nice = 20, ts.ts_ticks = K(1000);           /* worst batch priority */
	sched_priority(&ts);
	assert_int_equal(ts.ts_pri, PRI_MAX_BATCH);
	ts.ts_nice = -20;                                 /* score 50 - 20 = 30: still batch */
	sched_priority(&ts);
	assert_int_equal(ts.ts_pri, SCHED_PRI_MAX - 20);
}

static void test_history_bounds(void **state)
{
	(void)state;
	setup_one_cpu();
	uint32_t max = K(100 * 5);
	ts.ts_runtime = max / 2, ts.ts_slptime = max / 4;   /* below max: unchanged */
	sched_interact_update(&ts);
	assert_int_equal(ts.ts_runtime, max / 2);
	ts.ts_runtime = max, ts.ts_slptime = max / 10;      /* 1.1 max: times 4/5 */
	sched_interact_update(&ts);
	assert_int_equal(ts.ts_runtime, max / 5 * 4);
	ts.ts_runtime = max, ts.ts_slptime = max / 2;       /* 1.5 max: halved */
	sched_interact_update(&ts);
	assert_int_equal(ts.ts_runtime, max / 2);
	assert_int_equal(ts.ts_slptime, max / 4);
	ts.ts_runtime = 10, ts.ts_slptime = 3 * max;        /* > 2 max: clamp */
	sched_interact_update(&ts);
	assert_int_equal(ts.ts_slptime, max);
	assert_int_equal(ts.ts_runtime, 1);
	ts.ts_runtime = K(200), ts.ts_slptime = K(100);     /* fork: 300 ticks / 50 → ratio 6 */
	sched_interact_fork(&ts);
	assert_int_equal(ts.ts_runtime, K(200) / 6);
	assert_int_equal(ts.ts_slptime, K(100) / 6);
}

static void test_slice_scaling(void **state)
{
	(void)state;
	setup_one_cpu();
	assert_int_equal(sched_slice, 10);                  /* hz 100: 100 ms */
	assert_int_equal(sched_slice_min(), 1);
	struct tdq *tdq = tdq_cpu(0);
	int expect[] = { 10, 10, 10, 5, 3, 2, 2, 1, 1, 1 }; /* sysload 0..9 */
	for (int l = 0; l < 10; l++) {
		tdq->tdq_sysload = l;
		assert_int_equal(tdq_slice(tdq), expect[l]);
	}
	sched_tunables_init(1000);                           /* hz 1000: 100 ticks, min 16 */
	tdq->tdq_sysload = 10;
	assert_int_equal(tdq_slice(tdq), 16);
	tdq->tdq_sysload = 5;
	assert_int_equal(tdq_slice(tdq), 25);
	sched_tunables_init(100);
}

static void test_shouldpreempt(void **state)
{
	(void)state;
	setup_one_cpu();
	assert_false(sched_shouldpreempt(100, 100, 1));     /* not better */
	assert_true(sched_shouldpreempt(200, 255, 0));      /* idle CPU */
	assert_true(sched_shouldpreempt(40, 100, 0));       /* at or below preempt_thresh */
	assert_true(sched_shouldpreempt(48, 100, 0));
	assert_false(sched_shouldpreempt(100, 180, 0));     /* interactive vs batch, local */
	assert_true(sched_shouldpreempt(100, 180, 1));      /* ... remote */
	assert_false(sched_shouldpreempt(140, 180, 1));     /* batch vs batch */
	preempt_thresh = 0;
	assert_false(sched_shouldpreempt(40, 100, 0));
	preempt_thresh = PRI_MIN_KERN;
}

/* Runs t alone on CPU 0: `run` ticks on the CPU, then a sleep of `sleep`
 * ticks ended by sched_wakeup(), n times. */
static void run_sleep(struct td_sched *t, int run, int sleep, int n)
{
	sched_add(t, 0);
	for (int i = 0; i < n; i++) {
		assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), t);
		for (int k = 0; k < run; k++) {
			spt_advance(1);
			if (sched_clock(0, t, 1))
				assert_ptr_equal(sched_switch(t, SCHED_SW_PREEMPT), t);
		}
		sched_sleep(t);
		assert_null(sched_switch(t, SCHED_SW_SLEEP));
		spt_advance((uint64_t)sleep);
		sched_wakeup(t);
	}
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), t);
	sched_sleep(t);
	assert_null(sched_switch(t, SCHED_SW_SLEEP));
}

static void test_history_through_api(void **state)
{
	(void)state;
	setup_one_cpu();
	static struct td_sched sleeper, hog;
	sched_thread_init(&sleeper, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	run_sleep(&sleeper, 1, 9, 50);
	assert_true(sched_interact_score(&sleeper) < sched_interact);
	assert_true(sleeper.ts_user_pri <= PRI_MAX_INTERACT);

	sched_thread_init(&hog, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	run_sleep(&hog, 300, 1, 3);
	assert_int_equal(sched_interact_score(&hog), SCHED_INTERACT_HALF);
	assert_true(hog.ts_user_pri >= PRI_MIN_BATCH);
	assert_true(sched_thread_pctcpu(&hog) > 9000);
	sched_check_invariants(0);
}

/* One tick that stands for cnt (the platform lost the others) charges
 * what cnt ticks would: run-time history, %CPU and slice (FreeBSD's
 * sched_clock(td, cnt)). */
static void test_lost_ticks_charged(void **state)
{
	(void)state;
	static struct td_sched each, merged;
	setup_one_cpu();
	sched_thread_init(&each, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	sched_add(&each, 0);
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &each);
	each.ts_slice = 0;                               /* a whole slice (a new thread's is short) */
	for (int k = 0; k < 4; k++) {                    /* four ticks, each delivered */
		spt_advance(1);
		assert_false(sched_clock(0, &each, 1));
	}
	setup_one_cpu();
	sched_thread_init(&merged, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	sched_add(&merged, 0);
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &merged);
	merged.ts_slice = 0;
	spt_advance(4);                                  /* the same four, in one interrupt */
	assert_false(sched_clock(0, &merged, 4));
	assert_int_equal(merged.ts_runtime, each.ts_runtime);
	assert_int_equal(merged.ts_runtime, K(4));
	assert_int_equal(merged.ts_slice, each.ts_slice);
	assert_int_equal(merged.ts_slice, 4);
	assert_int_equal(sched_thread_pctcpu(&merged), sched_thread_pctcpu(&each));
	spt_advance((uint64_t)sched_slice);              /* a whole slice lost: it ends */
	assert_true(sched_clock(0, &merged, (int)sched_slice));
	assert_true(merged.ts_flags & TSF_SLICEEND);
}

static void test_wakeup_before_switch(void **state)
{
	(void)state;
	setup_one_cpu();
	static struct td_sched t;
	sched_thread_init(&t, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	sched_add(&t, 0);
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &t);
	sched_sleep(&t);
	assert_int_equal(sched_wakeup(&t), 0);              /* still running: cancels the sleep */
	assert_ptr_equal(sched_switch(&t, SCHED_SW_SLEEP), &t);
	assert_int_equal(t.ts_state, SCHED_TS_RUNNING);
	assert_int_equal(sched_cpu_load(0), 1);
	sched_sleep(&t);
	assert_null(sched_switch(&t, SCHED_SW_SLEEP));
	assert_int_equal(sched_cpu_load(0), 0);
	spt_advance(5);
	sched_wakeup(&t);
	assert_int_equal(sched_cpu_load(0), 1);
	assert_int_equal(t.ts_slptime, K(5));
	sched_check_invariants(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_score),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_history_bounds),
		cmocka_unit_test(test_slice_scaling),
		cmocka_unit_test(test_shouldpreempt),
		cmocka_unit_test(test_history_through_api),
		cmocka_unit_test(test_lost_ticks_charged),
		cmocka_unit_test(test_wakeup_before_switch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
