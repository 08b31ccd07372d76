/*
 * ule_search.c — searching the cpu_group tree for the least / most loaded
 * CPU (FreeBSD's cpu_search_lowest, cpu_search_highest, sched_lowest,
 * sched_highest): group totals in units of SEARCH_LOAD_ONE per thread, a
 * half-thread bonus for the preferred CPU, a per-CPU random term for tie
 * breaks, and the SMT adjustment while balancing. Loads are read
 * lock-free (may be stale); callers re-check under locks. Needs
 * interrupts off (sched_random).
 */
#include <limits.h>
#include "ule.h"

/* Per-CPU LCG x = x * 69069 + 5, 16 bits out. FreeBSD: sched_random(). */
uint32_t sched_random(void)
{
	struct tdq *tdq = tdq_cpu(sched_plat_cpu_self());
	tdq->tdq_rand = tdq->tdq_rand * 69069u + 5u;
	return tdq->tdq_rand >> 16;
}

/* How the searches weigh one CPU: the load of one thread on it, the
 * bonus of the preferred CPU, and the ranges of the random tie breaks.
 * Stock ULE weighs every CPU alike; this is the one place that changes
 * when CPUs differ. */
struct search_weights {
	int64_t weight;           /* load of one thread */
	int64_t prefer_bonus;     /* taken off the preferred CPU (lowest) */
	uint32_t random_lowest;   /* tie break of cpu_search_lowest: 0..n-1 */
	uint32_t random_highest;  /* tie break of cpu_search_highest: 0..n-1 */
};

/* The weights of cpu (see above). Lock-free. */
static struct search_weights search_weights_of(int cpu)
{
	(void)cpu;
	return (struct search_weights){ .weight = SEARCH_LOAD_ONE, .prefer_bonus = SEARCH_PREFER_BONUS,
					.random_lowest = SEARCH_RANDOM_LOWEST,
					.random_highest = SEARCH_RANDOM_HIGHEST };
}

/* Leaf part of cpu_search_lowest: CPUs from last to first. */
static int64_t search_lowest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
				  struct cpu_search_res *r)
{
	int64_t total = 0, bload = INT64_MAX;
	r->csr_cpu = -1;
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		struct search_weights w = search_weights_of(c);
		int l = tdq_load_of(c);
		int64_t p = 0;
		if (c == s->cs_prefer) {
			if (s->cs_running)
				l--;   /* the moving thread itself runs there */
			p = w.prefer_bonus;
		}
		int64_t load = l * w.weight;
		total += load - p;
		if (l > s->cs_load)
			continue;
		if (sched_cpu_lowpri(c) <= s->cs_pri && !(s->cs_running && c == s->cs_prefer))
			continue;
		if (!cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		if (s->cs_running && l > 0)
			p = 0;   /* balancing: the donor keeps the bonus only if it empties */
		load -= sched_random() % w.random_lowest;
		if (bload > load - p) {
			bload = load - p;
			r->csr_cpu = c;
			r->csr_load = load;
		}
	}
	return total;
}

/* See ule.h. FreeBSD: cpu_search_lowest(). The child with the smallest
 * total wins; while balancing (cs_running) an SMT group that holds the
 * donor and another thread is penalised so busy cores are not preferred. */
int64_t cpu_search_lowest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r)
{
	if (cg->cg_children == 0)
		return search_lowest_leaf(cg, s, r);
	int64_t total = 0, bload = INT64_MAX;
	r->csr_cpu = -1;
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		const struct cpu_group *child = &cg->cg_child[c];
		struct cpu_search_res lr;
		int64_t load = cpu_search_lowest(child, s, &lr);
		total += load;
		if (s->cs_running && (child->cg_flags & CG_FLAG_THREAD) && load >= SEARCH_SMT_PENALTY &&
		    (load & SEARCH_PREFER_BONUS))
			load += SEARCH_SMT_PENALTY;
		if (lr.csr_cpu >= 0 && (load < bload || (load == bload && lr.csr_load < r->csr_load))) {
			bload = load;
			r->csr_cpu = lr.csr_cpu;
			r->csr_load = lr.csr_load;
		}
	}
	return total;
}

/* Leaf part of cpu_search_highest. */
static int64_t search_highest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
				   struct cpu_search_res *r)
{
	int64_t total = 0, bload = INT64_MIN;
	r->csr_cpu = -1;
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		struct search_weights w = search_weights_of(c);
		int l = tdq_load_of(c);
		int64_t load = l * w.weight;
		total += load;
		if (l < s->cs_load || sched_cpu_transferable(c) < s->cs_trans ||
		    !cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		load -= sched_random() % w.random_highest;
		if (load > bload) {
			bload = load;
			r->csr_cpu = c;
		}
	}
	r->csr_load = bload;
	return total;
}

/* See ule.h. FreeBSD: cpu_search_highest(). */
int64_t cpu_search_highest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r)
{
	if (cg->cg_children == 0)
		return search_highest_leaf(cg, s, r);
	int64_t total = 0, bload = INT64_MIN;
	r->csr_cpu = -1;
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		struct cpu_search_res lr;
		int64_t load = cpu_search_highest(&cg->cg_child[c], s, &lr);
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
 * any) and load at most maxload; prefer: the CPU to favour, running: the
 * thread being placed runs there. -1 if none. FreeBSD: sched_lowest(). */
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
 * >= mintrans; -1 if none. FreeBSD: sched_highest(). */
int sched_highest(const struct cpu_group *cg, const struct cpuset *mask, int minload, int mintrans)
{
	struct cpu_search s = { .cs_mask = mask, .cs_load = minload, .cs_trans = mintrans };
	struct cpu_search_res r;
	cpu_search_highest(cg, &s, &r);
	return r.csr_cpu;
}
