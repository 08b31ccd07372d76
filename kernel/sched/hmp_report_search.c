/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hmp_report_search.c — the hmp policy's searches without
 * kern.sched.hmp.best: ULE's walk of the cpu_group tree (ule_search.c)
 * with the seed report's modifications (a)–(f) ("Integration Strategy for
 * hmp(4) & sched_ule(4)", Koine Yuusuke, 2026) switched one by one by the
 * kern.sched.hmp.* variables (struct search_mode): (a) changes each
 * CPU's weight, (b) the group comparison, (c) the SMT penalty, (d) the
 * steering term, (e) and (f) the random tie breaks (docs/hmp.md). With
 * every switch off the walk decides as ULE's own. Loads are read
 * lock-free (may be stale); callers re-check under locks. Needs
 * interrupts off (sched_random).
 */
#include <limits.h>
#include <sched/ule.h>
#include <sched/hmp.h>

/* How the searches weigh one CPU: the load of one thread on it, the
 * bonus of the preferred CPU, the steering term and the ranges of the
 * random tie breaks. This is the one place where CPUs differ. */
struct search_weights {
	int64_t weight;           /* load of one thread */
	int64_t prefer_bonus;     /* taken off the preferred CPU (lowest) */
	int64_t steer;            /* taken off every CPU's load (lowest; (d)) */
	uint32_t random_lowest;   /* tie break of cpu_search_lowest: 0..n-1 */
	uint32_t random_highest;  /* tie break of cpu_search_highest: 0..n-1 */
};

/* The weights of cpu under mode. Stock ULE: 256, 128, 0, 128, 256. */
static struct search_weights search_weights_of(const struct search_mode *mode, int cpu)
{
	struct search_weights w = { SEARCH_LOAD_ONE, SEARCH_PREFER_BONUS, 0, SEARCH_RANDOM_LOWEST,
				    SEARCH_RANDOM_HIGHEST };
	if (!mode->hmp)
		return w;
	int score = hmp_score_class(cpu, mode->metric == HMP_METRIC_EE, 0, mode->cls);
	if (mode->weight)
		w.weight = hmp_weight(cpu);
	w.prefer_bonus = w.weight / 2;
	w.random_lowest = (uint32_t)(w.weight / 2);
	if (mode->steer)
		w.steer = score / 4;
	if (mode->random)
		w.random_lowest = (uint32_t)(score / 4);
	if (mode->highest_random)
		w.random_highest = (uint32_t)w.weight;
	if (w.random_lowest == 0)
		w.random_lowest = 1;
	if (w.random_highest == 0)
		w.random_highest = 1;
	return w;
}

/* See ule.h. */
int64_t search_thread_weight(const struct search_mode *mode, int cpu)
{
	return search_weights_of(mode, cpu).weight;
}

/* What a group adds up to, for its parent: the total load (what FreeBSD's
 * searches return), and for the hmp SMT penalty the threads counted in it
 * and the sum of its CPUs' capacities. */
struct group_sum {
	int64_t total;
	int threads;
	int64_t capacity;
};

/* Threads on the CPUs of cg, the moving thread not counted (lowest). */
static int leaf_threads(const struct cpu_group *cg, const struct cpu_search *s)
{
	int n = 0;
	SCHED_COST(cpus, cg->cg_count);
	for (int c = cg->cg_first; c <= cg->cg_last; c++)
		if (cpuset_isset(&cg->cg_mask, (unsigned)c))
			n += tdq_load_of(c) - (s->cs_running && c == s->cs_prefer);
	return n;
}

/* Leaf part of cpu_search_lowest: CPUs from last to first. */
static void search_lowest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
			       struct cpu_search_res *r, struct group_sum *sum)
{
	int64_t bload = INT64_MAX;
	int smt_steer = s->cs_mode.hmp && s->cs_mode.smt_steer && (cg->cg_flags & CG_FLAG_THREAD);
	int in_core = smt_steer ? leaf_threads(cg, s) : 0;
	*sum = (struct group_sum){ 0 };
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		struct search_weights w = search_weights_of(&s->cs_mode, c);
		int l = tdq_load_of(c);
		int64_t p = 0;
		SCHED_COST(cpus, 1);
		SCHED_COST(muls, 1);   /* l * w.weight */
		if (c == s->cs_prefer) {
			if (s->cs_running)
				l--;   /* the moving thread itself runs there */
			p = w.prefer_bonus;
		}
		if (smt_steer && in_core > l)
			w.steer /= 2;   /* a sibling is busy: half the core is left */
		int64_t load = l * w.weight - w.steer;
		sum->total += load - p;
		sum->threads += l;
		sum->capacity += s->cs_mode.hmp ? hmp_capacity(c) : HMP_CAPACITY_MAX;
		if (l > s->cs_load)
			continue;
		if (sched_cpu_lowpri(c) <= s->cs_pri && !(s->cs_running && c == s->cs_prefer))
			continue;
		if (!cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		if (s->cs_running && l > 0)
			p = 0;   /* balancing: the donor keeps the bonus only if it empties */
		SCHED_COST(muls, 1);   /* the random term's modulo */
		load -= sched_random() % w.random_lowest;
		if (bload > load - p) {
			bload = load - p;
			r->csr_cpu = c;
			r->csr_load = load;
		}
	}
}

/* A child's total as its parent compares it (lowest). Stock: while
 * balancing, an SMT group holding the donor (bit SEARCH_PREFER_BONUS of
 * its total) and another thread gets SEARCH_SMT_PENALTY. hmp (c): any busy
 * SMT group gets SEARCH_SMT_PENALTY scaled by its average capacity, and
 * that counts in the parent's total too (returned in *propagate). (b):
 * the comparison is per CPU. */
static int64_t lowest_child_load(const struct cpu_search *s, const struct cpu_group *child,
				 const struct group_sum *cs, int64_t *propagate)
{
	int64_t load = cs->total;
	*propagate = 0;
	if (!s->cs_mode.hmp) {
		if (s->cs_running && (child->cg_flags & CG_FLAG_THREAD) &&
		    load >= SEARCH_SMT_PENALTY && (load & SEARCH_PREFER_BONUS))
			load += SEARCH_SMT_PENALTY;
		return load;
	}
	if (s->cs_mode.smt && (child->cg_flags & CG_FLAG_THREAD) && cs->threads > 0) {
		SCHED_COST(muls, 3);
		*propagate = SEARCH_SMT_PENALTY * cs->capacity / child->cg_count / HMP_CAPACITY_MAX;
		load += *propagate;
	}
	SCHED_COST(muls, s->cs_mode.normalize);
	if (s->cs_mode.normalize)
		load *= child->cg_norm;
	return load;
}

/* cpu_search_lowest with the group's sums. */
static void search_lowest(const struct cpu_group *cg, const struct cpu_search *s,
			  struct cpu_search_res *r, struct group_sum *sum)
{
	if (cg->cg_children == 0) {
		search_lowest_leaf(cg, s, r, sum);
		return;
	}
	int64_t bload = INT64_MAX;
	*sum = (struct group_sum){ 0 };
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		const struct cpu_group *child = &cg->cg_child[c];
		struct cpu_search_res lr;
		struct group_sum cs;
		int64_t extra;
		search_lowest(child, s, &lr, &cs);
		int64_t load = lowest_child_load(s, child, &cs, &extra);
		sum->total += cs.total + extra;
		sum->threads += cs.threads;
		sum->capacity += cs.capacity;
		if (lr.csr_cpu >= 0 && (load < bload || (load == bload && lr.csr_load < r->csr_load))) {
			bload = load;
			r->csr_cpu = lr.csr_cpu;
			r->csr_load = lr.csr_load;
		}
	}
}

/* See ule.h. FreeBSD: cpu_search_lowest(). The child with the smallest
 * total wins; ties go to the one whose best CPU had the smaller value. */
int64_t hmp_report_search_lowest(const struct cpu_group *cg, const struct cpu_search *s,
				 struct cpu_search_res *r)
{
	struct group_sum sum;
	search_lowest(cg, s, r, &sum);
	return sum.total;
}

/* Leaf part of cpu_search_highest. */
static int64_t search_highest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
				   struct cpu_search_res *r)
{
	int64_t total = 0, bload = INT64_MIN;
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		struct search_weights w = search_weights_of(&s->cs_mode, c);
		int l = tdq_load_of(c);
		SCHED_COST(cpus, 1);
		SCHED_COST(muls, 1);   /* l * w.weight */
		int64_t load = l * w.weight;
		total += load;
		if (l < s->cs_load || sched_cpu_transferable(c) < s->cs_trans ||
		    !cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		SCHED_COST(muls, 1);   /* the random term's modulo */
		load -= sched_random() % w.random_highest;
		if (load > bload) {
			bload = load;
			r->csr_cpu = c;
		}
	}
	r->csr_load = bload;
	return total;
}

/* See ule.h. FreeBSD: cpu_search_highest(). hmp (b): the children's
 * totals are compared per CPU. */
int64_t hmp_report_search_highest(const struct cpu_group *cg, const struct cpu_search *s,
				  struct cpu_search_res *r)
{
	if (cg->cg_children == 0)
		return search_highest_leaf(cg, s, r);
	int64_t total = 0, bload = INT64_MIN;
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		const struct cpu_group *child = &cg->cg_child[c];
		struct cpu_search_res lr;
		int64_t load = hmp_report_search_highest(child, s, &lr);
		total += load;
		SCHED_COST(muls, s->cs_mode.hmp && s->cs_mode.normalize);
		if (s->cs_mode.hmp && s->cs_mode.normalize)
			load *= child->cg_norm;
		if (lr.csr_cpu >= 0 && (load > bload || (load == bload && lr.csr_load > r->csr_load))) {
			bload = load;
			r->csr_cpu = lr.csr_cpu;
			r->csr_load = lr.csr_load;
		}
	}
	return total;
}

