/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_balance.c — the periodic long-term balancer (FreeBSD's
 * sched_balance, sched_balance_group, sched_balance_pair, tdq_move): CPU 0
 * pairs the most loaded CPUs with the least loaded ones over the tree,
 * moving one queued thread per pair, or asks a lone running thread to
 * repick its CPU; the placement policy (sched_policy.h) may weigh the
 * pairs, narrow the receivers, or run its own pass. Called with no tdq
 * lock held, interrupts off.
 */
#include <sched/sched_policy.h>

/* First thread to take from tdq for cpu: realtime by priority, then the
 * calendar from its removal index (skipping the victim's next), then idle.
 * FreeBSD: tdq_steal(). */
struct td_sched *tdq_steal(struct tdq *tdq, int cpu)
{
	struct td_sched *ts = runq_steal(&tdq->tdq_realtime, cpu);
	if (ts)
		return ts;
	ts = runq_steal_from(&tdq->tdq_timeshare, cpu, tdq->tdq_ridx);
	if (ts)
		return ts;
	return runq_steal(&tdq->tdq_idle, cpu);
}

/* Moves one stealable thread from `from` to `to` (both locked); returns
 * to's lowpri before, or -1 if none could move. FreeBSD: tdq_move(). */
int tdq_move(struct tdq *from, struct tdq *to, int why)
{
	struct td_sched *ts = tdq_steal(from, to->tdq_id);
	if (!ts)
		return -1;
	tdq_rem_queued(from, ts);
	sched_trace_point(0, ts, SCHED_TRACE_MIGRATE, why, from->tdq_id, to->tdq_id);
	return tdq_add(to, ts, 0);
}

/* See ule.h. */
int sched_balance_pair(const struct search_mode *mode, struct tdq *high, struct tdq *low,
		       int *resched)
{
	int moved = 0, self = sched_plat_cpu_self();
	const struct sched_policy *p = mode->pol;
	tdq_lock_pair(high->tdq_id, low->tdq_id);
	int more = p && p->balance_more ? p->balance_more(mode, high, low) : high->tdq_load > low->tdq_load;
	if (high->tdq_transferable && more) {
		int lowpri = tdq_move(high, low, SCHED_TRACE_WHY_BALANCE);
		if (lowpri >= 0) {
			moved = 1;
			tdq_cpu(self)->tdq_stats.balance_moves++;
			*resched |= tdq_preempt_check(low, low->tdq_lowpri, lowpri);
		}
	}
	if (sched_debug) {
		tdq_check(high);
		tdq_check(low);
	}
	tdq_unlock_pair(high->tdq_id, low->tdq_id);
	return moved;
}

/* A donor with only its running thread: the policy may ask that thread to
 * move (ULE: mark it to repick its CPU at its next switch); another CPU
 * gets an IPI, on the calling CPU sched_clock sees the mark. FreeBSD: the
 * TDF_PICKCPU branch of sched_balance_group(). */
static void balance_lone_thread(const struct search_mode *mode, int high)
{
	int self = sched_plat_cpu_self();
	const struct sched_policy *p = mode->pol;
	struct tdq *tdq = tdq_cpu(high);
	sched_plat_tdq_lock(high);
	struct td_sched *t = tdq->tdq_curthread;
	int asked = 0;
	if (t && p && p->lone_thread) {
		asked = p->lone_thread(mode, t, high);
	} else if (t && ts_can_migrate(t)) {
		t->ts_flags |= TSF_PICKCPU;
		asked = 1;
	}
	if (asked) {
		tdq_cpu(self)->tdq_stats.balance_pickcpu++;
		if (high != self) {
			tdq_cpu(self)->tdq_stats.ipis++;
			sched_plat_ipi(high, SCHED_PLAT_IPI_AST);
		}
	}
	sched_plat_tdq_unlock(high);
}

/* See sched_policy.h. One pass over cg: the most loaded CPU gives a
 * thread to the least loaded one on its least loaded path, pair after
 * pair; the policy may leave CPUs out as receivers (balance_exclude),
 * narrow each donor's receivers (balance_receivers) and hears of each
 * move (balance_moved). FreeBSD:
 * sched_balance_group(). */
int ule_balance_group(const struct search_mode *mode, const struct cpu_group *cg)
{
	const struct sched_policy *p = mode->pol;
	struct cpuset hmask = sched_online, lmask;
	int resched = 0;
	for (;;) {
		int high = sched_highest(mode, cg, &hmask, 1, 0);
		if (high < 0)
			return resched;
		cpuset_clr_cpu(&hmask, high);
		lmask = hmask;
		if (p && p->balance_exclude)
			p->balance_exclude(mode, &lmask);
		if (cpuset_empty(&lmask))
			return resched;
		if (tdq_load_of(high) == 1) {
			balance_lone_thread(mode, high);
			return resched;
		}
		int anylow = 1;
		if (p && p->balance_receivers && sched_cpu_transferable(high) > 0) {
			int r = p->balance_receivers(mode, high, &lmask);
			if (r == 0)
				return resched;
			if (r > 0)
				anylow = 0;   /* some have fewer threads: none left means none accepted */
		}
		while (sched_cpu_transferable(high) > 0) {
			int low = sched_lowest(mode, cg, &lmask, -1, tdq_load_of(high) - 1, high, 1);
			if (low < 0) {
				if (anylow)
					return resched;
				break;
			}
			if (sched_balance_pair(mode, tdq_cpu(high), tdq_cpu(low), &resched)) {
				cpuset_clr_cpu(&hmask, low);
				if (p && p->balance_moved)
					p->balance_moved(high, low);
				break;
			}
			cpuset_clr_cpu(&lmask, low);
			anylow = 0;
		}
	}
}

/* See ule.h: the policy's pass, ULE's by default. */
int sched_balance_group(const struct search_mode *mode, const struct cpu_group *cg)
{
	const struct sched_policy *p = mode->pol;
	return p && p->balance_group ? p->balance_group(mode, cg) : ule_balance_group(mode, cg);
}

/* See ule.h. Re-arms CPU 0's balance timer with jitter and runs one pass
 * over the whole tree, then the policy's own work after a pass. */
int sched_balance(void)
{
	struct tdq *tdq = tdq_cpu(0);
	int interval = (int)balance_interval;
	int base = interval / 2 > 1 ? interval / 2 : 1;
	tdq->tdq_balance_ticks = base + (interval > 0 ? (int)(sched_random() % (uint32_t)interval) : 0);
	tdq->tdq_stats.balance_runs++;
	struct search_mode mode = search_mode_now();
	if (!sched_top)
		return 0;
	int resched = sched_balance_group(&mode, sched_top);
	if (mode.pol && mode.pol->balance_done)
		mode.pol->balance_done(&mode);
	return resched;
}
