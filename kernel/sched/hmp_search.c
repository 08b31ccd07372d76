/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hmp_search.c — the searches of hybrid placement with
 * kern.sched.hmp.best (docs/hmp.md, "The best-CPU searches"), beside
 * ULE's own in ule_search.c. Every CPU is valued for the thread being
 * placed, in one pass, from hmp's published per-CPU numbers:
 *
 *   a CPU that runs nothing      − its score (perf or ee, by the metric;
 *                                  with steering off its capacity), or
 *                                  its shared score while an SMT sibling
 *                                  is busy: what a thread there adds
 *   a CPU with l threads         + l × its weight (256 × slowest capacity
 *                                  / capacity): the share a thread gets
 *
 * so that every free CPU comes before every busy one, and free CPUs come
 * in the order of what they add (an idle E-core before an idle sibling of
 * a busy P-core when that is worth more, a perf-0 CPU — score 0 — after
 * every CPU with a score: the SDM's "avoid for performance" as overflow).
 * The CPU the thread prefers (its last) has a bonus: half a thread when
 * busy (ULE's), an eighth of its score when free; a free CPU of the cache
 * group the thread is warm in (cs_warm, step 5) a sixteenth of its score,
 * up-migration's margin, so that a CPU outside wins only when it is worth
 * more by more than that. A group is chosen by the
 * best CPU it offers, then by its total load (per CPU with (b)), so an
 * idle fast CPU is never hidden by busy neighbours; the random draw only
 * breaks exact ties. The highest search takes the CPU with the heaviest
 * weighted load (threads × weight) the same way — its best CPU before its
 * total — so the first donor the balancer finds is the heaviest of all.
 * Loads are read lock-free (may be stale); callers re-check under locks.
 * Interrupts off (sched_random).
 */
#include <limits.h>
#include <sched/ule.h>
#include <sched/hmp.h>

/* What a candidate is worth: lower is better (lowest) or higher is better
 * (highest); rnd breaks exact ties only. */
struct best_key {
	int64_t value;
	uint32_t rnd;
};

/* 1 if a is better than b for the lowest search. */
static int lower(const struct best_key *a, const struct best_key *b)
{
	return a->value < b->value || (a->value == b->value && a->rnd < b->rnd);
}

/* 1 if a is better than b for the highest search. */
static int higher(const struct best_key *a, const struct best_key *b)
{
	return a->value > b->value || (a->value == b->value && a->rnd > b->rnd);
}

#define SMT_LEAF_MAX 64   /* CPUs of one core, at most */

/* What a free cpu is worth to the thread: its score, or with steering (d)
 * off its capacity; shared (an SMT sibling is busy): what a second thread
 * adds there (× the SMT share), the machine's gain — but to a
 * latency-sensitive thread (own) its own speed there, half of what the
 * two threads get together, since its wait is what it is placed for. */
static int64_t free_gain(const struct search_mode *m, int cpu, int shared, int own)
{
	int64_t alone = m->steer ? hmp_score_class(cpu, m->metric, 0, m->cls) : hmp_capacity(cpu);
	if (!shared)
		return alone;
	int64_t added = m->steer ? hmp_score_class(cpu, m->metric, 1, m->cls) : 0;
	if (!m->steer) {
		SCHED_COST(muls, 1);
		added = alone * hmp_smt(cpu) / HMP_SMT_MAX;
	}
	return own ? (alone + added) / 2 : added;
}

/* A group's sums for its parent (lowest): the total of its CPUs' values
 * and the threads on them. */
struct best_sum {
	int64_t total;
	int threads;
};

/* cpu's threads as the lowest search counts them: without the thread
 * being placed if it runs there, without a sync waker about to leave. */
static int search_load(const struct cpu_search *s, int cpu)
{
	return tdq_load_of(cpu) - (s->cs_running && cpu == s->cs_prefer) - (s->cs_leaving == tdq_cpu(cpu));
}

/* Value of cpu (l threads, siblings busy or not) for the lowest search,
 * the preferred CPU's bonus taken off. */
static int64_t lowest_value(const struct cpu_search *s, int cpu, int l, int shared)
{
	const struct search_mode *m = &s->cs_mode;
	int free = l == 0 ||
		   (s->cs_free_pri >= 0 && sched_cpu_lowpri(cpu) > s->cs_free_pri && tdq_hog_of(cpu));
	if (free) {   /* a CPU it would preempt (latency) comes just after an idle one */
		int64_t g = free_gain(m, cpu, shared, s->cs_free_pri >= 0);
		int warm = s->cs_warm && cpuset_isset(&s->cs_warm->cg_mask, (unsigned)cpu);
		return -g - (warm ? g / 16 : 0) + l - (cpu == s->cs_prefer ? g / 8 : 0);
	}
	int64_t w = m->weight ? hmp_weight(cpu) : SEARCH_LOAD_ONE;
	SCHED_COST(muls, 1);   /* l * w */
	return l * w - (cpu == s->cs_prefer ? w / 2 : 0);
}

/* Leaf part of the lowest search: every CPU visited once (an SMT leaf's
 * loads are read first, to know which siblings are busy). */
static void best_lowest_leaf(const struct cpu_group *cg, const struct cpu_search *s,
			     struct cpu_search_res *r, struct best_key *best, struct best_sum *sum)
{
	int load[SMT_LEAF_MAX], held[SMT_LEAF_MAX], n = 0, in_leaf = 0, held_in_leaf = 0;
	uint64_t now = sched_plat_ticks();
	int smt = (cg->cg_flags & CG_FLAG_THREAD) && cg->cg_count <= SMT_LEAF_MAX;
	*sum = (struct best_sum){ 0 };
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	if (smt)
		for (int c = cg->cg_first; c <= cg->cg_last; c++)
			if (cpuset_isset(&cg->cg_mask, (unsigned)c)) {
				int l = search_load(s, c);
				held[n] = s->cs_hog && s->cs_mode.latency && hmp_latency_held(c, now);
				held_in_leaf += held[n];
				load[n++] = l;
				in_leaf += l;
			}
	int i = n;
	for (int c = cg->cg_last; c >= cg->cg_first; c--) {
		if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
			continue;
		SCHED_COST(cpus, 1);
		int l = smt ? load[--i] : search_load(s, c);
		/* a hog's search: a sibling that holds a latency thread (it runs
		 * there or is coming back, hmp_core_reserved) values c as running
		 * one thread more, so every other free CPU comes first */
		int kept = smt && held_in_leaf > held[i];
		int64_t v = lowest_value(s, c, l + kept, smt && (in_leaf > l || kept));
		sum->total += v;
		sum->threads += l;
		if (l > s->cs_load || !cpuset_isset(s->cs_mask, (unsigned)c))
			continue;
		if (sched_cpu_lowpri(c) <= s->cs_pri && !(s->cs_running && c == s->cs_prefer) &&
		    s->cs_leaving != tdq_cpu(c))
			continue;
		if (s->cs_wmax) {
			int64_t w = s->cs_mode.weight ? hmp_weight(c) : SEARCH_LOAD_ONE;
			SCHED_COST(muls, 1);
			if ((l + 1) * w >= s->cs_wmax)
				continue;
		}
		struct best_key k = { v, sched_random() };
		if (r->csr_cpu < 0 || lower(&k, best)) {
			*best = k;
			r->csr_cpu = c;
			r->csr_load = v;
		}
	}
}

/* The lowest search over cg: the child whose best CPU is best, ties by
 * the child's total (times cg_norm with (b)), then by the random draw. */
static void best_lowest(const struct cpu_group *cg, const struct cpu_search *s,
			struct cpu_search_res *r, struct best_key *best, struct best_sum *sum)
{
	if (cg->cg_children == 0) {
		best_lowest_leaf(cg, s, r, best, sum);
		return;
	}
	int64_t btotal = INT64_MAX;
	*sum = (struct best_sum){ 0 };
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		const struct cpu_group *child = &cg->cg_child[c];
		struct cpu_search_res lr;
		struct best_key lk;
		struct best_sum cs;
		best_lowest(child, s, &lr, &lk, &cs);
		sum->total += cs.total;
		sum->threads += cs.threads;
		if (lr.csr_cpu < 0)
			continue;
		int64_t total = cs.total;
		if (s->cs_mode.normalize) {
			SCHED_COST(muls, 1);
			total *= child->cg_norm;
		}
		if (r->csr_cpu < 0 || lk.value < best->value ||
		    (lk.value == best->value &&
		     (total < btotal || (total == btotal && lk.rnd < best->rnd)))) {
			*best = lk;
			btotal = total;
			*r = lr;
		}
	}
}

/* See ule.h (cpu_search_lowest) for the contract; the hmp best rules. */
int64_t hmp_best_search_lowest(const struct cpu_group *cg, const struct cpu_search *s,
			       struct cpu_search_res *r)
{
	struct best_key k;
	struct best_sum sum;
	best_lowest(cg, s, r, &k, &sum);
	return sum.total;
}

/* The highest search over cg into r and *best; returns cg's weighted
 * total. The CPU with the heaviest weighted load wins, then the random
 * draw; a group by its best CPU, then its total (per CPU with (b)). */
static int64_t best_highest(const struct cpu_group *cg, const struct cpu_search *s,
			    struct cpu_search_res *r, struct best_key *best)
{
	int64_t total = 0, btotal = INT64_MIN;
	r->csr_cpu = -1;
	SCHED_COST(groups, 1);
	if (cg->cg_children == 0) {
		for (int c = cg->cg_last; c >= cg->cg_first; c--) {
			if (!cpuset_isset(&cg->cg_mask, (unsigned)c))
				continue;
			SCHED_COST(cpus, 1);
			int l = tdq_load_of(c);
			int64_t v = 0;
			if (l) {
				SCHED_COST(muls, 1);
				v = l * (int64_t)(s->cs_mode.weight ? hmp_weight(c) : SEARCH_LOAD_ONE);
			}
			total += v;
			if (l < s->cs_load || sched_cpu_transferable(c) < s->cs_trans ||
			    !cpuset_isset(s->cs_mask, (unsigned)c))
				continue;
			struct best_key k = { v, sched_random() };
			if (r->csr_cpu < 0 || higher(&k, best)) {
				*best = k;
				r->csr_cpu = c;
				r->csr_load = v;
			}
		}
		return total;
	}
	for (int c = cg->cg_children - 1; c >= 0; c--) {
		const struct cpu_group *child = &cg->cg_child[c];
		struct cpu_search_res lr;
		struct best_key lk;
		int64_t t = best_highest(child, s, &lr, &lk);
		total += t;
		if (lr.csr_cpu < 0)
			continue;
		if (s->cs_mode.normalize) {
			SCHED_COST(muls, 1);
			t *= child->cg_norm;
		}
		if (r->csr_cpu < 0 || lk.value > best->value ||
		    (lk.value == best->value && (t > btotal || (t == btotal && lk.rnd > best->rnd)))) {
			*best = lk;
			btotal = t;
			*r = lr;
		}
	}
	return total;
}

/* See ule.h (cpu_search_highest) for the contract; the hmp best rules. */
int64_t hmp_best_search_highest(const struct cpu_group *cg, const struct cpu_search *s,
				struct cpu_search_res *r)
{
	struct best_key k;
	return best_highest(cg, s, r, &k);
}
