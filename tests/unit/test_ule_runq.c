/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the run queues (kernel/sched/ule_runq.c, ule_tdq.c): FIFO
 * and head insertion, the realtime / calendar / idle split, the calendar's
 * rotation, steal order, and no starvation: a batch thread of the worst
 * priority runs within a bounded number of ticks while better batch
 * threads keep the CPU busy. */
#include <tests/unit/ule_test_util.h>

static struct td_sched th[8];

static void one_cpu(void)
{
	ut_machine(2, 1, 1, 2);
	spt.self = 0;
	memset(th, 0, sizeof(th));
	for (int i = 0; i < 8; i++)
		cpuset_set(&th[i].ts_mask, 0), cpuset_set(&th[i].ts_mask, 1);
}

static void test_runq_fifo_and_head(void **state)
{
	(void)state;
	struct runq rq;
	memset(&rq, 0, sizeof(rq));
	memset(th, 0, sizeof(th));
	runq_add_idx(&rq, &th[0], 5, 0);
	runq_add_idx(&rq, &th[1], 5, 0);
	runq_add_idx(&rq, &th[2], 5, 1);
	runq_add_idx(&rq, &th[3], 9, 0);
	assert_ptr_equal(runq_choose(&rq), &th[2]);
	assert_ptr_equal(runq_choose_from(&rq, 6), &th[3]);
	assert_ptr_equal(runq_choose_from(&rq, 10), &th[2]);   /* wraps */
	uint8_t idx = 9;
	runq_remove_idx(&rq, &th[3], &idx);
	assert_int_equal(idx, 10);                              /* emptied → advanced */
	runq_remove_idx(&rq, &th[2], NULL);
	assert_ptr_equal(runq_choose(&rq), &th[0]);
	assert_int_equal(rq.rq_status, 1ull << 5);
}

static void test_queue_split(void **state)
{
	(void)state;
	one_cpu();
	struct tdq *tdq = tdq_cpu(0);
	th[0].ts_pri = 100;               /* interactive: realtime runq */
	th[1].ts_pri = 150;               /* batch: calendar */
	th[2].ts_pri = 230;               /* idle class */
	for (int i = 0; i < 3; i++)
		tdq_add(tdq, &th[i], 0);
	assert_int_equal(th[0].ts_runq, TS_RUNQ_REALTIME);
	assert_int_equal(th[1].ts_runq, TS_RUNQ_TIMESHARE);
	assert_int_equal(th[1].ts_rqindex, 64 * (150 - PRI_MIN_BATCH) / PRI_BATCH_RANGE);
	assert_int_equal(th[2].ts_runq, TS_RUNQ_IDLE);
	assert_int_equal(tdq->tdq_load, 3);
	assert_int_equal(tdq->tdq_transferable, 3);
	assert_int_equal(tdq->tdq_lowpri, 100);
	assert_ptr_equal(tdq_choose(tdq), &th[0]);
	tdq_rem_queued(tdq, &th[0]);
	assert_int_equal(tdq->tdq_lowpri, 150);
	assert_ptr_equal(tdq_choose(tdq), &th[1]);
	sched_check_invariants(0);
}

static void test_calendar_insert_rules(void **state)
{
	(void)state;
	one_cpu();
	struct tdq *tdq = tdq_cpu(0);
	tdq->tdq_idx = 10, tdq->tdq_ridx = 10;
	th[0].ts_pri = PRI_MIN_BATCH;                  /* offset 0 → bucket idx */
	tdq_runq_add(tdq, &th[0], 0);
	assert_int_equal(th[0].ts_rqindex, 10);
	tdq->tdq_idx = 12;                             /* calendar behind: ridx 10 */
	th[1].ts_pri = PRI_MIN_BATCH + 83;             /* 64 * 83 / 88 = 60 → (60 + 12) % 64 = 8 */
	tdq_runq_add(tdq, &th[1], 0);
	assert_int_equal(th[1].ts_rqindex, 8);
	th[2].ts_pri = PRI_MIN_BATCH + 86;             /* 62 → 10 == ridx → shortened to 9 */
	tdq_runq_add(tdq, &th[2], 0);
	assert_int_equal(th[2].ts_rqindex, 9);
	th[3].ts_pri = PRI_MAX_BATCH;                  /* preempted: current bucket, at the head */
	tdq_runq_add(tdq, &th[3], SRQ_PREEMPTED);
	assert_int_equal(th[3].ts_rqindex, 10);
	assert_ptr_equal(tdq_choose(tdq), &th[3]);
}

/* Simulates ticks on CPU 0: the running thread gets a one-tick slice and is
 * requeued by priority (what sched_switch does at slice end). Returns the
 * tick at which `target` first ran, or -1. */
static int ticks_until_runs(struct td_sched *target, int max_ticks)
{
	struct tdq *tdq = tdq_cpu(0);
	for (int t = 0; t < max_ticks; t++) {
		tdq_calendar_tick(tdq);
		struct td_sched *next = tdq_choose(tdq);
		assert_non_null(next);
		if (next == target)
			return t;
		tdq_runq_rem(tdq, next);
		tdq_runq_add(tdq, next, 0);
	}
	return -1;
}

static void test_calendar_no_starvation(void **state)
{
	(void)state;
	one_cpu();
	struct tdq *tdq = tdq_cpu(0);
	for (int i = 0; i < 6; i++) {                  /* six hogs at the best batch priority */
		th[i].ts_pri = PRI_MIN_BATCH;
		tdq_add(tdq, &th[i], 0);
	}
	th[6].ts_pri = PRI_MAX_BATCH;                  /* the worst batch thread */
	tdq_add(tdq, &th[6], 0);
	int t = ticks_until_runs(&th[6], 10000);
	/* the calendar moves one bucket per round of the 7 threads, the worst
	 * thread sits 63 buckets ahead: it runs within 64 rounds (a strict
	 * priority order would never run it, the hogs are always better) */
	assert_true(t > 0);
	assert_true(t <= 64 * 7);
	sched_check_invariants(0);
}

static void test_steal_order(void **state)
{
	(void)state;
	one_cpu();
	struct tdq *tdq = tdq_cpu(0);
	th[0].ts_pri = 150, th[1].ts_pri = 150, th[2].ts_pri = 170;
	for (int i = 0; i < 3; i++)
		tdq_add(tdq, &th[i], 0);
	/* the first thread met (what CPU 0 runs next) is skipped */
	assert_ptr_equal(tdq_steal(tdq, 1), &th[1]);
	th[5].ts_pri = 60;                              /* realtime beats the calendar */
	tdq_add(tdq, &th[5], 0);
	assert_ptr_equal(tdq_steal(tdq, 1), &th[5]);
	th[5].ts_pinned = 1;                            /* pinned: never stolen */
	assert_ptr_equal(tdq_steal(tdq, 1), &th[1]);
	cpuset_zero(&th[1].ts_mask);                    /* not allowed on CPU 1 */
	cpuset_set(&th[1].ts_mask, 0);
	assert_ptr_equal(tdq_steal(tdq, 1), &th[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runq_fifo_and_head),
		cmocka_unit_test(test_queue_split),
		cmocka_unit_test(test_calendar_insert_rules),
		cmocka_unit_test(test_calendar_no_starvation),
		cmocka_unit_test(test_steal_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
