/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_pickcpu.c — sched_pickcpu (FreeBSD's function of the same name):
 * where a thread that becomes runnable should be queued. Order: cache-warm idle last CPU → idle CPU in the
 * outermost cache group still warm → a CPU where it would be the best
 * priority → the least loaded CPU; then maybe the local CPU instead. Reads
 * loads lock-free; needs interrupts off. Each step is its own function so
 * that placement policies can be added beside them.
 */
#include <limits.h>
#include <sched/ule.h>
#include <sched/hmp.h>

/* ts left its CPU less than t * affinity ticks ago (unsigned: wraps).
 * FreeBSD: SCHED_AFFINITY(). */
int sched_affinity_warm(const struct td_sched *ts, int t)
{
	return sched_plat_ticks() - ts->ts_rltick < (uint64_t)(t * sched_affinity_ticks);
}

static int cpu_is_idle(int cpu)
{
	return sched_cpu_lowpri(cpu) >= PRI_MIN_IDLE;
}

/* cpu runs nothing, or only a sync waker about to sleep (leaving: the
 * calling CPU, which is not looked at). Lock-free. */
static int idle_or_leaving(int cpu, const struct tdq *leaving)
{
	if (tdq_cpu(cpu) == leaving)
		return 1;
	SCHED_COST(cpus, 1);
	return cpu_is_idle(cpu);
}

/* Step 4: the last CPU if it is idle, cache-warm, and (for an SMT leaf)
 * its siblings are idle too — the calling CPU counts as idle when its
 * thread is a sync waker about to sleep (leaving, under hmp). */
static int pick_last_cpu(const struct td_sched *ts, const struct cpuset *mask, const struct tdq *leaving)
{
	int cpu = ts->ts_cpu;
	if (!cpuset_isset(mask, (unsigned)cpu) || !idle_or_leaving(cpu, leaving) ||
	    !sched_affinity_warm(ts, CG_SHARE_L2))
		return -1;
	const struct cpu_group *cg = tdq_cpu(cpu)->tdq_cg;
	if (cg && (cg->cg_flags & CG_FLAG_THREAD))
		for (int c = cg->cg_first; c <= cg->cg_last; c++) {
			if (c != cpu && cpuset_isset(&cg->cg_mask, (unsigned)c) && !idle_or_leaving(c, leaving))
				return -1;
		}
	return cpu;
}

/* Step 5: outermost cache group above the leaf that still holds the
 * thread's cache (not SMT, >1 child and CPU, shares a cache, affinity not
 * expired); NULL if none or if it is the root. */
static const struct cpu_group *pick_llc_group(const struct td_sched *ts, const struct cpu_group *cg)
{
	const struct cpu_group *ccg = NULL;
	for (; cg; cg = cg->cg_parent) {
		if ((cg->cg_flags & CG_FLAG_THREAD) || cg->cg_children == 1 || cg->cg_count == 1 ||
		    cg->cg_level == CG_SHARE_NONE || !sched_affinity_warm(ts, cg->cg_level))
			continue;
		ccg = cg;
	}
	return ccg == sched_top ? NULL : ccg;
}

/* Step 7: the local CPU beats the choice if we would be its best thread,
 * the choice is busy, and local is at most one thread more loaded. */
static int prefer_local(const struct td_sched *ts, const struct cpuset *mask, int self, int cpu)
{
	return cpuset_isset(mask, (unsigned)self) && sched_cpu_lowpri(self) > ts->ts_pri &&
	       !cpu_is_idle(cpu) && tdq_load_of(self) <= tdq_load_of(cpu) + 1;
}

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

/* Steps 5 and 6: the least loaded CPU of the cache group the thread is
 * warm in that is idle (unless warm is 0), else one where it would be the
 * best priority, else the least loaded anywhere; *path gets the counter of
 * the step that found it. With kern.sched.hmp.latency a latency-sensitive thread counts
 * every CPU where it would be the best priority as free, so the fastest
 * of them wins over an idle slower one; every step counts leaving (a sync
 * waker's CPU, or NULL) without its thread. Never -1 for a non-empty mask. */
static int pick_search(const struct search_mode *mode, const struct td_sched *ts,
		       const struct cpuset *mask, const struct tdq *leaving, int warm,
		       struct sched_stats *st, uint64_t **path)
{
	int running = ts->ts_state == SCHED_TS_RUNNING, pri = ts->ts_pri, cpu = -1;
	int latency = latency_sensitive(mode, ts);
	const struct cpu_group *ccg = warm ? pick_llc_group(ts, tdq_cpu(ts->ts_cpu)->tdq_cg) : NULL;
	struct cpu_search s = { .cs_mode = *mode, .cs_mask = mask, .cs_prefer = ts->ts_cpu,
				.cs_running = running, .cs_load = INT_MAX,
				.cs_free_pri = latency ? (pri > PRI_MAX_INTERACT ? pri : PRI_MAX_INTERACT) : -1,
				.cs_hog = !latency && hmp_hog(ts, sched_plat_time_ns()),
				.cs_leaving = leaving };
	if (ccg) {   /* idle (latency: at once) in the warm cache group */
		s.cs_pri = latency || pri > PRI_MAX_TIMESHARE ? pri : PRI_MAX_TIMESHARE;
		cpu = sched_lowest_search(ccg, &s);
		*path = &st->pick_llc_idle;
	}
	if (cpu < 0) {
		s.cs_pri = pri;
		cpu = sched_lowest_search(sched_top, &s);
		*path = &st->pick_preempt;
	}
	if (cpu < 0) {
		struct cpu_search any = { .cs_mode = *mode, .cs_mask = mask, .cs_prefer = ts->ts_cpu,
					  .cs_running = running, .cs_pri = -1, .cs_load = INT_MAX,
					  .cs_free_pri = -1, .cs_hog = 1, .cs_leaving = leaving };
		cpu = sched_lowest_search(sched_top, &any);
		*path = &st->pick_lowest;
	}
	if (cpu < 0)
		sched_plat_panic("sched_pickcpu: no CPU found");
	return cpu;
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
	int other = pick_search(&plain, ts, mask, NULL, 1, st, &unused);
	self->tdq_rand = after;
	return other != cpu;
}

/* 1 if a CPU of mask runs nothing but its idle thread (lock-free). */
static int any_idle(const struct cpuset *mask)
{
	for (int c = cpuset_first(mask); c >= 0; c = cpuset_next(mask, c)) {
		SCHED_COST(cpus, 1);
		if (cpu_is_idle(c))
			return 1;
	}
	return 0;
}

/* kern.sched.primary: narrows *mask to the primary domain while one of
 * its CPUs is idle (counted in primary_picks), else leaves it for the
 * overflow (primary_overflows); a thread that may use no primary CPU
 * while one is idle counts as a miss. */
static void pick_primary(struct cpuset *mask, struct sched_stats *st)
{
	struct cpuset primary, all;
	if (!sched_primary_mask(mask, &primary))
		return;
	if (any_idle(&primary)) {
		*mask = primary;
		st->primary_picks++;
	} else if (cpuset_empty(&primary) && sched_primary_mask(&sched_online, &all) && any_idle(&all)) {
		st->primary_misses++;
	} else {
		st->primary_overflows++;
	}
}

/* Counts the core type of the chosen CPU. */
static void count_type(struct sched_stats *st, int cpu)
{
	switch (sched_cpu_core_type(cpu)) {
	case CPU_CORE_P:
		st->pick_p++;
		break;
	case CPU_CORE_E:
		st->pick_e++;
		break;
	case CPU_CORE_LPE:
		st->pick_lpe++;
		break;
	default:
		st->pick_untyped++;
	}
}

/* The CPU to queue ts on; counts the path taken and the chosen core type
 * in the calling CPU's schedstats; flags SPC_* (ule.h). The steps are
 * numbered as in FreeBSD's sched_pickcpu() (step 3, interrupt threads,
 * does not apply: Mosaic has no interrupt threads). Under kern.sched.policy hmp, CPUs with HFI perf 0 are left
 * out while the thread may run elsewhere (and with class_aware an
 * interactive thread keeps to the fastest CPUs); with a primary domain
 * (kern.sched.primary) the search stays in it while one of its CPUs is
 * idle; a sync wake-up's waker (SPC_SYNC) leaves its CPU, for hmp's
 * step 4 and search. */
int sched_pickcpu(struct td_sched *ts, int flags)
{
	int self = sched_plat_cpu_self();
	struct sched_stats *st = &tdq_cpu(self)->tdq_stats;
	if (!__atomic_load_n(&sched_smp_started, __ATOMIC_ACQUIRE)) {
		st->pick_fixed++;
		return self;
	}
	if (ts->ts_flags & TSF_BOUND) {
		st->pick_fixed++;
		return ts->ts_bound_cpu;
	}
	if ((flags & SPC_OURSELF) || !ts_can_migrate(ts)) {
		st->pick_fixed++;
		return ts->ts_cpu;
	}
	struct cpuset mask = ts->ts_mask;
	for (int i = 0; i < CPUSET_WORDS; i++)
		mask.bits[i] &= sched_online.bits[i];
	if (cpuset_first(&mask) < 0) {   /* nothing allowed is online: stay */
		st->pick_fixed++;
		return ts->ts_cpu;
	}
	struct search_mode mode = search_mode_for(ts);   /* its class's scores with itd */
	if (flags & SPC_LEAVE_AVOIDED) {   /* leaving an overflow CPU: the scored ones */
		struct search_mode strict = mode;
		strict.perf0 = HMP_PERF0_STRICT;
		hmp_drop_avoided(&strict, &mask);
	} else if (hmp_drop_avoided(&mode, &mask)) {
		st->hmp_avoid_picks++;
	}
	if (hmp_class_mask(&mode, ts, &mask))
		st->hmp_class_picks++;
	pick_primary(&mask, st);
	int latency = latency_sensitive(&mode, ts);
	const struct tdq *leaving = (flags & SPC_SYNC) && mode.hmp && mode.best ? tdq_cpu(self) : NULL;
	/* a sync wake-up from a faster CPU than the thread's last skips both
	 * cache-warm steps (4 and 5): what it works on next is the waker's,
	 * warm in the waker's cache, not in its own last one */
	int sync_up = leaving && hmp_capacity(self) > hmp_capacity(ts->ts_cpu);
	/* step 4 is skipped too by a latency-sensitive thread whose last CPU is
	 * not of the fastest kind */
	int skip = sync_up || (latency && hmp_capacity(ts->ts_cpu) < HMP_CAPACITY_MAX);
	int cpu = skip ? -1 : pick_last_cpu(ts, &mask, leaving);
	uint64_t *path = &st->pick_idle_affinity;
	if (cpu < 0) {
		uint32_t rand_before = tdq_cpu(self)->tdq_rand;
		cpu = pick_search(&mode, ts, &mask, leaving, !sync_up, st, &path);
		if (mode.hmp && mode.steer && hmp_audit &&
		    steering_changed(&mode, ts, &mask, st, cpu, rand_before))
			st->hmp_steered++;
		if (cpu != self && !latency && prefer_local(ts, &mask, self, cpu)) {
			cpu = self;
			path = &st->pick_local;
		}
	}
	(*path)++;
	count_type(st, cpu);
	return cpu;
}
