/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_pickcpu.c — sched_pickcpu (FreeBSD's function of the same name):
 * where a thread that becomes runnable should be queued. Order: cache-warm idle last CPU → idle CPU in the
 * outermost cache group still warm → a CPU where it would be the best
 * priority → the least loaded CPU; then maybe the local CPU instead. Reads
 * loads lock-free; needs interrupts off. These are stock ULE's steps
 * (ule_pickcpu_steps); a placement policy (sched_policy.h) may replace
 * them and reuse each step, which is its own function.
 */
#include <limits.h>
#include <sched/ule.h>
#include <sched/sched_policy.h>

/* ts left its CPU less than t * affinity ticks ago (unsigned: wraps).
 * FreeBSD: SCHED_AFFINITY(). */
int sched_affinity_warm(const struct td_sched *ts, int t)
{
	return sched_plat_ticks() - ts->ts_rltick < (uint64_t)(t * sched_affinity_ticks);
}

/* See sched_policy.h. */
int sched_cpu_idle(int cpu)
{
	return sched_cpu_lowpri(cpu) >= PRI_MIN_IDLE;
}

/* See sched_policy.h. */
int sched_core_idle(int cpu)
{
	const struct cpu_group *cg = tdq_cpu(cpu)->tdq_cg;
	if (!sched_cpu_idle(cpu))
		return 0;
	if (cg && (cg->cg_flags & CG_FLAG_THREAD))
		for (int c = cg->cg_first; c <= cg->cg_last; c++) {
			SCHED_COST(cpus, c != cpu);
			if (c != cpu && cpuset_isset(&cg->cg_mask, (unsigned)c) && !sched_cpu_idle(c))
				return 0;
		}
	return 1;
}

/* cpu runs nothing, or only a sync waker about to sleep (leaving: the
 * calling CPU, which is not looked at). Lock-free. */
static int idle_or_leaving(int cpu, const struct tdq *leaving)
{
	if (tdq_cpu(cpu) == leaving)
		return 1;
	SCHED_COST(cpus, 1);
	return sched_cpu_idle(cpu);
}

/* See sched_policy.h. Step 4: the last CPU if it is idle, cache-warm, and
 * (for an SMT leaf) its siblings are idle too — the calling CPU counts as
 * idle when its thread is a sync waker about to sleep (leaving). */
int sched_pick_last_cpu(const struct td_sched *ts, const struct cpuset *mask, const struct tdq *leaving)
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

/* See sched_policy.h. Step 7: the local CPU beats the choice if we would
 * be its best thread, the choice is busy, and local is at most one thread
 * more loaded. */
int sched_prefer_local(const struct td_sched *ts, const struct cpuset *mask, int self, int cpu)
{
	return cpuset_isset(mask, (unsigned)self) && sched_cpu_lowpri(self) > ts->ts_pri &&
	       !sched_cpu_idle(cpu) && tdq_load_of(self) <= tdq_load_of(cpu) + 1;
}

/* See sched_policy.h. Steps 5 and 6: the least loaded CPU of the cache
 * group the thread is warm in that is idle (unless o->warm is 0; with
 * o->warm_anywhere the best idle CPU anywhere, the warm group's worth a
 * sixteenth more), else one where it would be the best priority, else the
 * least loaded anywhere;
 * *path gets the counter of the step that found it. A latency-sensitive
 * thread (o->latency) counts every CPU where it would be the best priority
 * as free (cs_free_pri, for searches that read it); every step counts
 * o->leaving without its thread. Never -1 for a non-empty mask. */
int sched_pick_search(const struct search_mode *mode, const struct td_sched *ts, const struct cpuset *mask,
		      const struct pick_opts *o, struct sched_stats *st, uint64_t **path)
{
	int running = ts->ts_state == SCHED_TS_RUNNING, pri = ts->ts_pri, cpu = -1;
	const struct cpu_group *ccg = o->warm ? pick_llc_group(ts, tdq_cpu(ts->ts_cpu)->tdq_cg) : NULL;
	struct cpu_search s = { .cs_mode = *mode, .cs_mask = mask, .cs_prefer = ts->ts_cpu,
				.cs_running = running, .cs_load = INT_MAX,
				.cs_free_pri = o->latency ? (pri > PRI_MAX_INTERACT ? pri : PRI_MAX_INTERACT) : -1,
				.cs_hog = o->hog, .cs_place = !running, .cs_leaving = o->leaving };
	if (ccg) {   /* idle (latency: at once) in the warm cache group */
		s.cs_pri = o->latency || pri > PRI_MAX_TIMESHARE ? pri : PRI_MAX_TIMESHARE;
		/* a search that values every CPU (hmp's best searches): the
		 * warm group's by a sixteenth more, so an idle CPU outside it
		 * that is worth more still wins (an LP-E core outside the L3
		 * against a busy P core's idle sibling) */
		if (o->warm_anywhere)
			s.cs_warm = ccg;
		cpu = sched_lowest_search(s.cs_warm ? sched_top : ccg, &s);
		*path = &st->pick_llc_idle;   /* an idle CPU step 5's search found */
		s.cs_warm = NULL;
	}
	if (cpu < 0) {
		s.cs_pri = pri;
		cpu = sched_lowest_search(sched_top, &s);
		*path = &st->pick_preempt;
	}
	if (cpu < 0) {
		struct cpu_search any = { .cs_mode = *mode, .cs_mask = mask, .cs_prefer = ts->ts_cpu,
					  .cs_running = running, .cs_pri = -1, .cs_load = INT_MAX,
					  .cs_free_pri = -1, .cs_hog = 1, .cs_place = !running,
					  .cs_leaving = o->leaving };
		cpu = sched_lowest_search(sched_top, &any);
		*path = &st->pick_lowest;
	}
	if (cpu < 0)
		sched_plat_panic("sched_pickcpu: no CPU found");
	return cpu;
}

/* 1 if a CPU of mask runs nothing but its idle thread (lock-free). */
static int any_idle(const struct cpuset *mask)
{
	for (int c = cpuset_first(mask); c >= 0; c = cpuset_next(mask, c)) {
		SCHED_COST(cpus, 1);
		if (sched_cpu_idle(c))
			return 1;
	}
	return 0;
}

/* See sched_policy.h. kern.sched.primary: narrows *mask to the primary
 * domain while one of its CPUs is idle (counted in primary_picks), else
 * leaves it for the overflow (primary_overflows); a thread that may use no
 * primary CPU while one is idle counts as a miss. */
void sched_pick_primary(struct cpuset *mask, struct sched_stats *st)
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

/* See sched_policy.h. */
void sched_count_type(struct sched_stats *st, int cpu)
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

/* See sched_policy.h. */
int sched_pick_idle_ranked(const struct td_sched *ts, const struct cpuset *mask, int whole_core,
			   int64_t (*rank)(int cpu))
{
	int best = -1;
	int64_t best_rank = INT64_MIN;
	for (int c = cpuset_first(mask); c >= 0; c = cpuset_next(mask, c)) {
		SCHED_COST(cpus, 1);
		if (whole_core ? !sched_core_idle(c) : !sched_cpu_idle(c))
			continue;
		int64_t r = rank(c);
		if (r > best_rank || (r == best_rank && c == ts->ts_cpu)) {
			best = c;
			best_rank = r;
		}
	}
	return best;
}

/* See sched_policy.h: stock ULE's steps, after the primary domain (kern.sched.primary). */
int ule_pickcpu_steps(const struct search_mode *m, struct td_sched *ts, struct cpuset *mask, int flags,
		      struct sched_stats *st)
{
	(void)flags;
	sched_pick_primary(mask, st);
	int cpu = sched_pick_last_cpu(ts, mask, NULL);
	uint64_t *path = &st->pick_idle_affinity;
	if (cpu < 0) {
		int self = sched_plat_cpu_self();
		struct pick_opts o = { .warm = 1 };
		cpu = sched_pick_search(m, ts, mask, &o, st, &path);
		if (cpu != self && sched_prefer_local(ts, mask, self, cpu)) {
			cpu = self;
			path = &st->pick_local;
		}
	}
	(*path)++;
	return cpu;
}

/* The CPU to queue ts on; counts the path taken and the chosen core type
 * in the calling CPU's schedstats; flags SPC_* (ule.h). The steps are
 * numbered as in FreeBSD's sched_pickcpu() (step 3, interrupt threads,
 * does not apply: Mosaic has no interrupt threads); a thread that is
 * bound, pinned or requeued where it runs stays, and the placement
 * policy (sched_policy.h; ULE's steps by default) places the others among
 * the online CPUs they may use. */
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
	const struct sched_policy *p = mode.pol;
	int cpu = p && p->pickcpu ? p->pickcpu(&mode, ts, &mask, flags, st)
				  : ule_pickcpu_steps(&mode, ts, &mask, flags, st);
	sched_count_type(st, cpu);
	return cpu;
}
