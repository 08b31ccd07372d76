/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_cost.h — the simulator's side of the scheduler's cost hook.
 *
 * kernel/sched/ule.h defines SCHED_COST(what, n) as nothing unless it is
 * already defined; the simulator compiles kernel/sched/ with this header
 * forced in (-include), so the searches count their work into sched_cost.
 * Counting only adds to these counters: no decision reads them
 * (tests/host/test_sim.py compares a build without the hook byte for byte).
 */
#ifndef MOSAIC_SIM_COST_H
#define MOSAIC_SIM_COST_H
#include <stdint.h>

struct sched_cost {
	uint64_t groups;   /* cpu_group nodes visited by the searches */
	uint64_t cpus;     /* CPUs looked at (searches, hmp masks and scans) */
	uint64_t muls;     /* multiplications and divisions of the load arithmetic */
	uint64_t stat_hits;        /* balancer statistics reused within a pass (ule_balance.c) */
	uint64_t stat_recomputes;  /* ... computed (first use in a pass, or after a move) */
};
extern struct sched_cost sched_cost;

#undef SCHED_COST   /* a simulator file may have included ule.h's empty one first */
#define SCHED_COST(what, n) ((void)(sched_cost.what += (uint64_t)(n)))

#endif
