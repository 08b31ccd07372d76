/*
 * ule_search.c — searching the cpu_group tree for the least / most loaded
 * CPU (§5): group totals in units of 256 per thread, a half-thread bonus
 * for the preferred CPU, a per-CPU random term for tie breaks, and the SMT
 * adjustment while balancing. Loads are read lock-free (may be stale);
 * callers re-check under locks. Needs interrupts off (sched_random).
 */
#include <limits.h>
#include "ule.h"

/* Per-CPU LCG x = x * 69069 + 5, 16 bits out (§5.1). */
uint32_t sched_random(void)
{
	struct tdq *tdq = tdq_cpu(sched_plat_cpu_self());
	tdq->tdq_rand = tdq->tdq_rand * 69069u + 5u;
	return tdq->tdq_rand >> 16;
}

/* Leaf part of cpu_search_lowest: CPUs from last to first (§5.2 B). */
static int search_lowest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
			      struct cpu_search_res *r)
{
	int total = 0, bload = INT_MAX;
	r->csr_cpu = -1;
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		int l = tdq_load_of(c), p = 0;
		if (c == s->cs_prefer) {
			if (s->cs_running)
				l--;
			p = 128;
		}
		int load = l * 256;
		total += load - p;
		if (l > s->cs_load)
			continue;
		if (sched_cpu_lowpri(c) <= s->cs_pri && !(s->cs_running && c == s->cs_prefer))
			continue;
		if (!cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		if (s->cs_running && l > 0)
			p = 0;
		load -= (int)(sched_random() % 128);
		if (bload > load - p) {
			bload = load - p;
			r->csr_cpu = c;
			r->csr_load = load;
		}
	}
	return total;
}

/* Least loaded acceptable CPU on the least loaded path under cg; returns
 * cg's total load (§5.2). */
int cpu_search_lowest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r)
{
	if (cg->cg_children == 0)
		return search_lowest_leaf(cg, s, r);
	int total = 0, bload = INT_MAX;
	r->csr_cpu = -1;
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		const struct cpu_group *child = &cg->cg_child[c];
		struct cpu_search_res lr;
		int load = cpu_search_lowest(child, s, &lr);
		total += load;
		if (s->cs_running && (child->cg_flags & CG_FLAG_THREAD) && load >= 128 && (load & 128))
			load += 128;
		if (lr.csr_cpu >= 0 && (load < bload || (load == bload && lr.csr_load < r->csr_load))) {
			bload = load;
			r->csr_cpu = lr.csr_cpu;
			r->csr_load = lr.csr_load;
		}
	}
	return total;
}

/* Leaf part of cpu_search_highest (§5.3 B). */
static int search_highest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
			       struct cpu_search_res *r)
{
	int total = 0, bload = INT_MIN;
	r->csr_cpu = -1;
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		int l = tdq_load_of(c), load = l * 256;
		total += load;
		if (l < s->cs_load || sched_cpu_transferable(c) < s->cs_trans ||
		    !cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		load -= (int)(sched_random() % 256);
		if (load > bload) {
			bload = load;
			r->csr_cpu = c;
		}
	}
	r->csr_load = bload;
	return total;
}

/* Most loaded acceptable CPU on the most loaded path under cg; returns
 * cg's total load (§5.3). */
int cpu_search_highest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r)
{
	if (cg->cg_children == 0)
		return search_highest_leaf(cg, s, r);
	int total = 0, bload = INT_MIN;
	r->csr_cpu = -1;
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		struct cpu_search_res lr;
		int load = cpu_search_highest(&cg->cg_child[c], s, &lr);
		total += load;
		if (lr.csr_cpu >= 0 && (load > bload || (load == bload && lr.csr_load > r->csr_load))) {
			bload = load;
			r->csr_cpu = lr.csr_cpu;
			r->csr_load = lr.csr_load;
		}
	}
	return total;
}

/* Least loaded CPU in mask under cg whose lowpri is worse than pri (-1:
 * any) and load at most maxload; prefer/running as in §5.1. -1 if none. */
int sched_lowest(const struct cpu_group *cg, const struct cpuset *mask, int pri, int maxload,
		 int prefer, int running)
{
	struct cpu_search s = { .cs_mask = mask, .cs_prefer = prefer, .cs_running = running,
				.cs_pri = pri, .cs_load = maxload };
	struct cpu_search_res r;
	cpu_search_lowest(cg, &s, &r);
	return r.csr_cpu;
}

/* Most loaded CPU in mask under cg with load >= minload and transferable
 * >= mintrans; -1 if none. */
int sched_highest(const struct cpu_group *cg, const struct cpuset *mask, int minload, int mintrans)
{
	struct cpu_search s = { .cs_mask = mask, .cs_load = minload, .cs_trans = mintrans };
	struct cpu_search_res r;
	cpu_search_highest(cg, &s, &r);
	return r.csr_cpu;
}
