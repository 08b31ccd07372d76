/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_stats.c — schedstats: per-CPU counters kept in each tdq, each
 * incremented by the CPU doing the counted work, read lock-free.
 */
#include <sched/ule.h>

const char *const sched_stats_names[SCHED_STATS_NFIELDS] = {
	"schedule", "idle_switch", "wakeup_local", "wakeup_remote", "run_ns", "wait_ns",
	"timeslices", "migrations", "pick_idle_affinity", "pick_llc_idle", "pick_preempt",
	"pick_lowest", "pick_local", "pick_fixed", "balance_runs", "balance_moves",
	"balance_pickcpu", "idle_steals", "try_steals", "ipis", "pick_p", "pick_e", "pick_lpe",
	"pick_untyped", "hmp_steered", "hmp_avoid_picks", "hmp_avoid_moves", "upmigrations",
	"upmigrate_asks", "upmigrate_stale",
	"hmp_class_picks", "primary_picks", "primary_overflows", "primary_misses",
	"itd_swap_asks", "itd_swaps",
};

_Static_assert(sizeof(struct sched_stats) == SCHED_STATS_NFIELDS * sizeof(uint64_t),
	       "struct sched_stats holds only uint64_t counters");

/* Copies cpu's counters word by word. */
void sched_stats_cpu(int cpu, struct sched_stats *out)
{
	const uint64_t *src = (const uint64_t *)&tdq_cpu(cpu)->tdq_stats;
	uint64_t *dst = (uint64_t *)out;
	for (unsigned i = 0; i < SCHED_STATS_NFIELDS; i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

/* Sum of every CPU's counters. */
void sched_stats_sum(struct sched_stats *out)
{
	uint64_t *dst = (uint64_t *)out;
	*out = (struct sched_stats){ 0 };
	for (int cpu = 0; cpu < sched_ncpus; cpu++) {
		struct sched_stats one;
		sched_stats_cpu(cpu, &one);
		const uint64_t *src = (const uint64_t *)&one;
		for (unsigned i = 0; i < SCHED_STATS_NFIELDS; i++)
			dst[i] += src[i];
	}
}

/* Zeroes all counters. */
void sched_stats_reset(void)
{
	for (int cpu = 0; cpu < sched_ncpus; cpu++) {
		uint64_t *w = (uint64_t *)&tdq_cpu(cpu)->tdq_stats;
		for (unsigned i = 0; i < SCHED_STATS_NFIELDS; i++)
			__atomic_store_n(&w[i], 0, __ATOMIC_RELAXED);
	}
}
