/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_interact.c — ULE's pure per-thread arithmetic: interactivity
 * score and its bounded history, priority, the %CPU window, time slices
 * and the preemption threshold. No locks of its own: callers own the
 * thread (its tdq lock, or it is INACTIVE).
 */
#include <sched/ule.h>

#define SCHED_SLP_RUN_MAX() ((uint32_t)(sched_hz() * 5) << SCHED_TICK_SHIFT)
#define SCHED_SLP_RUN_FORK() ((uint32_t)(sched_hz() / 2) << SCHED_TICK_SHIFT)
#define SCHED_TICK_TARG() ((uint64_t)sched_hz() * 10)   /* 10 s %CPU window */
#define SCHED_TICK_MAX() (SCHED_TICK_TARG() + (uint64_t)sched_hz())

/* Score 0..100 from run time r and sleep time s; lower = more
 * interactive. FreeBSD: sched_interact_score(). */
int sched_interact_score(const struct td_sched *ts)
{
	uint32_t r = ts->ts_runtime, s = ts->ts_slptime, div;
	if (sched_interact <= SCHED_INTERACT_HALF && r >= s)
		return SCHED_INTERACT_HALF;
	if (r > s) {
		div = r / SCHED_INTERACT_HALF;
		if (div < 1)
			div = 1;
		return SCHED_INTERACT_HALF + (SCHED_INTERACT_HALF - (int)(s / div));
	}
	if (s > r) {
		div = s / SCHED_INTERACT_HALF;
		if (div < 1)
			div = 1;
		return (int)(r / div);
	}
	return r ? SCHED_INTERACT_HALF : 0;
}

/* Keeps run + sleep history within about 5 s. FreeBSD: sched_interact_update(). */
void sched_interact_update(struct td_sched *ts)
{
	uint32_t max = SCHED_SLP_RUN_MAX();
	uint64_t sum = (uint64_t)ts->ts_runtime + ts->ts_slptime;
	if (sum < max)
		return;
	if (sum > 2ull * max) {
		if (ts->ts_runtime > ts->ts_slptime) {
			ts->ts_runtime = max;
			ts->ts_slptime = 1;
		} else {
			ts->ts_slptime = max;
			ts->ts_runtime = 1;
		}
		return;
	}
	if (sum > (uint64_t)(max / 5) * 6) {
		ts->ts_runtime /= 2;
		ts->ts_slptime /= 2;
		return;
	}
	ts->ts_runtime = (ts->ts_runtime / 5) * 4;
	ts->ts_slptime = (ts->ts_slptime / 5) * 4;
}

/* Scales a child's inherited history down to at most half a second.
 * FreeBSD: sched_interact_fork(). */
void sched_interact_fork(struct td_sched *ts)
{
	uint32_t fork = SCHED_SLP_RUN_FORK();
	uint64_t sum = (uint64_t)ts->ts_runtime + ts->ts_slptime;
	if (sum > fork) {
		uint64_t ratio = sum / fork;
		ts->ts_runtime = (uint32_t)(ts->ts_runtime / ratio);
		ts->ts_slptime = (uint32_t)(ts->ts_slptime / ratio);
	}
}

/* Priority of a realtime/idle-class thread: nice picks the level in its
 * class (Mosaic's own: FreeBSD sets these priorities through rtprio). */
int sched_class_pri(int pri_class, int nice)
{
	int base = pri_class == SCHED_CLASS_IDLE ? PRI_MIN_IDLE : PRI_MIN_REALTIME;
	return base + (nice - PRIO_MIN) * 31 / (PRIO_MAX - PRIO_MIN);
}

/* Recomputes ts_user_pri of a timeshare thread (the FreeBSD 14 batch
 * formula) and sets ts_pri from it, keeping a sleep boost if better.
 * FreeBSD: sched_priority(). */
void sched_priority(struct td_sched *ts)
{
	int pri;
	if (ts->ts_class != SCHED_CLASS_TIMESHARE)
		return;
	int score = sched_interact_score(ts) + ts->ts_nice;
	if (score < 0)
		score = 0;
	if (score < sched_interact) {
		pri = PRI_MIN_INTERACT +
		      (PRI_MAX_INTERACT - PRI_MIN_INTERACT + 1) * score / (int)sched_interact;
	} else {
		pri = SCHED_PRI_MIN;
		if (ts->ts_ticks) {
			uint64_t len = ts->ts_ltick - ts->ts_ftick;
			if (len < (uint64_t)sched_hz())
				len = (uint64_t)sched_hz();
			uint64_t per = ((len + SCHED_PRI_RANGE - 1) / SCHED_PRI_RANGE * SCHED_PRI_RANGE) /
				       SCHED_PRI_RANGE;
			uint64_t t = (ts->ts_ticks >> SCHED_TICK_SHIFT) / per;
			pri += (int)(t < SCHED_PRI_RANGE - 1 ? t : SCHED_PRI_RANGE - 1);
		}
		pri += ts->ts_nice;
	}
	ts->ts_user_pri = (uint8_t)pri;
	if ((ts->ts_flags & TSF_BOOSTED) && static_boost > 1 && static_boost < pri)
		ts->ts_pri = (uint8_t)static_boost;
	else
		ts->ts_pri = (uint8_t)pri;
}

/* Slides the %CPU window to now, adding the time since the last update as
 * run time if run. FreeBSD: sched_pctcpu_update(). */
void sched_pctcpu_update(struct td_sched *ts, int run)
{
	uint64_t t = sched_plat_ticks();
	if (t - ts->ts_ltick >= SCHED_TICK_TARG()) {
		ts->ts_ticks = 0;
		ts->ts_ftick = t - SCHED_TICK_TARG();
	} else if (t - ts->ts_ftick >= SCHED_TICK_MAX()) {
		ts->ts_ticks = (uint32_t)((ts->ts_ticks / (ts->ts_ltick - ts->ts_ftick)) *
					  (ts->ts_ltick - (t - SCHED_TICK_TARG())));
		ts->ts_ftick = t - SCHED_TICK_TARG();
	}
	if (run)
		ts->ts_ticks += (uint32_t)((t - ts->ts_ltick) << SCHED_TICK_SHIFT);
	ts->ts_ltick = t;
}

/* Slice for threads on tdq, shrinking with the number waiting. FreeBSD: tdq_slice(). */
int tdq_slice(const struct tdq *tdq)
{
	int load = tdq->tdq_sysload - 1;
	if (load >= 6)
		return sched_slice_min();
	if (load <= 1)
		return (int)sched_slice;
	return (int)sched_slice / load;
}

/* Whether a thread of priority pri should preempt one of cpri (the
 * FreeBSD 14 rule: pri <= preempt_thresh). remote: the target is another
 * CPU. FreeBSD: sched_shouldpreempt(). */
int sched_shouldpreempt(int pri, int cpri, int remote)
{
	if (pri >= cpri)
		return 0;
	if (cpri >= PRI_MIN_IDLE)
		return 1;
	if (preempt_thresh == 0)
		return 0;
	if (pri <= preempt_thresh)
		return 1;
	if (remote && pri <= PRI_MAX_INTERACT && cpri > PRI_MAX_INTERACT)
		return 1;
	return 0;
}

/* %CPU in hundredths of a percent over the window (lock-free read).
 * FreeBSD: sched_pctcpu(). */
int sched_thread_pctcpu(const struct td_sched *ts)
{
	uint64_t now = sched_plat_ticks();
	uint64_t len = ts->ts_ltick - ts->ts_ftick;
	if (now - ts->ts_ltick >= SCHED_TICK_TARG() || len == 0)
		return 0;
	if (len < (uint64_t)sched_hz())
		len = (uint64_t)sched_hz();
	uint64_t pct = ((uint64_t)ts->ts_ticks * 10000 / len) >> SCHED_TICK_SHIFT;
	return pct > 10000 ? 10000 : (int)pct;
}

/* Interactivity score for ps (lock-free read). */
int sched_thread_score(const struct td_sched *ts)
{
	return sched_interact_score(ts);
}
