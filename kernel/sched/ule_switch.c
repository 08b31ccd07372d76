/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_switch.c — the switch path (FreeBSD's sched_switch), the per-tick
 * work (sched_clock: calendar, run-time history, priority and slices, the
 * balancer trigger) and the IPI handler (sched_preempt). All run on the CPU concerned with interrupts off and take
 * its own tdq lock (and a target's when a thread migrates at its switch).
 */
#include <sched/ule.h>

/* Charges cur's time on the CPU since it started running, also by the
 * CPU's core type and whether an SMT sibling was busy at the end of the
 * stretch (stretches end at every switch and tick, so the split is exact
 * to a tick). Own tdq locked. (Mosaic's own statistics; FreeBSD keeps
 * run times in the thread layer.) */
static void account_run(struct tdq *tdq, struct td_sched *cur, uint64_t now_ns)
{
	uint64_t d = now_ns - cur->ts_on_ns;
	cur->ts_run_ns += d;
	cur->ts_run_ns_type[sched_cpu_core_type(tdq->tdq_id)] += d;
	if (tdq_core_shared(tdq->tdq_id))
		cur->ts_run_ns_shared += d;
	tdq->tdq_stats.run_ns += d;
	cur->ts_on_ns = now_ns;
}

/* Queues the still-runnable cur: here, or on another CPU after a repick /
 * for a bind, in transit (ts_block_unlock) to the target's lock. Own tdq
 * locked on entry and on return (dropped in between when migrating).
 * move_to: where an hmp move request sends it (-1: none), swap: that
 * request is half of a class swap (TSF_ITDSWAP). FreeBSD: the
 * "still runnable" branch of sched_switch() with sched_switch_migrate(). */
static void requeue_current(struct tdq *tdq, struct td_sched *cur, int preempted, int pickcpu,
			    int move_to, int swap, uint64_t now_ns)
{
	int self = tdq->tdq_id, target = self;
	if (cur->ts_flags & TSF_BOUND) {
		target = cur->ts_bound_cpu;
	} else if (ts_can_migrate(cur) && pickcpu && move_to >= 0 && ts_can_run_on(cur, self)) {
		target = hmp_move_target(cur, self, move_to, swap);   /* asked over: there or nowhere */
	} else if (ts_can_migrate(cur) && (!ts_can_run_on(cur, self) || pickcpu)) {
		target = sched_pickcpu(cur, 0);
	} else if (ts_can_migrate(cur) && hmp_should_leave(cur, self)) {
		target = sched_pickcpu(cur, SPC_LEAVE_AVOIDED);
		tdq->tdq_stats.hmp_avoid_moves += target != self;
	}
	if (target == self) {
		tdq_runq_add(tdq, cur, preempted ? SRQ_PREEMPTED : 0);
		cur->ts_enq_ns = now_ns;
		return;
	}
	sched_trace_point(now_ns, cur, SCHED_TRACE_MIGRATE,
			  cur->ts_flags & TSF_BOUND ? SCHED_TRACE_WHY_BIND : SCHED_TRACE_WHY_SWITCH, self, target);
	tdq_load_rem(tdq, cur);
	cur->ts_state = SCHED_TS_INACTIVE;
	if (swap && target == move_to)   /* its half of a class swap: it waits there for its partner */
		cur->ts_flags |= TSF_SWAPIN;
	tdq_store_curthread(tdq, NULL);
	tdq_setlowpri(tdq);   /* exact while others may lock us */
	ts_block_unlock(cur, self);
	sched_plat_tdq_lock(target);
	struct tdq *to = tdq_cpu(target);
	int before = tdq_add(to, cur, 0);
	tdq_notify(to, before);
	if (sched_debug)
		tdq_check(to);
	sched_plat_tdq_unlock(target);
	sched_plat_tdq_lock(self);
}

/* Takes the next thread off the queues and makes it RUNNING here, or
 * records that the CPU goes idle. A sleep boost ends here: the thread runs
 * at its own priority. Own tdq locked. FreeBSD: sched_choose() (with the
 * boost's end that FreeBSD leaves to sched_userret()). */
static struct td_sched *choose_next(struct tdq *tdq, uint64_t now_ns)
{
	struct td_sched *next = tdq_choose(tdq);
	if (!next) {
		tdq_store_lowpri(tdq, PRI_MAX_IDLE);
		tdq_store_curthread(tdq, NULL);
		tdq->tdq_stats.idle_switch++;
		return NULL;
	}
	tdq_runq_rem(tdq, next);
	next->ts_state = SCHED_TS_RUNNING;
	tdq_store_curthread(tdq, next);
	if (next->ts_flags & TSF_BOOSTED) {
		next->ts_flags &= (uint16_t)~TSF_BOOSTED;
		next->ts_pri = next->ts_user_pri;
		tdq_setlowpri(tdq);   /* a queued thread may now rank above it */
	} else {
		tdq_store_lowpri(tdq, next->ts_pri);
	}
	uint64_t waited = now_ns > next->ts_enq_ns ? now_ns - next->ts_enq_ns : 0;
	next->ts_wait_ns += waited;
	tdq->tdq_stats.wait_ns += waited;
	next->ts_on_ns = next->ts_in_ns = now_ns;
	__atomic_store_n(&tdq->tdq_curhog, hmp_hog(next, now_ns), __ATOMIC_RELAXED);
	if (next->ts_lastcpu >= 0 && next->ts_lastcpu != tdq->tdq_id) {
		next->ts_migrations++;
		tdq->tdq_stats.migrations++;
	}
	sched_pctcpu_update(next, 0);
	__atomic_store_n(&tdq->tdq_curlatency, (uint8_t)hmp_latency_thread(next), __ATOMIC_RELAXED);
	return next;
}

/* See sched.h. */
struct td_sched *sched_switch(struct td_sched *cur, int flags)
{
	int self = sched_plat_cpu_self();
	struct tdq *tdq = tdq_cpu(self);
	sched_plat_tdq_lock(self);
	uint64_t now_ns = sched_plat_time_ns();
	tdq->tdq_stats.schedule++;
	tdq->tdq_owepreempt = 0;
	if (cur) {
		if (cur != tdq->tdq_curthread)
			sched_plat_panic("sched_switch: cur is not this CPU's running thread");
		sched_pctcpu_update(cur, 1);
		account_run(tdq, cur, now_ns);
		sched_sync_learn(cur, flags);
		cur->ts_nswitch++;
		if (now_ns - cur->ts_in_ns >= sched_tick_ns())
			cur->ts_flags |= TSF_HOGRUN;
		else if (flags == SCHED_SW_SLEEP)
			cur->ts_flags &= (uint16_t)~TSF_HOGRUN;
		int pickcpu = (cur->ts_flags & TSF_PICKCPU) != 0, move_to = cur->ts_move_to;
		int swap = (cur->ts_flags & TSF_ITDSWAP) != 0;
		cur->ts_move_to = -1;
		if (move_to >= 0)
			hmp_ask_done(move_to);
		int preempted = !(cur->ts_flags & TSF_SLICEEND) && flags == SCHED_SW_PREEMPT;
		uint64_t back = pickcpu ? (uint64_t)(sched_affinity_ticks * SCHED_MAX_CACHE_LEVELS) : 0;
		cur->ts_rltick = sched_plat_ticks() - back;
		cur->ts_lastcpu = self;
		cur->ts_flags &= (uint16_t)~(TSF_PICKCPU | TSF_SLICEEND | TSF_ITDSWAP);
		tdq->tdq_switchcnt++;
		tdq->tdq_pull_tick = 0;   /* were it to idle now, its first round scans (hmp_upmigrate_pull) */
		int runnable = flags == SCHED_SW_YIELD || flags == SCHED_SW_PREEMPT ||
			       (flags == SCHED_SW_SLEEP && (cur->ts_flags & TSF_WOKEN));
		cur->ts_flags &= (uint16_t)~TSF_WOKEN;
		if (runnable) {
			if (flags == SCHED_SW_SLEEP)
				cur->ts_slptick = 0;
			requeue_current(tdq, cur, preempted, pickcpu, move_to, swap, now_ns);
		} else {
			if (hmp_latency_thread(cur))
				__atomic_store_n(&tdq->tdq_interact_tick, sched_plat_ticks(), __ATOMIC_RELAXED);
			if (flags == SCHED_SW_SLEEP && hmp_will_return(cur))
				__atomic_store_n(&tdq->tdq_return_tick, sched_plat_ticks(), __ATOMIC_RELAXED);
			tdq_load_rem(tdq, cur);
			cur->ts_state = SCHED_TS_INACTIVE;
			tdq_store_curthread(tdq, NULL);
			if (tdq->tdq_load == 0)
				tdq_trysteal(tdq);
		}
	}
	struct td_sched *next = choose_next(tdq, now_ns);
	if (next != cur)   /* at the instant its run time is counted from */
		sched_trace_point(now_ns, next, SCHED_TRACE_SWITCH, 0, self, self);
	if (sched_debug)
		tdq_check(tdq);
	sched_plat_tdq_unlock(self);
	return next;
}

/* Run-time history, %CPU, priority and slice of the running thread for
 * cnt ticks; returns 1 when its slice ended. Own tdq locked. FreeBSD: the
 * thread part of sched_clock(). */
static int clock_thread(struct tdq *tdq, struct td_sched *cur, int cnt)
{
	int old = cur->ts_pri;
	account_run(tdq, cur, sched_plat_time_ns());
	sched_pctcpu_update(cur, 1);
	if (cur->ts_class == SCHED_CLASS_TIMESHARE) {
		cur->ts_runtime += hmp_tick_charge(tdq->tdq_id) * (unsigned)cnt;
		sched_interact_update(cur);
		sched_priority(cur);
		tdq_running_prichange(tdq, cur, old);
	}
	__atomic_store_n(&tdq->tdq_curhog, hmp_hog(cur, sched_plat_time_ns()), __ATOMIC_RELAXED);
	__atomic_store_n(&tdq->tdq_curlatency, (uint8_t)hmp_latency_thread(cur), __ATOMIC_RELAXED);
	cur->ts_slice += cnt;
	if (cur->ts_slice >= tdq_slice(tdq)) {
		cur->ts_slice = 0;
		cur->ts_flags |= TSF_SLICEEND;
		tdq->tdq_stats.timeslices++;
		return 1;
	}
	return 0;
}

/* See sched.h. */
int sched_clock(int cpu, struct td_sched *cur, int cnt)
{
	struct tdq *tdq = tdq_cpu(cpu);
	int ret = 0, balance = 0;
	sched_plat_tdq_lock(cpu);
	tdq->tdq_oldswitchcnt = tdq->tdq_switchcnt;
	tdq->tdq_switchcnt = tdq->tdq_load;
	/* the ticks this call stands for count (FreeBSD: balance_ticks -= cnt),
	 * so the balancer keeps its interval in guest time when tick
	 * interrupts were lost (a vCPU the host did not run for a while) */
	if (cpu == 0 && rebalance && tdq->tdq_balance_ticks &&
	    __atomic_load_n(&sched_smp_started, __ATOMIC_ACQUIRE) && (tdq->tdq_balance_ticks -= cnt) <= 0)
		balance = 1;
	tdq_calendar_tick(tdq);
	if (cur && clock_thread(tdq, cur, cnt))
		ret = 1;
	sched_plat_tdq_unlock(cpu);
	if (balance && sched_balance() == SCHED_RESCHED)
		ret = 1;
	sched_plat_tdq_lock(cpu);
	if (cur && ts_can_migrate(cur) && hmp_should_leave(cur, cpu))
		ret = 1;   /* HFI perf 0 here: the switch repicks (requeue_current) */
	if (cur ? (cur->ts_flags & TSF_PICKCPU) != 0 : tdq->tdq_load > 0)
		ret = 1;
	sched_plat_tdq_unlock(cpu);
	return ret;
}

/* See sched.h. */
int sched_ipi(int cpu, struct td_sched *cur)
{
	struct tdq *tdq = tdq_cpu(cpu);
	int ret;
	sched_plat_tdq_lock(cpu);
	if (cur)
		ret = (cur->ts_flags & TSF_PICKCPU) || !ts_can_run_on(cur, cpu) ||
		      cur->ts_pri > tdq->tdq_lowpri;
	else
		ret = tdq->tdq_load > 0;
	if (!ret)
		tdq->tdq_owepreempt = 0;
	sched_plat_tdq_unlock(cpu);
	return ret;
}
