/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_add.c — making threads runnable and telling the target CPU:
 * sched_add, sched_wakeup, sched_sleep, tdq_notify, local preemption, and
 * the per-thread set-up and changes (init, nice, affinity, bind, pin).
 * Locking as in sched.h: callers hold no tdq lock, interrupts off.
 */
#include <sched/ule.h>

/* See ule.h. FreeBSD: thread_lock() of a thread whose td_lock may be
 * blocked_lock (it spins until the mover hands the thread over). */
int ts_lock_tdq(const struct td_sched *ts)
{
	for (;;) {
		int cpu = __atomic_load_n(&ts->ts_lockcpu, __ATOMIC_ACQUIRE);
		if (cpu == SCHED_TS_LOCK_BLOCKED) {
			sched_plat_relax();
			continue;
		}
		sched_plat_tdq_lock(cpu);
		if (__atomic_load_n(&ts->ts_lockcpu, __ATOMIC_ACQUIRE) == cpu)
			return cpu;
		sched_plat_tdq_unlock(cpu);
	}
}

/* See ule.h. FreeBSD: thread_lock_block() followed by the unlock. */
void ts_block_unlock(struct td_sched *ts, int cpu)
{
	__atomic_store_n(&ts->ts_lockcpu, SCHED_TS_LOCK_BLOCKED, __ATOMIC_RELEASE);
	sched_plat_tdq_unlock(cpu);
}

/* IPI tdq's CPU if its new lowpri should preempt what ran at lowpri_before,
 * unless one is in flight or its idle thread is awake. tdq locked.
 * FreeBSD: tdq_notify(). */
void tdq_notify(struct tdq *tdq, int lowpri_before)
{
	if (tdq->tdq_owepreempt)
		return;
	if (!sched_shouldpreempt(tdq->tdq_lowpri, lowpri_before, 1))
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!tdq->tdq_curthread && !__atomic_load_n(&tdq->tdq_cpu_idle, __ATOMIC_RELAXED))
		return;
	tdq->tdq_owepreempt = 1;
	tdq_cpu(sched_plat_cpu_self())->tdq_stats.ipis++;
	sched_plat_ipi(tdq->tdq_id, SCHED_PLAT_IPI_PREEMPT);
}

/* SCHED_RESCHED if a thread of priority pri just queued here beats the
 * running one. FreeBSD's sched_setpreempt() asks for a switch in two
 * strengths — at the next return to user mode whenever pri is better, at
 * the end of the critical section when sched_shouldpreempt() agrees —
 * and kernel threads never return to user mode, so both mean the end of
 * the critical section here. Own tdq locked. */
int sched_setpreempt(struct tdq *tdq, int pri)
{
	int cpri = tdq->tdq_curthread ? tdq->tdq_curthread->ts_pri : PRI_MAX_IDLE;
	return pri < cpri ? SCHED_RESCHED : 0;
}

/* See ule.h. */
int tdq_preempt_check(struct tdq *tdq, int pri, int lowpri_before)
{
	if (tdq->tdq_id == sched_plat_cpu_self())
		return sched_setpreempt(tdq, pri);
	tdq_notify(tdq, lowpri_before);
	return 0;
}

/* The part of sched_add() after the caller took ownership of ts (in
 * transit, no lock held): priority, CPU choice (sched_pickcpu flags pick),
 * queueing (which ends the transit) and the notification. why: what
 * brought it here, for the trace (SCHED_TRACE_WHY_WAKEUP: a wake-up or a
 * new thread, recorded as such too). */
static int add_owned(struct td_sched *ts, int flags, int pick, int why)
{
	int self = sched_plat_cpu_self(), ret = 0, prev = ts->ts_cpu;
	sched_priority(ts);
	int cpu = sched_pickcpu(ts, pick);
	if (why == SCHED_TRACE_WHY_WAKEUP)
		sched_trace_point(0, ts, SCHED_TRACE_WAKEUP, 0, self, cpu);
	if (cpu != prev && ts->ts_lastcpu >= 0)
		sched_trace_point(0, ts, SCHED_TRACE_MIGRATE, why, prev, cpu);
	struct tdq *tdq = tdq_cpu(cpu);
	sched_plat_tdq_lock(cpu);
	int before = tdq_add(tdq, ts, 0);
	if (cpu != self)
		tdq_cpu(self)->tdq_stats.wakeup_remote++;
	else
		tdq_cpu(self)->tdq_stats.wakeup_local++;
	if (cpu != self || !(flags & SCHED_ADD_YIELDING))
		ret = tdq_preempt_check(tdq, ts->ts_pri, before);
	if (sched_debug)
		tdq_check(tdq);
	sched_plat_tdq_unlock(cpu);
	return ret;
}

/* See sched.h. */
int sched_add(struct td_sched *ts, int flags)
{
	int cpu = ts_lock_tdq(ts);
	if (ts->ts_state != SCHED_TS_INACTIVE)
		sched_plat_panic("sched_add: thread is already runnable");
	ts_block_unlock(ts, cpu);
	return add_owned(ts, flags, 0, SCHED_TRACE_WHY_WAKEUP);
}

/* See sched.h. Raises a timeshare sleeper to static_boost. */
void sched_sleep(struct td_sched *ts)
{
	int cpu = sched_plat_cpu_self();
	struct tdq *tdq = tdq_cpu(cpu);
	sched_plat_tdq_lock(cpu);
	uint64_t now = sched_plat_ticks();
	ts->ts_slptick = now ? now : 1;
	ts->ts_flags &= (uint16_t)~TSF_WOKEN;
	if (ts->ts_class == SCHED_CLASS_TIMESHARE && static_boost > 1 && ts->ts_pri > static_boost) {
		ts->ts_pri = (uint8_t)static_boost;
		ts->ts_flags |= TSF_BOOSTED;
		if (ts->ts_pri < tdq->tdq_lowpri)
			tdq_store_lowpri(tdq, ts->ts_pri);
	}
	sched_plat_tdq_unlock(cpu);
}

/* See sched.h. */
int sched_wakeup(struct td_sched *ts)
{
	int cpu = ts_lock_tdq(ts);
	if (ts->ts_state == SCHED_TS_RUNNING) {
		ts->ts_flags |= TSF_WOKEN;   /* not switched out yet: cancel the sleep */
		sched_plat_tdq_unlock(cpu);
		return 0;
	}
	if (ts->ts_state != SCHED_TS_INACTIVE)
		sched_plat_panic("sched_wakeup: thread is already queued");
	ts_block_unlock(ts, cpu);
	uint64_t now = sched_plat_ticks();
	if (ts->ts_slptick && ts->ts_slptick != now) {
		ts->ts_slptime += (uint32_t)((now - ts->ts_slptick) << SCHED_TICK_SHIFT);
		sched_interact_update(ts);
		sched_pctcpu_update(ts, 0);
	}
	ts->ts_slptick = 0;
	ts->ts_slice = 0;
	return add_owned(ts, 0, sched_sync_waker(sched_plat_cpu_self()) ? SPC_SYNC : 0, SCHED_TRACE_WHY_WAKEUP);
}

/* ULE's fork penalty for the parent, the calling CPU's running thread:
 * %CPU brought up to date first (the child copies it), then one tick of
 * run time charged and its priority recomputed. Own tdq locked. */
static void fork_charge_parent(struct tdq *tdq, struct td_sched *parent)
{
	int old = parent->ts_pri;
	parent->ts_runtime += SCHED_TICKINCR;
	sched_interact_update(parent);
	sched_priority(parent);
	if (tdq->tdq_curthread == parent)
		tdq_running_prichange(tdq, parent, old);
}

/* See sched.h. */
void sched_thread_init(struct td_sched *ts, struct td_sched *parent, int pri_class, int nice,
		       const struct cpuset *mask)
{
	int self = sched_plat_cpu_self();
	struct tdq *tdq = tdq_cpu(self);
	uint64_t now = sched_plat_ticks();
	*ts = (struct td_sched){ 0 };
	ts->ts_class = (uint8_t)pri_class;
	ts->ts_nice = (int8_t)(nice < PRIO_MIN ? PRIO_MIN : nice > PRIO_MAX ? PRIO_MAX : nice);
	if (mask) {
		ts->ts_mask = *mask;
	} else {
		for (int c = 0; c < sched_ncpus; c++)
			cpuset_set(&ts->ts_mask, (unsigned)c);
	}
	ts->ts_cpu = ts->ts_lockcpu = parent ? parent->ts_cpu : self;
	ts->ts_lastcpu = -1;
	ts->ts_bound_cpu = -1;
	ts->ts_move_to = -1;
	ts->ts_flags = TSF_HOGRUN;   /* CPU-bound until it sleeps after a short run */
	ts->ts_ltick = ts->ts_ftick = now;
	ts->ts_rltick = now - (uint64_t)(sched_affinity_ticks * SCHED_MAX_CACHE_LEVELS);
	if (parent) {
		sched_plat_tdq_lock(self);
		sched_pctcpu_update(parent, 1);
		ts->ts_runtime = parent->ts_runtime;
		ts->ts_slptime = parent->ts_slptime;
		ts->ts_ticks = parent->ts_ticks;
		ts->ts_ltick = parent->ts_ltick;
		ts->ts_ftick = parent->ts_ftick;
		sched_interact_fork(ts);
		fork_charge_parent(tdq, parent);
		sched_plat_tdq_unlock(self);
	}
	int slice = tdq_slice(tdq) - sched_slice_min();
	ts->ts_slice = slice > 0 ? slice : 0;
	if (pri_class == SCHED_CLASS_TIMESHARE)
		sched_priority(ts);
	else
		ts->ts_pri = ts->ts_user_pri = (uint8_t)sched_class_pri(pri_class, ts->ts_nice);
}

/* See sched.h. */
void sched_adopt_running(struct td_sched *ts)
{
	int cpu = sched_plat_cpu_self();
	struct tdq *tdq = tdq_cpu(cpu);
	sched_plat_tdq_lock(cpu);
	ts->ts_state = SCHED_TS_RUNNING;
	ts->ts_cpu = ts->ts_lockcpu = cpu;
	ts->ts_on_ns = ts->ts_in_ns = sched_plat_time_ns();
	tdq_store_curthread(tdq, ts);
	tdq_load_add(tdq, ts);
	tdq_setlowpri(tdq);
	sched_plat_tdq_unlock(cpu);
}

/* Applies ts_nice / class to ts_pri. Thread's tdq locked (or owned). */
static void thread_repri(struct td_sched *ts)
{
	if (ts->ts_class == SCHED_CLASS_TIMESHARE)
		sched_priority(ts);
	else
		ts->ts_pri = ts->ts_user_pri = (uint8_t)sched_class_pri(ts->ts_class, ts->ts_nice);
}

/* Requeues the queued ts of tdq (locked) at its new priority; asks its CPU
 * to preempt if it now beats the running thread. */
static int repri_queued(struct tdq *tdq, struct td_sched *ts)
{
	int old = ts->ts_pri;
	tdq_runq_rem(tdq, ts);
	tdq_setlowpri(tdq);
	int before = tdq->tdq_lowpri;
	thread_repri(ts);
	tdq_runq_add(tdq, ts, 0);
	if (ts->ts_pri < tdq->tdq_lowpri)
		tdq_store_lowpri(tdq, ts->ts_pri);
	return ts->ts_pri < old ? tdq_preempt_check(tdq, ts->ts_pri, before) : 0;
}

/* New priority of the running ts of tdq (locked); if a queued thread now
 * beats it, asks its CPU to switch. */
static int repri_running(struct tdq *tdq, struct td_sched *ts)
{
	int old = ts->ts_pri;
	thread_repri(ts);
	tdq_running_prichange(tdq, ts, old);
	if (ts->ts_pri > old && tdq->tdq_lowpri < ts->ts_pri)
		return tdq_preempt_check(tdq, tdq->tdq_lowpri, ts->ts_pri);
	return 0;
}

/* See sched.h. */
int sched_set_nice(struct td_sched *ts, int nice)
{
	int cpu = ts_lock_tdq(ts), ret = 0;
	struct tdq *tdq = tdq_cpu(cpu);
	ts->ts_nice = (int8_t)(nice < PRIO_MIN ? PRIO_MIN : nice > PRIO_MAX ? PRIO_MAX : nice);
	if (ts->ts_state == SCHED_TS_RUNQ)
		ret = repri_queued(tdq, ts);
	else if (ts->ts_state == SCHED_TS_RUNNING)
		ret = repri_running(tdq, ts);
	else
		thread_repri(ts);
	if (sched_debug)
		tdq_check(tdq);
	sched_plat_tdq_unlock(cpu);
	return ret;
}

/* Asks the thread running on cpu (locked) to repick its CPU at its next
 * switch: SCHED_RESCHED for the calling CPU, an IPI for another. */
static int request_repick(struct tdq *tdq, struct td_sched *ts)
{
	int self = sched_plat_cpu_self();
	ts->ts_flags |= TSF_PICKCPU;
	if (tdq->tdq_id == self)
		return SCHED_RESCHED;
	tdq_cpu(self)->tdq_stats.ipis++;
	sched_plat_ipi(tdq->tdq_id, SCHED_PLAT_IPI_AST);
	return 0;
}

/* See sched.h. */
int sched_set_affinity(struct td_sched *ts, const struct cpuset *mask)
{
	int cpu = ts_lock_tdq(ts), ret = 0;
	struct tdq *tdq = tdq_cpu(cpu);
	if (mask) {
		ts->ts_mask = *mask;
	} else {
		for (int c = 0; c < sched_ncpus; c++)
			cpuset_set(&ts->ts_mask, (unsigned)c);
	}
	int allowed = ts_can_run_on(ts, cpu);
	if (ts->ts_state == SCHED_TS_RUNQ && !allowed && ts_can_migrate(ts)) {
		tdq_rem_queued(tdq, ts);
		if (sched_debug)
			tdq_check(tdq);
		ts_block_unlock(ts, cpu);
		return add_owned(ts, 0, 0, SCHED_TRACE_WHY_AFFINITY);
	}
	if (ts->ts_state == SCHED_TS_RUNNING && !allowed)
		ret = request_repick(tdq, ts);
	sched_plat_tdq_unlock(cpu);
	return ret;
}

/* See sched.h. FreeBSD: sched_bind(). */
int sched_bind(struct td_sched *cur, int cpu)
{
	int self = sched_plat_cpu_self();
	sched_plat_tdq_lock(self);
	if (!(cur->ts_flags & TSF_BOUND))
		ts_pin_add(cur, 1);
	cur->ts_flags |= TSF_BOUND;
	cur->ts_bound_cpu = cpu;
	sched_plat_tdq_unlock(self);
	return cpu != self ? SCHED_RESCHED : 0;
}

/* See sched.h. FreeBSD: sched_pin() (td_pinned). */
void sched_pin(struct td_sched *cur)
{
	ts_pin_add(cur, 1);
}

/* See sched.h. FreeBSD: sched_unpin(). */
void sched_unpin(struct td_sched *cur)
{
	ts_pin_add(cur, -1);
}
