/*
 * ule_sync.c — synchronous wake-ups, learned: a thread whose stretches
 * end by waking one other thread and then sleeping within the same tick
 * (a client sending a query and waiting for the answer, a server
 * answering and waiting for the next query) is a sync waker (TSF_SYNCWAKER).
 * When it wakes a thread, its own CPU is about to be free: under hmp the
 * placement counts that CPU without it (its load one less, not busy as an
 * SMT sibling), so the two halves of a request/answer pair share a core or
 * a CPU instead of chasing idle cores apart. Linux marks such wake-ups by
 * hand (WF_SYNC, from pipes and sockets); Mosaic learns them, so kernel
 * threads, user IPC and the bench workloads need no hint. Stock ULE
 * ignores it. All on the calling CPU, about its own current thread.
 */
#include "ule.h"

/* See ule.h. Takes self's tdq lock (other CPUs change the waker's
 * flags under it). */
int sched_sync_waker(int self)
{
	sched_plat_tdq_lock(self);
	struct td_sched *waker = tdq_cpu(self)->tdq_curthread;
	int sync = 0;
	if (waker) {
		sync = (waker->ts_flags & TSF_SYNCWAKER) && waker->ts_wakes == 0;
		if (waker->ts_wakes < UINT16_MAX)
			waker->ts_wakes++;
		waker->ts_woke_tick = sched_plat_ticks();
	}
	sched_plat_tdq_unlock(self);
	return sync;
}

/* See ule.h. */
void sched_sync_learn(struct td_sched *cur, int flags)
{
	if (flags != SCHED_SW_SLEEP)
		return;
	if (cur->ts_wakes == 1 && cur->ts_woke_tick == sched_plat_ticks())
		cur->ts_flags |= TSF_SYNCWAKER;
	else
		cur->ts_flags &= (uint16_t)~TSF_SYNCWAKER;
}
