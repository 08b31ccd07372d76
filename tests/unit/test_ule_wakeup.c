/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the wake-up and priority-change paths of the ULE core
 * (kernel/sched/ule_add.c, ule_switch.c, ule_balance.c): the sleep boost
 * lasts until the thread next runs, a local wake-up preempts a worse
 * thread as a remote one does, the balancer asks the local CPU to preempt
 * when it hands it a better thread, nice changes ask for preemption, and
 * a fork charges the parent as FreeBSD's sched_fork() does. */
#include <tests/unit/ule_test_util.h>

static struct td_sched th[8];

/* root (L3) → SMT cores {0,1}, {2,3}; invariants checked on every change. */
static void machine4(void)
{
	ut_machine(4, 2, 1, 2);
	memset(th, 0, sizeof(th));
	spt.self = 0;
	sched_debug = 1;
}

/* Thread i, timeshare, allowed only on cpu (-1: anywhere), with a run /
 * sleep history in ticks: a hog (long run, no sleep) is batch at 156 +
 * nice, a sleeper (long sleep, little run) interactive at 88. */
static struct td_sched *mk(int i, int cpu, uint32_t run_ticks, uint32_t sleep_ticks, int nice)
{
	struct cpuset m = cpu >= 0 ? ut_only(cpu) : ut_all();
	sched_thread_init(&th[i], NULL, SCHED_CLASS_TIMESHARE, nice, &m);
	th[i].ts_runtime = run_ticks << SCHED_TICK_SHIFT;
	th[i].ts_slptime = sleep_ticks << SCHED_TICK_SHIFT;
	sched_priority(&th[i]);
	return &th[i];
}

/* Queues t from cpu and makes it cpu's running thread (cpu idle before). */
static void run_on(struct td_sched *t, int cpu)
{
	spt.self = cpu;
	sched_add(t, 0);
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), t);
}

static void test_sleep_boost_lasts_until_it_runs(void **state)
{
	(void)state;
	machine4();
	struct td_sched *h = mk(0, 0, 500, 0, 0);
	assert_int_equal(h->ts_pri, SCHED_PRI_MIN);
	run_on(h, 0);
	sched_sleep(h);
	assert_int_equal(h->ts_pri, static_boost);
	assert_null(sched_switch(h, SCHED_SW_SLEEP));
	assert_int_equal(h->ts_pri, static_boost);          /* still boosted while asleep */
	spt.self = 1;
	sched_wakeup(h);                                     /* same tick: history unchanged */
	assert_int_equal(h->ts_state, SCHED_TS_RUNQ);
	assert_int_equal(h->ts_pri, static_boost);          /* queued at the boost, 136 */
	assert_int_equal(sched_cpu_lowpri(0), static_boost);
	spt.self = 0;
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), h);
	assert_int_equal(h->ts_pri, SCHED_PRI_MIN);         /* runs at its own priority */
	assert_int_equal(h->ts_pri, h->ts_user_pri);
	assert_int_equal(sched_cpu_lowpri(0), SCHED_PRI_MIN);
}

/* A queued thread better than the one chosen at the boost's end keeps
 * lowpri exact. */
static void test_boost_end_recomputes_lowpri(void **state)
{
	(void)state;
	machine4();
	struct td_sched *h = mk(0, 0, 500, 0, 10);          /* 166 */
	run_on(h, 0);
	sched_sleep(h);
	assert_null(sched_switch(h, SCHED_SW_SLEEP));
	sched_wakeup(h);                                     /* queued at 136 */
	struct td_sched *q = mk(1, 0, 500, 0, 5);           /* 161: below the boost, above 166 */
	sched_add(q, SCHED_ADD_YIELDING);
	assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), h);
	assert_int_equal(h->ts_pri, SCHED_PRI_MIN + 10);
	assert_int_equal(sched_cpu_lowpri(0), SCHED_PRI_MIN + 5);
}

static void test_local_wakeup_preempts_batch(void **state)
{
	(void)state;
	machine4();
	run_on(mk(0, 0, 500, 0, 0), 0);                      /* a hog runs on CPU 0 */
	struct td_sched *i = mk(1, 0, 1, 100, 0);
	assert_int_equal(i->ts_pri, PRI_MIN_INTERACT);
	spt.self = 0;
	assert_int_equal(sched_add(i, 0), SCHED_RESCHED);   /* woken on the hog's own CPU */
	struct td_sched *y = mk(2, 0, 1, 100, 0);
	assert_int_equal(sched_add(y, SCHED_ADD_YIELDING), 0);
	/* A worse thread does not preempt. */
	assert_int_equal(sched_add(mk(3, 0, 500, 0, 5), 0), 0);
}

static void test_remote_wakeup_sends_ipi(void **state)
{
	(void)state;
	machine4();
	run_on(mk(0, 0, 500, 0, 0), 0);
	spt.self = 1;
	assert_int_equal(sched_add(mk(1, 0, 1, 100, 0), 0), 0);
	assert_int_equal(spt.ipis[0], 1);
}

/* The balancer moves an interactive thread from CPU 1 (a hog running, it
 * queued) to CPU 0, which runs a hog: on CPU 0 itself that is a local
 * preemption, from another CPU an IPI. */
static void balance_setup(void)
{
	machine4();
	run_on(mk(0, 0, 500, 0, 0), 0);
	run_on(mk(1, 1, 500, 0, 0), 1);
	struct td_sched *i = mk(2, -1, 1, 100, 0);
	sched_plat_tdq_lock(1);
	tdq_add(tdq_cpu(1), i, 0);
	sched_plat_tdq_unlock(1);
}

static void test_balance_pair_local_preempts(void **state)
{
	(void)state;
	balance_setup();
	spt.self = 0;
	int resched = 0;
	assert_int_equal(sched_balance_pair(&ut_stock, tdq_cpu(1), tdq_cpu(0), &resched), 1);
	assert_int_equal(th[2].ts_cpu, 0);
	assert_int_equal(resched, SCHED_RESCHED);
	assert_int_equal(spt.ipis[0], 0);
}

static void test_balance_pair_remote_ipi(void **state)
{
	(void)state;
	balance_setup();
	spt.self = 2;
	int resched = 0;
	assert_int_equal(sched_balance_pair(&ut_stock, tdq_cpu(1), tdq_cpu(0), &resched), 1);
	assert_int_equal(resched, 0);
	assert_int_equal(spt.ipis[0], 1);
}

static void test_nice_queued_thread_preempts(void **state)
{
	(void)state;
	machine4();
	run_on(mk(0, 0, 500, 0, 0), 0);                      /* 156 runs */
	struct td_sched *q = mk(1, 0, 500, 0, 0);
	spt.self = 0;
	assert_int_equal(sched_add(q, 0), 0);               /* 156 vs 156: no */
	assert_int_equal(sched_set_nice(q, 10), 0);         /* worse: no */
	assert_int_equal(sched_set_nice(q, -10), SCHED_RESCHED);
	assert_int_equal(q->ts_pri, SCHED_PRI_MIN - 10);
	assert_int_equal(sched_cpu_lowpri(0), SCHED_PRI_MIN - 10);
}

static void test_nice_remote_interactive_ipi(void **state)
{
	(void)state;
	machine4();
	run_on(mk(0, 0, 500, 0, 0), 0);
	struct td_sched *q = mk(1, 0, 100, 101, 0);         /* score 49: batch at nice 0 */
	assert_int_equal(q->ts_pri, SCHED_PRI_MIN);
	spt.self = 1;
	sched_add(q, 0);
	assert_int_equal(spt.ipis[0], 0);
	assert_int_equal(sched_set_nice(q, -20), 0);        /* 49 - 20 < 30: interactive */
	assert_true(q->ts_pri <= PRI_MAX_INTERACT);
	assert_int_equal(spt.ipis[0], 1);
}

static void test_nice_running_thread_yields(void **state)
{
	(void)state;
	machine4();
	struct td_sched *h = mk(0, 0, 500, 0, 0);
	run_on(h, 0);
	spt.self = 0;
	sched_add(mk(1, 0, 500, 0, 0), 0);                  /* 156 queued behind 156 */
	assert_int_equal(sched_set_nice(h, -5), 0);         /* better: keeps the CPU */
	assert_int_equal(sched_cpu_lowpri(0), SCHED_PRI_MIN - 5);
	assert_int_equal(sched_set_nice(h, 10), SCHED_RESCHED);
	assert_int_equal(sched_cpu_lowpri(0), SCHED_PRI_MIN);
}

static void test_fork_charges_parent(void **state)
{
	(void)state;
	machine4();
	struct td_sched *p = mk(0, 0, 300, 0, 0);
	run_on(p, 0);
	sched_plat_tdq_lock(0);
	p->ts_pri = p->ts_user_pri = 100;                    /* stale on purpose */
	tdq_setlowpri(tdq_cpu(0));
	sched_plat_tdq_unlock(0);
	spt_advance(50);                                     /* 50 ticks not yet in %CPU */
	uint32_t ticks_before = p->ts_ticks;
	struct td_sched *c = &th[1];
	sched_thread_init(c, p, SCHED_CLASS_TIMESHARE, 0, NULL);
	assert_true(p->ts_ltick == spt.ticks);               /* parent's %CPU brought up to date */
	assert_int_equal(p->ts_ticks, ticks_before + (50u << SCHED_TICK_SHIFT));
	assert_int_equal(c->ts_ticks, p->ts_ticks);          /* the child copied the fresh window */
	assert_int_equal(p->ts_runtime, (300u << SCHED_TICK_SHIFT) + SCHED_TICKINCR);
	assert_true(p->ts_pri >= SCHED_PRI_MIN);             /* recomputed: a hog again */
	assert_int_equal(p->ts_pri, p->ts_user_pri);
	assert_int_equal(sched_cpu_lowpri(0), p->ts_pri);
	sched_check_invariants(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleep_boost_lasts_until_it_runs),
		cmocka_unit_test(test_boost_end_recomputes_lowpri),
		cmocka_unit_test(test_local_wakeup_preempts_batch),
		cmocka_unit_test(test_remote_wakeup_sends_ipi),
		cmocka_unit_test(test_balance_pair_local_preempts),
		cmocka_unit_test(test_balance_pair_remote_ipi),
		cmocka_unit_test(test_nice_queued_thread_preempts),
		cmocka_unit_test(test_nice_remote_interactive_ipi),
		cmocka_unit_test(test_nice_running_thread_yields),
		cmocka_unit_test(test_fork_charges_parent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
