/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_search.c — searching the cpu_group tree for the least / most loaded
 * CPU (FreeBSD's cpu_search_lowest, cpu_search_highest, sched_lowest,
 * sched_highest): group totals in units of one thread's weight, a
 * half-thread bonus for the preferred CPU, a per-CPU random term for tie
 * breaks, and the SMT adjustment while balancing. A placement policy
 * (sched_policy.h) may replace either search with its own: hmp's are in
 * hmp_report_search.c and hmp_search.c.
 * Loads are read lock-free (may be stale); callers re-check under locks.
 * Needs interrupts off (sched_random).
 */
#include <limits.h>
#include <sched/ule.h>
#include <sched/sched_policy.h>

/* Per-CPU LCG x = x * 69069 + 5, 16 bits out. FreeBSD: sched_random(). */
uint32_t sched_random(void)
{
	struct tdq *tdq = tdq_cpu(sched_plat_cpu_self());
	tdq->tdq_rand = tdq->tdq_rand * 69069u + 5u;
	return tdq->tdq_rand >> 16;
}

/* Leaf part of the stock lowest search: CPUs from last to first, each
 * thread weighing SEARCH_LOAD_ONE (plus the policy's cpu_bias, if any),
 * SEARCH_PREFER_BONUS off the preferred CPU, a random term below
 * SEARCH_RANDOM_LOWEST; returns the leaf's total. */
static int64_t ule_lowest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
			       struct cpu_search_res *r)
{
	int64_t bload = INT64_MAX, total = 0;
	const struct sched_policy *pol = s->cs_mode.pol;
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		int l = tdq_load_of(c);
		int64_t p = 0;
		SCHED_COST(cpus, 1);
		SCHED_COST(muls, 1);   /* l * SEARCH_LOAD_ONE */
		if (c == s->cs_prefer) {
			if (s->cs_running)
				l--;   /* the moving thread itself runs there */
			p = SEARCH_PREFER_BONUS;
		}
		int64_t load = (int64_t)l * SEARCH_LOAD_ONE;
		if (pol && pol->cpu_bias)
			load += pol->cpu_bias(s, c);
		total += load - p;
		if (l > s->cs_load)
			continue;
		if (sched_cpu_lowpri(c) <= s->cs_pri && !(s->cs_running && c == s->cs_prefer))
			continue;
		if (!cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		if (s->cs_running && l > 0)
			p = 0;   /* balancing: the donor keeps the bonus only if it empties */
		SCHED_COST(muls, 1);   /* the random term's modulo */
		load -= sched_random() % SEARCH_RANDOM_LOWEST;
		if (bload > load - p) {
			bload = load - p;
			r->csr_cpu = c;
			r->csr_load = load;
		}
	}
	return total;
}

/* See sched_policy.h. FreeBSD: cpu_search_lowest(). The child with the
 * smallest total wins, ties to the one whose best CPU had the smaller
 * value; while balancing, an SMT group holding the donor (bit
 * SEARCH_PREFER_BONUS of its total) and another thread gets
 * SEARCH_SMT_PENALTY. */
int64_t ule_search_lowest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r)
{
	if (cg->cg_children == 0)
		return ule_lowest_leaf(cg, s, r);
	int64_t bload = INT64_MAX, total = 0;
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		const struct cpu_group *child = &cg->cg_child[c];
		struct cpu_search_res lr;
		int64_t load = ule_search_lowest(child, s, &lr);
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

/* Leaf part of the stock highest search. */
static int64_t ule_highest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
				struct cpu_search_res *r)
{
	int64_t total = 0, bload = INT64_MIN;
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		int l = tdq_load_of(c);
		SCHED_COST(cpus, 1);
		SCHED_COST(muls, 1);   /* l * SEARCH_LOAD_ONE */
		int64_t load = (int64_t)l * SEARCH_LOAD_ONE;
		total += load;
		if (l < s->cs_load || sched_cpu_transferable(c) < s->cs_trans ||
		    !cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		SCHED_COST(muls, 1);   /* the random term's modulo */
		load -= sched_random() % SEARCH_RANDOM_HIGHEST;
		if (load > bload) {
			bload = load;
			r->csr_cpu = c;
		}
	}
	r->csr_load = bload;
	return total;
}

/* See sched_policy.h. FreeBSD: cpu_search_highest(). */
int64_t ule_search_highest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r)
{
	if (cg->cg_children == 0)
		return ule_highest_leaf(cg, s, r);
	int64_t total = 0, bload = INT64_MIN;
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		const struct cpu_group *child = &cg->cg_child[c];
		struct cpu_search_res lr;
		int64_t load = ule_search_highest(child, s, &lr);
		total += load;
		if (lr.csr_cpu >= 0 && (load > bload || (load == bload && lr.csr_load > r->csr_load))) {
			bload = load;
			r->csr_cpu = lr.csr_cpu;
			r->csr_load = lr.csr_load;
		}
	}
	return total;
}

/* See ule.h: the policy's search (sched_policy.h), ULE's by default. */
int64_t cpu_search_lowest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r)
{
	const struct sched_policy *p = s->cs_mode.pol;
	return p && p->search_lowest ? p->search_lowest(cg, s, r) : ule_search_lowest(cg, s, r);
}

/* See ule.h: the policy's search (sched_policy.h), ULE's by default. */
int64_t cpu_search_highest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r)
{
	const struct sched_policy *p = s->cs_mode.pol;
	return p && p->search_highest ? p->search_highest(cg, s, r) : ule_search_highest(cg, s, r);
}

/* Least loaded CPU in mask under cg whose lowpri is worse than pri (-1:
 * any) and load at most maxload; prefer: the CPU to favour, running: the
 * thread being placed runs there; what it places counts as a hog
 * (cs_hog). -1 if none. FreeBSD: sched_lowest(). */
int sched_lowest(const struct search_mode *mode, const struct cpu_group *cg, const struct cpuset *mask,
		 int pri, int maxload, int prefer, int running)
{
	struct cpu_search s = { .cs_mode = *mode, .cs_mask = mask, .cs_prefer = prefer,
				.cs_running = running, .cs_pri = pri, .cs_load = maxload,
				.cs_free_pri = -1, .cs_hog = 1 };
	return sched_lowest_search(cg, &s);
}

/* See ule.h. */
int sched_lowest_search(const struct cpu_group *cg, const struct cpu_search *s)
{
	struct cpu_search_res r;
	cpu_search_lowest(cg, s, &r);
	return r.csr_cpu;
}

/* Most loaded CPU in mask under cg with load >= minload and transferable
 * >= mintrans; -1 if none. FreeBSD: sched_highest(). */
int sched_highest(const struct search_mode *mode, const struct cpu_group *cg,
		  const struct cpuset *mask, int minload, int mintrans)
{
	struct cpu_search s = { .cs_mode = *mode, .cs_mask = mask, .cs_load = minload,
				.cs_trans = mintrans, .cs_free_pri = -1 };
	struct cpu_search_res r;
	cpu_search_highest(cg, &s, &r);
	return r.csr_cpu;
}
