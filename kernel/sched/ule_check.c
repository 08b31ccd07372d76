/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_check.c — run-queue invariants (kern.sched.debug): a queued thread
 * is on exactly one bucket of one run queue of its own CPU, the load is
 * queued + running, transferable counts the migratable queued threads,
 * every queued or running thread is protected by this tdq's lock, lowpri
 * is no worse than the running thread and no better than the best
 * thread present.
 */
#include <sched/ule.h>

static uint64_t checks_done;   /* tdq_check() calls since boot (atomic) */

/* See sched.h. */
uint64_t sched_checks_done(void)
{
	return __atomic_load_n(&checks_done, __ATOMIC_RELAXED);
}

/* Walks one run queue; returns its thread count, adds the migratable ones
 * to *xfer and lowers *best. Panics on a misplaced thread. */
static int check_runq(const struct tdq *tdq, const struct runq *rq, int which, int *xfer, int *best)
{
	int n = 0;
	for (int q = 0; q < RQ_NQS; q++) {
		int nonempty = (rq->rq_status >> q) & 1;
		if (nonempty != (rq->rq_head[q] != NULL))
			sched_plat_panic("sched: run-queue bitmap disagrees with its queue");
		const struct td_sched *prev = NULL;
		for (const struct td_sched *ts = rq->rq_head[q]; ts; prev = ts, ts = ts->ts_next) {
			if (ts->ts_prev != prev || ts->ts_state != SCHED_TS_RUNQ ||
			    ts->ts_cpu != tdq->tdq_id || ts->ts_lockcpu != tdq->tdq_id ||
			    ts->ts_runq != which || ts->ts_rqindex != q)
				sched_plat_panic("sched: queued thread with inconsistent state");
			if (++n > 100000)
				sched_plat_panic("sched: run queue loops");
			if (ts->ts_flags & TSF_XFERABLE)
				(*xfer)++;
			if (ts->ts_pri < *best)
				*best = ts->ts_pri;
		}
		if (rq->rq_tail[q] != prev)
			sched_plat_panic("sched: run-queue tail is wrong");
	}
	return n;
}

/* Checks tdq (locked); panics with the broken rule. */
void tdq_check(struct tdq *tdq)
{
	int xfer = 0, best = PRI_MAX_IDLE, queued = 0;
	__atomic_add_fetch(&checks_done, 1, __ATOMIC_RELAXED);
	if (!sched_plat_tdq_owned(tdq->tdq_id))
		sched_plat_panic("sched: tdq checked without its lock");
	queued += check_runq(tdq, &tdq->tdq_realtime, TS_RUNQ_REALTIME, &xfer, &best);
	queued += check_runq(tdq, &tdq->tdq_timeshare, TS_RUNQ_TIMESHARE, &xfer, &best);
	queued += check_runq(tdq, &tdq->tdq_idle, TS_RUNQ_IDLE, &xfer, &best);
	const struct td_sched *cur = tdq->tdq_curthread;
	if (cur && (cur->ts_state != SCHED_TS_RUNNING || cur->ts_cpu != tdq->tdq_id ||
		    cur->ts_lockcpu != tdq->tdq_id))
		sched_plat_panic("sched: running thread with inconsistent state");
	if (cur && cur->ts_pri < best)
		best = cur->ts_pri;
	if (tdq->tdq_load != queued + (cur ? 1 : 0))
		sched_plat_panic("sched: tdq_load != queued + running");
	if (tdq->tdq_transferable != xfer)
		sched_plat_panic("sched: tdq_transferable != migratable queued threads");
	if (tdq->tdq_lowpri > (cur ? cur->ts_pri : PRI_MAX_IDLE) || tdq->tdq_lowpri < best)
		sched_plat_panic("sched: tdq_lowpri out of range");
}

/* See sched.h. */
void sched_check_invariants(int cpu)
{
	sched_plat_tdq_lock(cpu);
	tdq_check(tdq_cpu(cpu));
	sched_plat_tdq_unlock(cpu);
}
