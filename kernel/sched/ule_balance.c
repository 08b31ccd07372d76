/*
 * ule_balance.c — the periodic long-term balancer (§8.1–§8.4): CPU 0
 * pairs the most loaded CPUs with the least loaded ones over the tree,
 * moving one queued thread per pair, or asks a lone running thread to
 * repick its CPU. Called with no tdq lock held, interrupts off.
 */
#include "ule.h"

/* First thread to take from tdq for cpu: realtime by priority, then the
 * calendar from its removal index (skipping the victim's next), then idle. */
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
 * to's lowpri before, or -1 if none could move. */
int tdq_move(struct tdq *from, struct tdq *to)
{
	struct td_sched *ts = tdq_steal(from, to->tdq_id);
	if (!ts)
		return -1;
	tdq_rem_queued(from, ts);
	return tdq_add(to, ts, 0);
}

/* Moves a thread from high to low if high has a transferable one and more
 * load (§8.3); notifies low. Returns 1 if a thread moved. */
int sched_balance_pair(struct tdq *high, struct tdq *low)
{
	int moved = 0, self = sched_plat_cpu_self();
	tdq_lock_pair(high->tdq_id, low->tdq_id);
	if (high->tdq_transferable && high->tdq_load > low->tdq_load) {
		int lowpri = tdq_move(high, low);
		if (lowpri >= 0) {
			moved = 1;
			tdq_cpu(self)->tdq_stats.balance_moves++;
			if (low->tdq_id != self)
				tdq_notify(low, lowpri);
		}
	}
	if (sched_debug) {
		tdq_check(high);
		tdq_check(low);
	}
	tdq_unlock_pair(high->tdq_id, low->tdq_id);
	return moved;
}

/* A donor with only its running thread: mark that thread to repick its
 * CPU at its next switch (§8.2). */
static void balance_lone_thread(int high)
{
	int self = sched_plat_cpu_self();
	struct tdq *tdq = tdq_cpu(high);
	sched_plat_tdq_lock(high);
	struct td_sched *t = tdq->tdq_curthread;
	if (t && ts_can_migrate(t)) {
		t->ts_flags |= TSF_PICKCPU;
		tdq_cpu(self)->tdq_stats.balance_pickcpu++;
		if (high != self) {
			tdq_cpu(self)->tdq_stats.ipis++;
			sched_plat_ipi(high, SCHED_PLAT_IPI_AST);
		}
	}
	sched_plat_tdq_unlock(high);
}

/* One balancing pass over cg (§8.2). */
void sched_balance_group(const struct cpu_group *cg)
{
	struct cpuset hmask = sched_online, lmask;
	for (;;) {
		int high = sched_highest(cg, &hmask, 1, 0);
		if (high < 0)
			return;
		cpuset_clr_cpu(&hmask, high);
		lmask = hmask;
		if (cpuset_empty(&lmask))
			return;
		if (tdq_load_of(high) == 1) {
			balance_lone_thread(high);
			return;
		}
		int anylow = 1;
		while (sched_cpu_transferable(high) > 0) {
			int low = sched_lowest(cg, &lmask, -1, tdq_load_of(high) - 1, high, 1);
			if (low < 0) {
				if (anylow)
					return;
				break;
			}
			if (sched_balance_pair(tdq_cpu(high), tdq_cpu(low))) {
				cpuset_clr_cpu(&hmask, low);
				break;
			}
			cpuset_clr_cpu(&lmask, low);
			anylow = 0;
		}
	}
}

/* Re-arms CPU 0's balance timer with jitter and runs one pass (§8.1). */
void sched_balance(void)
{
	struct tdq *tdq = tdq_cpu(0);
	int interval = (int)balance_interval;
	int base = interval / 2 > 1 ? interval / 2 : 1;
	tdq->tdq_balance_ticks = base + (interval > 0 ? (int)(sched_random() % (uint32_t)interval) : 0);
	tdq->tdq_stats.balance_runs++;
	if (sched_top)
		sched_balance_group(sched_top);
}
