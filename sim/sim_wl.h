/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_wl.h — the workloads schedsim can run (--workload NAME).
 *
 * A workload is code written against kernel/bench/bench_rt.h only, so the
 * same source runs in the kernel and here. It is entered once per sample
 * in the bench main thread (a simulated thread like the ones it spawns)
 * and returns its sample. The workloads are the benchmark workloads of
 * kernel/bench/wl_*.c (their registry, bench_wl.h, with their options),
 * then the simulator's own test workloads (sim/wl_test_*.c);
 * docs/sim.md says how to add one.
 */
#ifndef MOSAIC_SIM_WL_H
#define MOSAIC_SIM_WL_H
#include <stdint.h>

struct bench_wl;

struct sim_wl_args {
	int threads;            /* the sweep's thread count (its "Use Cores") */
	uint64_t duration_ns;   /* brt_stopping() turns 1 this long after the start */
	const uint64_t *opt;    /* a kernel/bench workload's options (checked), else NULL */
};

struct sim_workload {
	const char *name;       /* --workload NAME: 1..40 of A-Z a-z 0-9 . _ - */
	const char *unit;       /* of the samples, e.g. "events/s" */
	int decimals;           /* samples are value × 10^decimals */
	const char *what;       /* one line for --list */
	/* One sample, in the bench main thread: value × 10^decimals (0..10^15),
	 * or -1 when it could not run (it says why on stderr). w is this entry
	 * (one adapter function can serve many entries through ctx). */
	int64_t (*run)(const struct sim_workload *w, const struct sim_wl_args *a);
	const void *ctx;        /* the adapter's own: the kernel/bench registry entry */
};

/* The test workloads, NULL-terminated, in --list order. */
extern const struct sim_workload *const sim_test_workloads[];
/* Number of workloads (kernel/bench's, then the test ones) and the i-th. */
int sim_workload_count(void);
const struct sim_workload *sim_workload_at(int i);
/* The workload called name, or NULL. */
const struct sim_workload *sim_workload_find(const char *name);
/* What the last run of a kernel/bench workload filled in (its value,
 * check, placement, extras), NULL when no such run has completed since
 * sim_workload_result_clear(). */
const struct bench_result *sim_workload_result(void);
void sim_workload_result_clear(void);
/* The kernel/bench workload behind w, NULL for a test workload. */
const struct bench_wl *sim_workload_bench(const struct sim_workload *w);

#endif
