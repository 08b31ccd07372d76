/*
 * sim_props.h — schedsim's property run (`--properties N`, docs/sim.md
 * "Property run"): generated machines (sim_gen.c) under ule, hmp and the
 * oracle at every thread count of kernel/bench's `cpu` workload, with
 * four properties checked per machine and thread count.
 */
#ifndef MOSAIC_SIM_PROPS_H
#define MOSAIC_SIM_PROPS_H
#include <stdint.h>
#include "bench_table.h"
#include "sim.h"

#define SIM_PROPS_MAX_RUNS 15   /* --runs with --properties */

struct sim_props {
	uint64_t first, count;        /* machines first .. first + count - 1 */
	int runs;                     /* samples per policy and thread count */
	int ncounts;                  /* --threads: only these counts (0: 1..2 × CPUs) */
	int counts[BENCH_MAX_COLS];
	struct sim_config base;       /* workload cpu with its options, hz, latencies, --sysctl */
	const char *args;             /* the options that reproduce base on a command line */
};

/* Runs and checks every machine of pr; prints each failing machine (what
 * failed, the numbers, the commands that reproduce it, the machine as a
 * file between marker lines) as it is found, then one summary line per
 * property. Returns 0 when every property held, 1 otherwise. */
int sim_props_run(const struct sim_props *pr);

#endif
