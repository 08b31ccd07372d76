/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the ULE core's trace points (kernel/sched/ule_trace.c and
 * the points in ule_add.c, ule_switch.c, ule_balance.c): nothing reaches
 * the platform while they are off; on, a wake-up names the waker's and
 * the chosen CPU, a switch carries the very instant the thread's run time
 * is counted from (so the stretches between switch points add up to its
 * run time), and a move between CPUs names where from, where to and why. */
#include <tests/unit/ule_test_util.h>

#define MAXPTS 64
static struct sched_trace_point pts[MAXPTS];
static int npts;
static struct td_sched th[4];

static void catch_point(const struct sched_trace_point *p)
{
	assert_true(npts < MAXPTS);
	pts[npts++] = *p;
}

/* 4 CPUs, two SMT cores; the points caught, none yet. */
static void machine4(void)
{
	ut_machine(4, 2, 1, 2);
	memset(th, 0, sizeof(th));
	spt.self = 0;
	spt.trace = catch_point;
	npts = 0;
	sched_debug = 1;
}

static struct td_sched *mk(int i, struct cpuset m)
{
	sched_thread_init(&th[i], NULL, SCHED_CLASS_TIMESHARE, 0, &m);
	return &th[i];
}

/* The caught points of one kind, in order. */
static int of_kind(int kind, const struct sched_trace_point **out, int max)
{
	int n = 0;
	for (int i = 0; i < npts && n < max; i++)
		if (pts[i].kind == kind)
			out[n++] = &pts[i];
	return n;
}

static void test_off_reaches_nothing(void **state)
{
	(void)state;
	machine4();
	sched_trace_points(0);
	struct td_sched *t = mk(0, ut_only(1));
	sched_add(t, 0);
	spt.self = 1;
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), t);
	spt_advance(3);
	assert_null(sched_switch(t, SCHED_SW_SLEEP));
	assert_int_equal(npts, 0);
	assert_int_equal(sched_trace_points_on(), 0);
}

static void test_switch_points_add_up_to_run_time(void **state)
{
	(void)state;
	machine4();
	sched_trace_points(1);
	struct td_sched *t = mk(0, ut_only(2));
	sched_add(t, 0);                                      /* from CPU 0 */
	const struct sched_trace_point *w[4], *s[4];
	assert_int_equal(of_kind(SCHED_TRACE_WAKEUP, w, 4), 1);
	assert_ptr_equal(w[0]->ts, t);
	assert_int_equal(w[0]->from, 0);
	assert_int_equal(w[0]->to, 2);
	spt.self = 2;
	uint64_t in = spt.ns;
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), t);
	spt_advance(7);
	uint64_t out = spt.ns;
	assert_null(sched_switch(t, SCHED_SW_SLEEP));
	sched_trace_points(0);
	assert_int_equal(of_kind(SCHED_TRACE_SWITCH, s, 4), 2);
	assert_ptr_equal(s[0]->ts, t);
	assert_int_equal(s[0]->to, 2);
	assert_int_equal(s[0]->ns, in);
	assert_null(s[1]->ts);                                /* the idle thread */
	assert_int_equal(s[1]->ns, out);
	assert_int_equal(s[1]->ns - s[0]->ns, t->ts_run_ns);
	assert_int_equal(of_kind(SCHED_TRACE_MIGRATE, w, 4), 0);   /* it never ran elsewhere */
}

static void test_wakeup_elsewhere_is_a_migration(void **state)
{
	(void)state;
	machine4();
	struct td_sched *t = mk(0, ut_only(0));
	sched_add(t, 0);
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), t);
	sched_sleep(t);
	assert_null(sched_switch(t, SCHED_SW_SLEEP));
	struct cpuset only3 = ut_only(3);
	sched_set_affinity(t, &only3);                        /* asleep: nothing moves yet */
	sched_trace_points(1);
	spt.self = 1;
	sched_wakeup(t);
	sched_trace_points(0);
	const struct sched_trace_point *m[4];
	assert_int_equal(of_kind(SCHED_TRACE_MIGRATE, m, 4), 1);
	assert_ptr_equal(m[0]->ts, t);
	assert_int_equal(m[0]->from, 0);
	assert_int_equal(m[0]->to, 3);
	assert_int_equal(m[0]->why, SCHED_TRACE_WHY_WAKEUP);
	assert_int_equal(of_kind(SCHED_TRACE_WAKEUP, m, 4), 1);
	assert_int_equal(m[0]->from, 1);                      /* the waker's CPU */
	assert_int_equal(m[0]->to, 3);
}

static void test_move_between_queues_names_why(void **state)
{
	(void)state;
	machine4();
	struct td_sched *a = mk(0, ut_all()), *b = mk(1, ut_all());
	struct cpuset only0 = ut_only(0);
	sched_set_affinity(a, &only0);
	sched_set_affinity(b, &only0);
	sched_add(a, 0);
	sched_add(b, 0);
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), a);
	sched_set_affinity(b, NULL);                          /* b, queued on 0, may now move */
	sched_trace_points(1);
	tdq_lock_pair(0, 1);
	assert_true(tdq_move(tdq_cpu(0), tdq_cpu(1), SCHED_TRACE_WHY_STEAL) >= 0);
	tdq_unlock_pair(0, 1);
	sched_trace_points(0);
	const struct sched_trace_point *m[4];
	assert_int_equal(of_kind(SCHED_TRACE_MIGRATE, m, 4), 1);
	assert_ptr_equal(m[0]->ts, b);
	assert_int_equal(m[0]->from, 0);
	assert_int_equal(m[0]->to, 1);
	assert_int_equal(m[0]->why, SCHED_TRACE_WHY_STEAL);
	assert_true(m[0]->ns > 0);                            /* "now" filled in */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off_reaches_nothing),
		cmocka_unit_test(test_switch_points_add_up_to_run_time),
		cmocka_unit_test(test_wakeup_elsewhere_is_a_migration),
		cmocka_unit_test(test_move_between_queues_names_why),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
