/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * policy_fastest.c — `fastest`, the example placement policy of
 * docs/policies.md: a thread that becomes runnable goes to the fastest
 * idle CPU it may use (hmp's capacity; its last CPU wins a tie, being
 * cache-warm), and when no CPU is idle, where stock ULE would put it.
 * Everything else — the balancer, idle stealing, run queues, slices — is
 * ULE's: the table below names only the one operation it changes.
 */
#include <sched/sched_policy.h>
#include <sched/hmp.h>

/* The pickcpu operation (sched_policy.h): mask holds the online CPUs ts
 * may run on. Reads other CPUs' state lock-free, as ULE's searches do. */
static int fastest_pickcpu(const struct search_mode *m, struct td_sched *ts, struct cpuset *mask, int flags,
			   struct sched_stats *st)
{
	int best = -1, best_capacity = -1;
	for (int c = cpuset_first(mask); c >= 0; c = cpuset_next(mask, c)) {
		SCHED_COST(cpus, 1);   /* schedsim --cost counts the CPUs looked at */
		if (!sched_cpu_idle(c))
			continue;
		int capacity = hmp_capacity(c);
		if (capacity > best_capacity || (capacity == best_capacity && c == ts->ts_cpu)) {
			best = c;
			best_capacity = capacity;
		}
	}
	if (best < 0)   /* nothing idle: stock ULE's least loaded CPU */
		return ule_pickcpu_steps(m, ts, mask, flags, st);
	st->pick_llc_idle++;   /* counted as an idle CPU found by a search */
	return best;
}

const struct sched_policy sched_policy_fastest = {
	.name = "fastest",
	.descr = "example (docs/policies.md): the fastest idle CPU, else ULE's choice",
	.pickcpu = fastest_pickcpu,
};
