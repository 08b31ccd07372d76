/*
 * sim_workloads.c — the workloads schedsim knows. Each is written against
 * kernel/bench/bench_rt.h only; today these are the simulator's own test
 * workloads (tests/sim/wl_test_*.c). The benchmark workloads of
 * kernel/bench/wl_*.c join the table through their registry (docs/sim.md,
 * "Adding a workload").
 */
#include <string.h>
#include "sim_wl.h"

extern const struct sim_workload sim_wl_test_cpu, sim_wl_test_pingpong;

const struct sim_workload *const sim_workloads[] = {
	&sim_wl_test_cpu,
	&sim_wl_test_pingpong,
	NULL,
};

/* See sim_wl.h. */
const struct sim_workload *sim_workload_find(const char *name)
{
	for (int i = 0; sim_workloads[i]; i++)
		if (!strcmp(sim_workloads[i]->name, name))
			return sim_workloads[i];
	return NULL;
}
