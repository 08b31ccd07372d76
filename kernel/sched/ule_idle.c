/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_idle.c — stealing work for a CPU that has none: the idle loop's
 * steal with sibling-first escalation up the tree (FreeBSD's tdq_idled),
 * the bounded steal before idling from sched_switch (tdq_trysteal), and
 * one round of the idle loop (sched_idletd).
 */
#include <sched/ule.h>
#include <sched/sched_policy.h>

/* Next group to search after cg found nothing: the sibling alone when
 * the parent has exactly two children (then skip a level), else the
 * parent. *goup tracks the skip. NULL at the root. (The group walk of
 * FreeBSD's tdq_idled() and tdq_trysteal().) */
static const struct cpu_group *steal_escalate(const struct cpu_group *cg, int *goup)
{
	if (*goup) {
		cg = cg->cg_parent;
		*goup = 0;
	}
	const struct cpu_group *parent = cg->cg_parent;
	if (!parent)
		return NULL;
	if (parent->cg_children == 2) {
		*goup = 1;
		return cg == &parent->cg_child[0] ? &parent->cg_child[1] : &parent->cg_child[0];
	}
	return parent;
}

/* Online CPUs other than self. */
static struct cpuset others(int self)
{
	struct cpuset mask = sched_online;
	cpuset_clr_cpu(&mask, self);
	return mask;
}

static int victim_ok(int cpu)
{
	return tdq_load_of(cpu) >= steal_thresh && sched_cpu_transferable(cpu) > 0;
}

/* Whether idle self may steal under the policy of mode (ULE: always). */
static int may_steal(const struct search_mode *mode, int self)
{
	const struct sched_policy *p = mode->pol;
	return !p || !p->may_steal || p->may_steal(mode, self);
}

/* See ule.h. FreeBSD: tdq_idled(). tdq is the calling CPU's, unlocked.
 * Searches its own leaf first, then widens group by group, re-checking
 * under both locks before it moves a thread. Returns 0 when it has work
 * (stolen or arrived), 1 when there was nothing to take. */
int tdq_idled(struct tdq *tdq)
{
	int self = tdq->tdq_id;
	if (!__atomic_load_n(&sched_smp_started, __ATOMIC_ACQUIRE) || !steal_idle || !tdq->tdq_cg)
		return 1;
	struct search_mode mode = search_mode_now();
	if (!may_steal(&mode, self))
		return 1;   /* e.g. hmp on HFI perf 0: no work pulled here (but overflow) */
	struct cpuset mask = others(self);
restart:;
	int switchcnt = tdq_switchcount(tdq), goup = 0;
	const struct cpu_group *cg = tdq->tdq_cg;
	for (;;) {
		int cpu = sched_highest(&mode, cg, &mask, (int)steal_thresh, 1);
		if (tdq_load_of(self) > 0)
			return 0;
		if (cpu < 0) {
			cg = steal_escalate(cg, &goup);
			if (!cg)
				return 1;
			continue;
		}
		if (!victim_ok(cpu))
			goto restart;
		sched_plat_tdq_lock(self);
		if (tdq->tdq_load > 0) {
			sched_plat_tdq_unlock(self);
			return 0;
		}
		if (!sched_plat_tdq_trylock(cpu)) {
			sched_plat_tdq_unlock(self);
			cpuset_clr_cpu(&mask, cpu);
			continue;
		}
		if (!victim_ok(cpu) || switchcnt != tdq_switchcount(tdq)) {
			tdq_unlock_pair(self, cpu);
			goto restart;
		}
		if (tdq_move(tdq_cpu(cpu), tdq, SCHED_TRACE_WHY_STEAL) >= 0) {
			tdq->tdq_stats.idle_steals++;
			if (sched_debug) {
				tdq_check(tdq);
				tdq_check(tdq_cpu(cpu));
			}
			tdq_unlock_pair(self, cpu);
			return 0;
		}
		cpuset_clr_cpu(&mask, cpu);
		tdq_unlock_pair(self, cpu);
	}
}

/* See ule.h. FreeBSD: tdq_trysteal(). tdq (the calling CPU's, locked,
 * load 0) tries up to trysteal_limit levels; any staleness or contention
 * ends the attempt. */
void tdq_trysteal(struct tdq *tdq)
{
	int self = tdq->tdq_id, goup = 0;
	if (!__atomic_load_n(&sched_smp_started, __ATOMIC_ACQUIRE) || !steal_idle ||
	    !trysteal_limit || !tdq->tdq_cg)
		return;
	struct search_mode mode = search_mode_now();
	if (!may_steal(&mode, self))
		return;
	struct cpuset mask = others(self);
	const struct cpu_group *cg = tdq->tdq_cg;
	for (int level = 1;; level++) {
		int cpu = sched_highest(&mode, cg, &mask, (int)steal_thresh, 1);
		if (cpu < 0) {
			if (level >= trysteal_limit)
				return;
			cg = steal_escalate(cg, &goup);
			if (!cg)
				return;
			continue;
		}
		if (!victim_ok(cpu) || !sched_plat_tdq_trylock(cpu))
			return;
		if (victim_ok(cpu) && tdq_move(tdq_cpu(cpu), tdq, SCHED_TRACE_WHY_STEAL) >= 0)
			tdq->tdq_stats.try_steals++;
		if (sched_debug)
			tdq_check(tdq_cpu(cpu));
		sched_plat_tdq_unlock(cpu);
		return;
	}
}

/* See sched.h. FreeBSD: one round of sched_idletd(). */
int sched_idle(int cpu)
{
	struct tdq *tdq = tdq_cpu(cpu);
	if (tdq_load_of(cpu) > 0)
		return 1;
	int switchcnt = tdq_switchcount(tdq);
	if (always_steal || switchcnt != tdq->tdq_idle_seen) {
		tdq->tdq_idle_seen = switchcnt;
		if (tdq_idled(tdq) == 0)
			return 1;
	}
	struct search_mode mode = search_mode_now();
	if (mode.pol && mode.pol->idle)
		mode.pol->idle(&mode, cpu);   /* e.g. hmp's up-migration pull */
	if (tdq->tdq_cg && !(tdq->tdq_cg->cg_flags & CG_FLAG_THREAD) && switchcnt > sched_idlespinthresh)
		for (int64_t i = 0, spins = sched_plat_idle_spins(sched_idlespins); i < spins; i++) {
			if (tdq_load_of(cpu) > 0)
				return 1;
			__asm__ volatile("" ::: "memory");
		}
	__atomic_store_n(&tdq->tdq_cpu_idle, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (tdq_load_of(cpu) == 0)
		sched_plat_idle_wait(cpu);
	__atomic_store_n(&tdq->tdq_cpu_idle, 0, __ATOMIC_RELAXED);
	if (tdq_switchcount(tdq) == tdq->tdq_idle_seen) {
		tdq->tdq_switchcnt++;   /* a wake without a switch counts as one */
		tdq->tdq_idle_seen++;
	}
	return tdq_load_of(cpu) > 0;
}
