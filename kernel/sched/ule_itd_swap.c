/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_itd_swap.c — class swaps (kern.sched.hmp.itd_swap, with
 * kern.sched.hmp.itd): after the balancer's pass, two busy CPUs trade
 * their running threads when the thread on one gains more from the other
 * CPU than the other's thread does, by their Thread Director classes' HFI
 * columns. The idea of Linux's unmerged series "sched: Introduce classes
 * of tasks for load balance" (Ricardo Neri, 2022-2023, reported on LWN):
 * a busy high-gain class on a slower CPU is traded for a lower-gain one on
 * a faster CPU. Here the asks work
 * like up-migration's (hmp_ask_move): each thread goes at its next switch,
 * straight to the other CPU, no search.
 */
#include <sched/ule.h>
#include <sched/hmp.h>

/* One CPU as the pass sees it: running one thread of class cls, alone in
 * its queue; shared while an SMT sibling is busy. */
struct swap_cpu {
	int cpu;
	uint8_t cls, shared;
};

/* What class cls adds on c as the searches value a busy CPU's thread:
 * its class's score there (shared while a sibling is busy). */
static int64_t class_worth(const struct search_mode *m, const struct swap_cpu *c, unsigned cls)
{
	return hmp_score_class(c->cpu, m->metric, c->shared, cls);
}

/* The two products of the threads' speeds for a and b as they are (*now)
 * and swapped (*swapped); 1 if the swap gains more than a sixteenth. */
static int swap_gains(const struct search_mode *m, const struct swap_cpu *a, const struct swap_cpu *b,
		      int64_t *now, int64_t *swapped)
{
	SCHED_COST(muls, 4);
	*now = class_worth(m, a, a->cls) * class_worth(m, b, b->cls);
	*swapped = class_worth(m, b, a->cls) * class_worth(m, a, b->cls);
	return a->cls != b->cls && *swapped > *now + *now / 16;
}

/* c as a candidate: online, not avoided, one thread, running; 0 if not. */
static int candidate(int c, struct swap_cpu *out)
{
	struct tdq *tdq = tdq_cpu(c);
	if (hmp_avoid(c) || tdq_load_of(c) != 1 || !__atomic_load_n(&tdq->tdq_curthread, __ATOMIC_RELAXED))
		return 0;
	*out = (struct swap_cpu){ c, __atomic_load_n(&tdq->tdq_curclass, __ATOMIC_RELAXED),
				  (uint8_t)tdq_core_shared(c) };
	return 1;
}

/* Asks the running threads of a and b (still as the pass saw them) to
 * trade CPUs, both or neither; 1 if asked. Takes both tdq locks. */
static int ask_swap(const struct swap_cpu *a, const struct swap_cpu *b)
{
	int asked = 0;
	tdq_lock_pair(a->cpu, b->cpu);
	struct tdq *ta = tdq_cpu(a->cpu), *tb = tdq_cpu(b->cpu);
	struct td_sched *x = ta->tdq_curthread, *y = tb->tdq_curthread;
	if (x && y && ta->tdq_load == 1 && tb->tdq_load == 1 && ta->tdq_curclass == a->cls &&
	    tb->tdq_curclass == b->cls && hmp_may_ask(x, b->cpu) && hmp_may_ask(y, a->cpu)) {
		hmp_ask_move(x, b->cpu);
		hmp_ask_move(y, a->cpu);
		x->ts_flags |= TSF_ITDSWAP;
		y->ts_flags |= TSF_ITDSWAP;
		asked = 1;
	}
	tdq_unlock_pair(a->cpu, b->cpu);
	return asked;
}

/* IPIs cpu to switch (the balancing CPU itself sees the mark at its tick). */
static void kick(int self, int cpu)
{
	if (cpu == self)
		return;
	tdq_cpu(self)->tdq_stats.ipis++;
	sched_plat_ipi(cpu, SCHED_PLAT_IPI_AST);
}

/* See ule.h. O(n²) in the candidate CPUs, once a balance interval. */
void hmp_itd_swap_pass(const struct search_mode *mode)
{
	static struct swap_cpu cand[TOPO_MAXCPU];   /* the balancer's: one pass at a time */
	if (!mode->hmp || !mode->itd || !__atomic_load_n(&hmp_itd_swap, __ATOMIC_RELAXED))
		return;
	int n = 0, self = sched_plat_cpu_self();
	SCHED_COST(cpus, cpuset_count(&sched_online));
	for (int c = cpuset_first(&sched_online); c >= 0; c = cpuset_next(&sched_online, c))
		n += candidate(c, &cand[n]);
	for (int i = 0; i < n; i++) {
		if (cand[i].cpu < 0)
			continue;
		int best = -1;
		int64_t bnow = 1, bswap = 0;   /* best gain as swapped / now, compared crosswise */
		for (int j = i + 1; j < n; j++) {
			int64_t now, swapped;
			SCHED_COST(cpus, 1);
			if (cand[j].cpu < 0 || !swap_gains(mode, &cand[i], &cand[j], &now, &swapped))
				continue;
			SCHED_COST(muls, 2);
			if (best < 0 || swapped * bnow > bswap * now) {
				best = j;
				bnow = now;
				bswap = swapped;
			}
		}
		if (best < 0 || !ask_swap(&cand[i], &cand[best]))
			continue;
		tdq_cpu(self)->tdq_stats.itd_swap_asks += 2;
		kick(self, cand[i].cpu);
		kick(self, cand[best].cpu);
		cand[best].cpu = -1;   /* taken */
	}
}

/* See ule.h. */
int hmp_itd_swap_target(const struct search_mode *mode, struct td_sched *t, int self, int to)
{
	if (!mode->hmp || !mode->itd || !cpuset_isset(&sched_online, (unsigned)to) ||
	    !ts_can_run_on(t, to) || hmp_avoid(to))
		return self;
	tdq_cpu(self)->tdq_stats.itd_swaps++;
	return to;
}
