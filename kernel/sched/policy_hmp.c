/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * policy_hmp.c — the hmp placement policy (kern.sched.policy=hmp,
 * docs/hmp.md) as its table of operations over ULE's core
 * (sched_policy.h): placement with HFI perf-0 CPUs left out, the
 * latency rules and the sync waker's CPU (hmp_pickcpu), the searches of
 * hmp_search.c (kern.sched.hmp.best) or hmp_report_search.c (the seed
 * report's (a)-(f)), the balancer weighing CPUs by capacity with per-pass
 * statistics, up-migration of lone threads to better idle cores, Thread
 * Director class swaps after each pass, and stealing refused on CPUs hmp
 * avoids. The rules themselves live in ule_hmp.c, hmp_search.c and
 * ule_itd_swap.c; here they meet ULE's steps. Lock-free reads, interrupts
 * off, as each operation says in sched_policy.h.
 */
#include <limits.h>
#include <sched/hmp.h>
#include <sched/sched_policy.h>

/* kern.sched.hmp.latency: an interactive timeshare thread (ULE's score)
 * or a realtime one, with the best-CPU searches. Such a thread skips the
 * local preference, and step 4 when its last CPU is not of the fastest
 * kind: the search, which counts the CPUs it would preempt as free and
 * keeps a bonus for its last CPU, decides (an idle slower last CPU or an
 * idle slower waking CPU kept a render loop on an E-core beside P-cores
 * running batch work). */
static int latency_sensitive(const struct search_mode *mode, const struct td_sched *ts)
{
	return mode->hmp && mode->best && mode->latency &&
	       (ts->ts_class == SCHED_CLASS_REALTIME ||
		(ts->ts_class == SCHED_CLASS_TIMESHARE && ts->ts_pri <= PRI_MAX_INTERACT));
}

/* kern.sched.hmp.audit: whether the search without steering (d), drawing
 * the same random numbers (the calling CPU's LCG rewound to rand_before),
 * would have chosen another CPU than cpu. Interrupts off. */
static int steering_changed(const struct search_mode *mode, const struct td_sched *ts,
			    const struct cpuset *mask, struct sched_stats *st, int cpu, uint32_t rand_before)
{
	struct tdq *self = tdq_cpu(sched_plat_cpu_self());
	uint32_t after = self->tdq_rand;
	uint64_t *unused;
	struct search_mode plain = *mode;
	plain.steer = 0;
	self->tdq_rand = rand_before;
	struct pick_opts o = { .warm = 1, .hog = hmp_hog(ts, sched_plat_time_ns()) };
	int other = sched_pick_search(&plain, ts, mask, &o, st, &unused);
	self->tdq_rand = after;
	return other != cpu;
}

/* The pickcpu operation: ULE's steps 4-7 with hmp's rules. CPUs with HFI
 * perf 0 are left out while the thread may run elsewhere (a thread
 * leaving one, SPC_LEAVE_AVOIDED, takes only scored ones), with
 * class_aware an interactive thread keeps to the fastest CPUs, then the
 * primary domain (kern.sched.primary); a sync wake-up's waker (SPC_SYNC)
 * counts as leaving its CPU, for step 4 and the search. */
static int hmp_pickcpu(const struct search_mode *m, struct td_sched *ts, struct cpuset *mask, int flags,
		       struct sched_stats *st)
{
	int self = sched_plat_cpu_self();
	if (flags & SPC_LEAVE_AVOIDED) {   /* leaving an overflow CPU: the scored ones */
		struct search_mode strict = *m;
		strict.perf0 = HMP_PERF0_STRICT;
		hmp_drop_avoided(&strict, mask);
	} else if (hmp_drop_avoided(m, mask)) {
		st->hmp_avoid_picks++;
	}
	if (hmp_class_mask(m, ts, mask))
		st->hmp_class_picks++;
	sched_pick_primary(mask, st);
	int latency = latency_sensitive(m, ts);
	const struct tdq *leaving = (flags & SPC_SYNC) && m->hmp && m->best ? tdq_cpu(self) : NULL;
	/* a sync wake-up from a faster CPU than the thread's last skips both
	 * cache-warm steps (4 and 5): what it works on next is the waker's,
	 * warm in the waker's cache, not in its own last one */
	int sync_up = leaving && hmp_capacity(self) > hmp_capacity(ts->ts_cpu);
	/* step 4 is skipped too by a latency-sensitive thread whose last CPU is
	 * not of the fastest kind */
	int skip = sync_up || (latency && hmp_capacity(ts->ts_cpu) < HMP_CAPACITY_MAX);
	int cpu = skip ? -1 : sched_pick_last_cpu(ts, mask, leaving);
	uint64_t *path = &st->pick_idle_affinity;
	if (cpu < 0) {
		uint32_t rand_before = tdq_cpu(self)->tdq_rand;
		struct pick_opts o = { .leaving = leaving, .warm = !sync_up, .warm_anywhere = m->hmp && m->best,
				       .latency = (uint8_t)latency,
				       .hog = !latency && hmp_hog(ts, sched_plat_time_ns()) };
		cpu = sched_pick_search(m, ts, mask, &o, st, &path);
		if (m->hmp && m->steer && hmp_audit && steering_changed(m, ts, mask, st, cpu, rand_before))
			st->hmp_steered++;
		if (cpu != self && !latency && sched_prefer_local(ts, mask, self, cpu)) {
			cpu = self;
			path = &st->pick_local;
		}
	}
	(*path)++;
	return cpu;
}

/* The search operations: the best-CPU searches with kern.sched.hmp.best,
 * else the report's (a)-(f). */
static int64_t hmp_search_lowest(const struct cpu_group *cg, const struct cpu_search *s,
				 struct cpu_search_res *r)
{
	return s->cs_mode.best ? hmp_best_search_lowest(cg, s, r) : hmp_report_search_lowest(cg, s, r);
}

static int64_t hmp_search_highest(const struct cpu_group *cg, const struct cpu_search *s,
				  struct cpu_search_res *r)
{
	return s->cs_mode.best ? hmp_best_search_highest(cg, s, r) : hmp_report_search_highest(cg, s, r);
}

/* The balance_more operation: weighted, as the searches weigh — a move
 * must lower the maximum. Both tdqs locked. */
static int hmp_balance_more(const struct search_mode *m, const struct tdq *high, const struct tdq *low)
{
	SCHED_COST(muls, 2);
	return search_thread_weight(m, high->tdq_id) * high->tdq_load >
	       search_thread_weight(m, low->tdq_id) * (low->tdq_load + 1);
}

/* The lone_thread operation: only when an idle core would serve t better,
 * so that a thread is not sent back and forth between CPUs the searches
 * weigh differently, and then straight to that core (hmp_ask_move: only a
 * hog is asked). high locked. */
static int hmp_lone_thread(const struct search_mode *m, struct td_sched *t, int high)
{
	struct search_mode mt = search_mode_running(m, high);
	int to = hmp_better_idle_for(&mt, t, high);
	return to >= 0 && hmp_ask_move(t, to);
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

/* The balance_receivers operation (with kern.sched.hmp.balance_stats):
 * keeps in *lmask only the CPUs sched_balance_pair() would let high give a
 * thread to (weight × (threads + 1) below high's weighted load), so that
 * the search for a receiver does not find, and drop, one refusal at a
 * time (a full search each: cubic in the CPUs per pass). Returns 0 when
 * no CPU of *lmask has fewer threads than high, the case where the first
 * search would have found none; -1 (untouched) with balance_stats off. */
static int hmp_balance_receivers(const struct search_mode *mode, int high, struct cpuset *lmask)
{
	if (!__atomic_load_n(&hmp_balance_stats, __ATOMIC_RELAXED))
		return -1;
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


/* The balance_group operation: kern.sched.hmp.best's pass, else ULE's
 * with this pass's statistics. */
static int hmp_balance_group(const struct search_mode *m, const struct cpu_group *cg)
{
	if (m->best)
		return balance_group_best(m, cg);
	bstats.pass++;
	return ule_balance_group(m, cg);
}

/* The balance_moved operation: a move makes both CPUs' statistics stale. */
static void hmp_balance_moved(int high, int low)
{
	bstats.version[high] = bstats.version[low] = bstats.pass - 1;
}

/* The balance_exclude operation: no receiver hmp avoids (HFI perf 0). */
static void hmp_balance_exclude(const struct search_mode *m, struct cpuset *lmask)
{
	hmp_drop_avoided(m, lmask);
}

/* The idle operation: up-migration's pull (kern.sched.hmp.upmigrate). */
static void hmp_idle(const struct search_mode *m, int self)
{
	(void)m;
	hmp_upmigrate_pull(self);
}

const struct sched_policy sched_policy_hmp = {
	.name = "hmp",
	.descr = "hybrid placement by capacity and HFI scores, every switch at its default (docs/hmp.md)",
	.hmp_switches = 1,
	.pickcpu = hmp_pickcpu,
	.search_lowest = hmp_search_lowest,
	.search_highest = hmp_search_highest,
	.thread_weight = search_thread_weight,
	.balance_group = hmp_balance_group,
	.balance_exclude = hmp_balance_exclude,
	.balance_receivers = hmp_balance_receivers,
	.balance_moved = hmp_balance_moved,
	.balance_done = hmp_itd_swap_pass,
	.balance_more = hmp_balance_more,
	.lone_thread = hmp_lone_thread,
	.may_steal = hmp_may_steal,
	.idle = hmp_idle,
};
