/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_report.h — what schedsim prints: the seed report's tables through
 * kernel/bench's bench_report() (with their CSV blocks), and its own
 * summary, the seed report's Rate(Median) beside the simulation's, the
 * cost of placement, and the placement trace (CSV blocks of schema
 * trace/1 for tools/bench-report.py).
 */
#ifndef MOSAIC_SIM_REPORT_H
#define MOSAIC_SIM_REPORT_H
#include <stdint.h>
#include <stdio.h>
#include <bench/bench_table.h>
#include <sim/sim.h>
#include <sim/sim_machine.h>
#include <sim/sim_policy.h>
#include <sim/sim_wl.h>

#define SIM_MAX_POLICIES 16

/* A sweep: every policy at every thread count, runs samples each. */
struct sim_sweep {
	const struct sim_workload *wl;
	const struct sim_machine *sm;
	char name[BENCH_SWEEP_NAME_MAX + 1];   /* CSV block name */
	int ncols;
	int threads[BENCH_MAX_COLS];
	int npol;
	struct sim_policy pol[SIM_MAX_POLICIES];
	int runs;
	int64_t *v;                                         /* [(p * ncols + c) * runs + r] */
	struct sim_cost_bucket (*cost)[BENCH_MAX_COLS][SIM_COST_KINDS];   /* [p][c][kind], summed */
	/* how to run it (sim_sweep.c) */
	struct sim_config base;      /* every run's configuration but policy, threads and seed */
	uint64_t seed;               /* --seed: each run's seed comes from it */
	FILE *trace;                 /* --trace, or NULL */
	int trace_json;              /* --trace names a .json file: trace-event JSON, not CSV */
	int trace_runs;              /* runs written to it so far */
	uint64_t events;             /* engine events of all runs */
};

static inline int64_t *sim_sample(const struct sim_sweep *sw, int p, int c, int r)
{
	return &sw->v[((size_t)p * (size_t)sw->ncols + (size_t)c) * (size_t)sw->runs + (size_t)r];
}

/* sim_sweep.c */
/* The seed of run r at threads of a sweep seeded with seed: the same for
 * every policy, so policies meet the same tick phases and random numbers. */
uint64_t sim_run_seed(uint64_t seed, int threads, int r);
/* One run of policy p at column c, sample r: its sample, cost and trace
 * kept in sw; 0, or -1 after a line on stderr (no sample). */
int sim_sweep_one(struct sim_sweep *sw, int p, int c, int r);
/* Every run in kernel/bench's order (sample by sample, column by column,
 * policy by policy) by schedsim's own loop, then the tables of
 * sim_report_tables(); 0, or 1 when a run gave no sample. */
int sim_sweep_own(struct sim_sweep *sw);
/* The same plan through kernel/bench's driver (bench_drv_run: its run
 * lines, then bench_drv_report: the seed report's tables, the placement,
 * CSV) on a struct bench_plat of the simulator. words are the plan as
 * `bench sweep` takes it (WORKLOAD --threads ... --policy ... options).
 * 0; 1 when a run failed its check or stopped; 2 when bench's parser
 * refused the plan (its message on stderr). */
int sim_sweep_bench(struct sim_sweep *sw, int nwords, char *const *words);

/* The report's tables: bench_report() of the first policy (the baseline)
 * with up to three others at a time; 0 or -1 (bench printed why). */
int sim_report_tables(const struct sim_sweep *sw);
/* schedsim's summary: medians, Rate(Median) against the baseline, and
 * against the oracle policy when there is one (median and worst run). */
void sim_report_summary(const struct sim_sweep *sw);
/* The seed report's Rate(Median) row (a file of tests/data/seed-report/)
 * beside the simulation's policy 2 against policy 1; 0 or -1 with a
 * message on stderr. */
int sim_report_compare(const struct sim_sweep *sw, const char *table);
/* Work per sched_pickcpu() and per balancer pass (--cost). */
void sim_report_cost(const struct sim_sweep *sw);
/* --trace FILE.json (sim_trace_json.c): the opening of the trace-event
 * JSON, one run's segments (first: the first run written), the closing. */
void sim_trace_json_begin(FILE *f);
void sim_trace_json_run(FILE *f, const struct sim_sweep *sw, int p, int c, int r, const struct sim_result *res,
			int first);
void sim_trace_json_end(FILE *f);
/* One run's placement segments as a CSV block of schema trace/1 in f. */
void sim_trace_write(FILE *f, const struct sim_sweep *sw, int p, int c, int r, const struct sim_result *res);

#endif
