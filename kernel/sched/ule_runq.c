/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_runq.c — the generic run queue (FreeBSD's struct runq and its
 * runq_add/runq_remove/runq_choose of kern_switch.c, with ULE's own
 * runq_steal/runq_steal_from): 64 FIFO queues of 4 priorities each and a
 * bitmap of the non-empty ones. The caller holds the lock of the tdq the
 * run queue belongs to.
 */
#include <sched/ule.h>

/* Queues ts at idx, at the head or the tail; records the index in ts.
 * FreeBSD: runq_add_idx(). */
void runq_add_idx(struct runq *rq, struct td_sched *ts, int idx, int head)
{
	ts->ts_rqindex = (uint8_t)idx;
	if (!rq->rq_head[idx]) {
		ts->ts_next = ts->ts_prev = NULL;
		rq->rq_head[idx] = rq->rq_tail[idx] = ts;
		rq->rq_status |= 1ull << idx;
	} else if (head) {
		ts->ts_prev = NULL;
		ts->ts_next = rq->rq_head[idx];
		rq->rq_head[idx]->ts_prev = ts;
		rq->rq_head[idx] = ts;
	} else {
		ts->ts_next = NULL;
		ts->ts_prev = rq->rq_tail[idx];
		rq->rq_tail[idx]->ts_next = ts;
		rq->rq_tail[idx] = ts;
	}
}

/* Unlinks ts from queue ts_rqindex; advances *idx past a queue it emptied.
 * FreeBSD: runq_remove_idx(). */
void runq_remove_idx(struct runq *rq, struct td_sched *ts, uint8_t *idx)
{
	int q = ts->ts_rqindex;
	if (ts->ts_prev)
		ts->ts_prev->ts_next = ts->ts_next;
	else
		rq->rq_head[q] = ts->ts_next;
	if (ts->ts_next)
		ts->ts_next->ts_prev = ts->ts_prev;
	else
		rq->rq_tail[q] = ts->ts_prev;
	ts->ts_next = ts->ts_prev = NULL;
	if (!rq->rq_head[q]) {
		rq->rq_status &= ~(1ull << q);
		if (idx && *idx == q)
			*idx = (uint8_t)((q + 1) % RQ_NQS);
	}
}

/* First thread of the lowest-index non-empty queue. FreeBSD: runq_choose(). */
struct td_sched *runq_choose(const struct runq *rq)
{
	if (!rq->rq_status)
		return NULL;
	return rq->rq_head[__builtin_ctzll(rq->rq_status)];
}

/* First thread of the first non-empty queue at or after start, wrapping.
 * FreeBSD: runq_choose_from(). */
struct td_sched *runq_choose_from(const struct runq *rq, int start)
{
	uint64_t high = rq->rq_status & (~0ull << start);
	if (high)
		return rq->rq_head[__builtin_ctzll(high)];
	return runq_choose(rq);
}

/* 1 if cpu may steal ts: it may migrate and run there, and it is not
 * waiting on its new CPU for its class-swap partner (TSF_SWAPIN). */
static int steal_ok(const struct td_sched *ts, int cpu)
{
	return ts_can_migrate(ts) && ts_can_run_on(ts, cpu) && !(ts->ts_flags & TSF_SWAPIN);
}

/* Lowest queue first, FIFO inside: the first thread allowed to move to
 * cpu. FreeBSD: runq_steal(). */
struct td_sched *runq_steal(const struct runq *rq, int cpu)
{
	for (uint64_t bits = rq->rq_status; bits; bits &= bits - 1)
		for (struct td_sched *ts = rq->rq_head[__builtin_ctzll(bits)]; ts; ts = ts->ts_next)
			if (steal_ok(ts, cpu))
				return ts;
	return NULL;
}

/* Circular scan from start; the first thread met is only a fallback.
 * FreeBSD: runq_steal_from(). */
struct td_sched *runq_steal_from(const struct runq *rq, int cpu, int start)
{
	struct td_sched *first = NULL;
	for (int n = 0; n < RQ_NQS; n++) {
		int q = (start + n) % RQ_NQS;
		for (struct td_sched *ts = rq->rq_head[q]; ts; ts = ts->ts_next) {
			if (!first) {
				first = ts;
				continue;
			}
			if (steal_ok(ts, cpu))
				return ts;
		}
	}
	return first && steal_ok(first, cpu) ? first : NULL;
}
