/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_sync.c — synchronous wake-ups, learned: a thread whose last run
 * ended by waking N other threads and then sleeping within the tick of the
 * last wake-up (a client sending a query and waiting for the answer, a
 * server answering and waiting for the next query: N = 1; a dispatcher
 * handing out N requests, then waiting) is a sync waker (ts_sync_wakes =
 * N). When it makes its N-th wake-up of a run, its own CPU is about to
 * be free: under hmp the placement counts that CPU without it (its load
 * one less, not busy as an SMT sibling), so the two halves of a
 * request/answer pair share a core or a CPU instead of chasing idle cores
 * apart, and a dispatcher's last worker takes the dispatcher's CPU instead
 * of doubling up on a core. Linux marks such wake-ups by
 * hand (WF_SYNC, from pipes and sockets); Mosaic learns them, so kernel
 * threads, user IPC and the bench workloads need no hint. Stock ULE
 * ignores it. All on the calling CPU, about its own current thread.
 */
#include <sched/ule.h>

/* See ule.h. Takes self's tdq lock (other CPUs change the waker's
 * flags under it). */
int sched_sync_waker(int self)
{
	sched_plat_tdq_lock(self);
	struct td_sched *waker = tdq_cpu(self)->tdq_curthread;
	int sync = 0;
	if (waker) {
		sync = waker->ts_sync_wakes != 0 && waker->ts_wakes + 1 == waker->ts_sync_wakes;
		if (waker->ts_wakes < UINT16_MAX)
			waker->ts_wakes++;
		waker->ts_woke_tick = sched_plat_ticks();
	}
	sched_plat_tdq_unlock(self);
	return sync;
}

/* See ule.h. A run is counted from the thread's wake-up to its sleep,
 * across preemptions: a dispatcher's workers preempting it one by one cut
 * its burst into pieces, whose last would teach 1. */
void sched_sync_learn(struct td_sched *cur, int flags)
{
	if (flags != SCHED_SW_SLEEP)
		return;
	int slept_at_once = cur->ts_wakes != 0 && cur->ts_woke_tick == sched_plat_ticks();
	cur->ts_sync_wakes = slept_at_once ? cur->ts_wakes : 0;
	cur->ts_wakes = 0;
}
