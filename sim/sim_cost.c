/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_cost.c — the scheduler's work by entry point. The searches count
 * into sched_cost (sim_cost.h); sched_pickcpu() and sched_balance() are
 * wrapped at link time (ld --wrap, their callers are in other files of
 * kernel/sched/), so each call's share is known; the rest (idle stealing,
 * up-migration scans, the repick at a tick) is "other".
 */
#include <string.h>
#include <sim/sim.h>
#include <sched/ule.h>

struct sched_cost sched_cost;
static struct sim_cost_bucket bucket[SIM_COST_KINDS];

int __real_sched_pickcpu(struct td_sched *ts, int flags);
int __real_sched_balance(void);

#define NCOST (sizeof(struct sched_cost) / sizeof(uint64_t))

/* Adds the counters' growth since before to b. */
static void charge(struct sim_cost_bucket *b, const struct sched_cost *before)
{
	const uint64_t *now = (const uint64_t *)&sched_cost, *was = (const uint64_t *)before;
	uint64_t *sum = (uint64_t *)&b->ops;
	b->calls++;
	for (size_t i = 0; i < NCOST; i++)
		sum[i] += now[i] - was[i];
}

int __wrap_sched_pickcpu(struct td_sched *ts, int flags);
/* sched_pickcpu() with its work charged to the pickcpu bucket. */
int __wrap_sched_pickcpu(struct td_sched *ts, int flags)
{
	struct sched_cost before = sched_cost;
	int cpu = __real_sched_pickcpu(ts, flags);
	charge(&bucket[SIM_COST_PICKCPU], &before);
	return cpu;
}

int __wrap_sched_balance(void);
/* sched_balance() with its work charged to the balance bucket. */
int __wrap_sched_balance(void)
{
	struct sched_cost before = sched_cost;
	int r = __real_sched_balance();
	charge(&bucket[SIM_COST_BALANCE], &before);
	return r;
}

/* See sim.h. */
void sim_cost_reset(void)
{
	memset(&sched_cost, 0, sizeof(sched_cost));
	memset(bucket, 0, sizeof(bucket));
}

/* See sim.h. */
void sim_cost_collect(struct sim_cost_bucket *out)
{
	memcpy(out, bucket, sizeof(bucket));
	const uint64_t *all = (const uint64_t *)&sched_cost;
	uint64_t *other = (uint64_t *)&out[SIM_COST_OTHER].ops;
	const uint64_t *pick = (const uint64_t *)&bucket[SIM_COST_PICKCPU].ops;
	const uint64_t *bal = (const uint64_t *)&bucket[SIM_COST_BALANCE].ops;
	out[SIM_COST_OTHER].calls = 0;
	for (size_t i = 0; i < NCOST; i++)
		other[i] = all[i] - pick[i] - bal[i];
}
