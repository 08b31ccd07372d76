/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_drv.h — running a benchmark plan: one workload at one or more
 * thread counts under one to four placement policies, every configuration
 * several times, alternating the policies run by run (A B A B ...) so that
 * drift over time falls on all of them alike; then the report: the seed
 * report's tables (or a compact table), the statistics it lacked, where
 * the work ran, and CSV blocks (docs/bench.md).
 *
 * Portable C: the kernel's `bench` command (kernel/shell/cmd_bench.c) and
 * the simulator drive it through struct bench_plat, which applies and
 * restores policies and runs the workload. No locks: a plan, its data and
 * the platform belong to one caller.
 */
#ifndef MOSAIC_BENCH_DRV_H
#define MOSAIC_BENCH_DRV_H
#include <stddef.h>
#include <stdint.h>
#include <bench/bench_out.h>
#include <bench/bench_table.h>
#include <bench/bench_wl.h>

#define BENCH_RUNS_MAX        1024   /* --runs */
#define BENCH_TOTAL_RUNS_MAX  4096   /* runs x thread counts x policies */
#define BENCH_POLICY_NAME_MAX 24     /* characters of a policy name, with the NUL */
#define BENCH_DEFAULT_POLICIES "ule,hmp"
#define BENCH_DEFAULT_RUNS    3      /* `bench WORKLOAD` */
#define BENCH_SWEEP_RUNS      12     /* `bench sweep WORKLOAD`: the seed report's 12 */

struct bench_plan {
	const struct bench_wl *wl;
	uint64_t opt[BENCH_WL_OPT_MAX];
	int ncols;
	int threads[BENCH_MAX_COLS];
	int npol;
	char policy[BENCH_MAX_POLICIES][BENCH_POLICY_NAME_MAX];
	int runs;
	int sweep;            /* 1: the seed report's layout; 0: the compact table */
};

/* What one run left besides its sample. */
struct bench_run_rec {
	int recorded;         /* 1: the run completed (its placement is known) */
	int taken;            /* 1: a sample (completed, check passed) */
	int check_ok;
	int64_t value;
	int64_t extra[BENCH_WL_EXTRA_MAX];
	int64_t lat[BENCH_WL_LAT_MAX][BENCH_LAT_PCTS];
	uint64_t run_ns, run_ns_type[4], run_ns_shared, migrations;
	int64_t hfi_updates;  /* -1: not known */
	int64_t energy_uj;    /* the run's energy; -1: not known */
	uint64_t elapsed_ns;
	uint16_t end_type[4]; /* threads whose last CPU had each core type */
	unsigned nthreads;
};

/* A plan's results: index (sample x ncols + col) x npol + policy is the
 * order runs are taken in; samples for the report are kept per column. */
struct bench_data {
	int total;            /* runs planned */
	int done;             /* runs finished (taken or not) */
	int stopped;          /* the user stopped the plan */
	int failed;           /* a run failed its check, or a policy could not be set */
	uint64_t start_ns, end_ns;
	int count[BENCH_MAX_POLICIES * BENCH_MAX_COLS];   /* samples taken per column */
	int64_t *v;           /* [npol * ncols * runs], the report's layout */
	struct bench_run_rec *rec;   /* [total], in the order taken */
	struct bench_table_scratch *scratch;
};

/* The platform: how to set policies and run a workload. */
struct bench_plat {
	void *arg;
	/* Sets policy `name` (one the plan named); 0, or -1 with a reason. */
	int (*apply)(void *arg, const char *name, char *err, size_t len);
	/* Puts back every setting apply() changed; 0, or -1 with a reason. */
	int (*restore)(void *arg, char *err, size_t len);
	/* Runs wl once into res (zeroed), with res->energy_uj (-1 when the
	 * platform cannot meter energy) and res->elapsed_ns; returns 1 when
	 * the user asked to stop during the run (res is then partial), else 0. */
	int (*run)(void *arg, const struct bench_wl *wl, const uint64_t *opt, int threads,
		   struct bench_result *res);
	/* Core type (enum cpu_core_type: 0 other, 1 P, 2 E, 3 LP-E) of cpu. */
	int (*cpu_type)(void *arg, int cpu);
	/* HFI table updates seen so far, or -1 when there is no HFI. */
	int64_t (*hfi_updates)(void *arg);
	/* 1: work is counted by an emulated machine's work clock (the model);
	 * 0: real time (docs/bench.md, "Model or real time"). */
	int work_clock;
	/* 1: a simulated machine on the host (schedsim): times are simulated
	 * time, nothing stops a plan early; 0: the kernel, where a key does. */
	int simulated;
};

/* Fills pl from the words after `bench` (or `bench sweep`): WORKLOAD, then
 * --threads LIST, --runs N, --policy LIST and the workload's options, each
 * as `--NAME VALUE` or `--NAME=VALUE`, each at most once. Every value is
 * checked (range, list length, duplicates, the workload's own checks at
 * every thread count); known(arg, name) says whether a policy exists.
 * 0, or -1 with a one-line reason in err (pl is then unusable). */
int bench_plan_parse(struct bench_plan *pl, int sweep, int argc, char *const *argv,
		     int (*known)(void *arg, const char *name), void *arg, char *err, size_t len);
/* Runs planned for pl. */
int bench_plan_total(const struct bench_plan *pl);
/* Allocates d for pl (brt_calloc); 0, or -1 when there is no memory. */
int bench_data_init(struct bench_data *d, const struct bench_plan *pl);
void bench_data_free(struct bench_data *d);

/* Runs the plan, printing a progress line before and a result line after
 * every run through o. Stops at the first stop request, failed policy
 * change or check failure is reported and the plan continues. */
void bench_drv_run(const struct bench_plan *pl, const struct bench_plat *pf, const struct bench_out *o,
		   struct bench_data *d);
/* The report of whatever d holds (all runs, or those before a stop);
 * csv 0 leaves out the CSV blocks (the tables again, for a screen). */
void bench_drv_report(const struct bench_plan *pl, const struct bench_plat *pf,
		      const struct bench_out *o, struct bench_data *d, int csv);

/* ---- between bench_drv*.c ---- */

/* Column (thread count) and policy of run index i (in the order taken). */
void bench_drv_run_pos(const struct bench_plan *pl, int i, int *sample, int *col, int *pol);
/* bench_drv_energy.c: the run's energy line (nothing when unknown); the
 * [Energy] table of medians against policy A; CSV NAME.energy (energy/1),
 * one row per completed run. */
void bench_drv_energy_line(const struct bench_plan *pl, const struct bench_out *o,
			   const struct bench_run_rec *r);
void bench_drv_energy_report(const struct bench_plan *pl, const struct bench_out *o,
			     const struct bench_data *d);
void bench_drv_energy_csv(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d);
/* Median of v[0..n) (sorted in place), rounded half up; BENCH_NA if n is 0. */
int64_t bench_drv_median(int64_t *v, int n);
/* 1 if run i was taken under policy pol at column col. */
int bench_drv_run_is(const struct bench_plan *pl, int i, int pol, int col);
/* "m:ss" or "h:mm:ss" of ns into buf. */
void bench_drv_duration(char *buf, size_t len, uint64_t ns);
/* The value x 10^decimals as text (BENCH_NA as "-"). */
void bench_drv_fixed(char *buf, size_t len, int64_t v, int decimals);

#endif
