/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_balance.c — the periodic long-term balancer (FreeBSD's
 * sched_balance, sched_balance_group, sched_balance_pair, tdq_move): CPU 0
 * pairs the most loaded CPUs with the least loaded ones over the tree,
 * moving one queued thread per pair, or asks a lone running thread to
 * repick its CPU. Called with no tdq lock held, interrupts off.
 */
#include <sched/ule.h>

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
int tdq_move(struct tdq *from, struct tdq *to)
{
	struct td_sched *ts = tdq_steal(from, to->tdq_id);
	if (!ts)
		return -1;
	tdq_rem_queued(from, ts);
	return tdq_add(to, ts, 0);
}

/* See ule.h. */
int sched_balance_pair(const struct search_mode *mode, struct tdq *high, struct tdq *low,
		       int *resched)
{
	int moved = 0, self = sched_plat_cpu_self();
	tdq_lock_pair(high->tdq_id, low->tdq_id);
	int more = high->tdq_load > low->tdq_load;
	SCHED_COST(muls, mode->hmp ? 2 : 0);
	if (mode->hmp)   /* weighted, as the searches weigh: a move must lower the maximum */
		more = search_thread_weight(mode, high->tdq_id) * high->tdq_load >
		       search_thread_weight(mode, low->tdq_id) * (low->tdq_load + 1);
	if (high->tdq_transferable && more) {
		int lowpri = tdq_move(high, low);
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

/* A donor with only its running thread: mark that thread to repick its
 * CPU at its next switch (another CPU gets an IPI; on the calling CPU
 * sched_clock sees the mark). Under hmp only when an idle core would serve
 * it better, so that a thread is not sent back and forth between CPUs
 * the searches weigh differently, and then straight to that core
 * (hmp_ask_move: only a hog is asked). FreeBSD: the
 * TDF_PICKCPU branch of sched_balance_group(). */
static void balance_lone_thread(const struct search_mode *mode, int high)
{
	int self = sched_plat_cpu_self();
	struct tdq *tdq = tdq_cpu(high);
	sched_plat_tdq_lock(high);
	struct td_sched *t = tdq->tdq_curthread;
	int asked = 0;
	if (t && ts_can_migrate(t) && !mode->hmp) {
		t->ts_flags |= TSF_PICKCPU;
		asked = 1;
	} else if (t) {
		struct search_mode mt = search_mode_running(mode, high);
		int to = hmp_better_idle_for(&mt, t, high);
		asked = to >= 0 && hmp_ask_move(t, to);
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

/* The statistics of one balancer pass under hmp: each CPU's weight and
 * weighted load, computed once per pass and reused for every donor; a move
 * makes the entries of its two CPUs stale, so they are computed again when
 * next needed. The idea of Linux's "sched/fair: Stats versioning and
 * invalidation" (RFC, 2025): a balancing pass's statistics carry a
 * version and are reused while it holds. Loads change on other CPUs
 * meanwhile, so an entry can be as stale as the pass is long (the lock-free
 * reads of the searches are stale too); sched_balance_pair() decides under
 * both locks. Only the balancer (CPU 0, one pass at a time) uses them. */
static struct {
	uint64_t pass;                        /* version of the current pass */
	uint64_t version[TOPO_MAXCPU];        /* pass an entry was computed in */
	int64_t weight[TOPO_MAXCPU], wload[TOPO_MAXCPU];
} bstats;

/* cpu's weighted load (weight × threads) in this pass, its weight in *w. */
static int64_t bstats_wload(const struct search_mode *mode, int cpu, int64_t *w)
{
	if (bstats.version[cpu] != bstats.pass) {
		bstats.weight[cpu] = search_thread_weight(mode, cpu);
		bstats.wload[cpu] = bstats.weight[cpu] * tdq_load_of(cpu);
		bstats.version[cpu] = bstats.pass;
		SCHED_COST(stat_recomputes, 1);
		SCHED_COST(muls, 1);
	} else {
		SCHED_COST(stat_hits, 1);
	}
	*w = bstats.weight[cpu];
	return bstats.wload[cpu];
}

/* hmp: keeps in *lmask only the CPUs sched_balance_pair() would let high
 * give a thread to (weight × (threads + 1) below high's weighted load), so
 * that the search for a receiver does not find, and drop, one refusal at
 * a time (a full search each: cubic in the CPUs per pass). Returns 0 when
 * no CPU of *lmask has fewer threads than high, the case where the first
 * search would have found none. */
static int balance_receivers(const struct search_mode *mode, int high, struct cpuset *lmask)
{
	int hl = tdq_load_of(high), fewer = 0;
	int64_t w, hwl = bstats_wload(mode, high, &w);
	struct cpuset keep;
	cpuset_zero(&keep);
	for (int c = cpuset_first(lmask); c >= 0; c = cpuset_next(lmask, c)) {
		SCHED_COST(cpus, 1);
		if (tdq_load_of(c) > hl - 1)
			continue;
		fewer = 1;
		if (hwl > bstats_wload(mode, c, &w) + w)
			cpuset_set(&keep, (unsigned)c);
	}
	*lmask = keep;
	return fewer;
}

/* kern.sched.hmp.best's pass: donors are only CPUs with a thread to give,
 * heaviest weighted load first (hmp_search.c), and a receiver must end
 * below the donor's weighted load ((threads + 1) × weight < the donor's
 * threads × weight), which the search checks itself. So when the heaviest
 * donor finds no receiver, no lighter one can: the pass ends there. A
 * running thread alone on its CPU is not the balancer's: up-migration asks
 * it over to a better idle core (hmp_upmigrate_pull). */
static int balance_group_best(const struct search_mode *mode, const struct cpu_group *cg)
{
	struct cpuset hmask = sched_online, lmask;
	int resched = 0;
	for (;;) {
		int high = sched_highest(mode, cg, &hmask, 2, 1);
		if (high < 0)
			return resched;
		cpuset_clr_cpu(&hmask, high);
		lmask = hmask;
		hmp_drop_avoided(mode, &lmask);
		SCHED_COST(muls, 1);
		struct cpu_search s = { .cs_mode = *mode, .cs_mask = &lmask, .cs_prefer = high,
					.cs_running = 1, .cs_pri = -1, .cs_load = INT32_MAX,
					.cs_wmax = search_thread_weight(mode, high) * tdq_load_of(high),
					.cs_free_pri = -1, .cs_hog = 1 };
		for (;;) {
			int low = sched_lowest_search(cg, &s);
			if (low < 0)
				return resched;
			if (sched_balance_pair(mode, tdq_cpu(high), tdq_cpu(low), &resched)) {
				cpuset_clr_cpu(&hmask, low);
				break;
			}
			cpuset_clr_cpu(&lmask, low);
		}
	}
}

/* See ule.h. One pass over cg: the most loaded CPU gives a thread to the
 * least loaded one on its least loaded path, pair after pair. Under hmp
 * (with kern.sched.hmp.balance_stats) the receivers are first narrowed to
 * those the weighted comparison accepts (balance_receivers); with
 * kern.sched.hmp.best the pass is balance_group_best(). */
int sched_balance_group(const struct search_mode *mode, const struct cpu_group *cg)
{
	if (mode->hmp && mode->best)
		return balance_group_best(mode, cg);
	struct cpuset hmask = sched_online, lmask;
	int resched = 0;
	bstats.pass++;
	for (;;) {
		int high = sched_highest(mode, cg, &hmask, 1, 0);
		if (high < 0)
			return resched;
		cpuset_clr_cpu(&hmask, high);
		lmask = hmask;
		hmp_drop_avoided(mode, &lmask);   /* no receiver with HFI perf 0 */
		if (cpuset_empty(&lmask))
			return resched;
		if (tdq_load_of(high) == 1) {
			balance_lone_thread(mode, high);
			return resched;
		}
		int anylow = 1;
		if (mode->hmp && __atomic_load_n(&hmp_balance_stats, __ATOMIC_RELAXED) &&
		    sched_cpu_transferable(high) > 0) {
			if (!balance_receivers(mode, high, &lmask))
				return resched;
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
				bstats.version[high] = bstats.version[low] = bstats.pass - 1;   /* moved: stale */
				break;
			}
			cpuset_clr_cpu(&lmask, low);
			anylow = 0;
		}
	}
}

/* See ule.h. Re-arms CPU 0's balance timer with jitter and runs one pass
 * over the whole tree. */
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
	hmp_itd_swap_pass(&mode);
	return resched;
}
