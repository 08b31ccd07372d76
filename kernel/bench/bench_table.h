/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_table.h — a sweep's report: the seed report's table layout, what
 * the report lacked, and the same data as CSV blocks.
 *
 * A sweep is one workload run at several thread counts (the columns, the
 * report's "Use Cores") under one to four placement policies, several
 * samples each. The first policy is the baseline: every other policy's
 * table ends with the report's Rate rows against it. docs/bench.md shows
 * the layout and specifies the CSV schemas "sweep/1" and "sweep-summary/1".
 *
 * Portable C, no locks. Everything is validated before the first line is
 * written; a sweep that cannot be represented is refused with one message
 * naming the field and the value, and nothing else is printed.
 */
#ifndef MOSAIC_BENCH_TABLE_H
#define MOSAIC_BENCH_TABLE_H
#include <stddef.h>
#include <stdint.h>
#include <bench/bench_out.h>
#include <bench/bench_stats.h>

#define BENCH_MAX_COLS      16
#define BENCH_MAX_POLICIES  4
#define BENCH_SWEEP_NAME_MAX 40   /* leaves room for ".summary" in a block name */
#define BENCH_POLICY_MAX    64    /* characters of a policy name */
#define BENCH_LABEL_MAX     32    /* characters of a unit or group label */
#define BENCH_DECIMALS_MAX  6
#define BENCH_LINE_MAX      1024

struct bench_sweep {
	const char *name;          /* CSV block name: 1..40 of A-Z a-z 0-9 . _ - */
	const char *unit;          /* e.g. "events": 1..32 characters, none a control character */
	const char *group_label;   /* each policy's heading is "[group_label] policy"; NULL: "Policy" */
	int decimals;              /* samples are value * 10^decimals, 0..6 */
	int ncols;                 /* 1..BENCH_MAX_COLS */
	const int *threads;        /* [ncols]: 1..BENCH_MAX_THREADS */
	int npolicies;             /* 1..BENCH_MAX_POLICIES */
	const char *const *policy; /* [npolicies]: 1..64 characters, none a control character */
	int nsamples;              /* rows of samples: 1..BENCH_MAX_SAMPLES */
	const int *count;          /* [npolicies * ncols]: samples taken, 0..nsamples; NULL: all */
	const int64_t *v;          /* v[(p * ncols + c) * nsamples + s], 0..BENCH_VALUE_MAX */
	uint64_t seed;             /* bootstrap seed; 0: BENCH_BOOTSTRAP_SEED */
};

/* Work space of one report (~47 KiB: kmalloc it, or make it static). */
struct bench_table_scratch {
	struct bench_scratch s;
	struct bench_col col[BENCH_MAX_POLICIES][BENCH_MAX_COLS];   /* n == 0: column not taken */
	struct bench_cmp cmp[BENCH_MAX_POLICIES][BENCH_MAX_COLS];   /* [p][c] against [0][c], p >= 1 */
	char line[BENCH_LINE_MAX];
};

/* Checks every field and sample of sw; 0, or -1 with the reason in why. */
int bench_sweep_check(const struct bench_sweep *sw, char *why, size_t size);
/* Checks sw and computes every statistic into t; 0, or -1 after printing
 * "bench: <reason>" through o. */
int bench_sweep_compute(const struct bench_sweep *sw, const struct bench_out *o, struct bench_table_scratch *t);
/* Prints the tables from t (filled by bench_sweep_compute() for sw). */
void bench_table_print(const struct bench_sweep *sw, const struct bench_out *o, struct bench_table_scratch *t);
/* When the runs of some compared column (t->col, policies 1..npol-1
 * against 0) are too few for a Mann-Whitney p below 0.05, says so in one
 * line: the smallest p they allow and the runs per policy that would do.
 * Else nothing. No locks. */
void bench_note_significance(const struct bench_out *o, const struct bench_table_scratch *t, int npol,
			     int ncols);
/* Prints the CSV blocks NAME (sweep/1) and NAME.summary (sweep-summary/1) from t. */
void bench_table_csv(const struct bench_sweep *sw, const struct bench_out *o, struct bench_table_scratch *t);
/* bench_sweep_compute(), then the tables, then the CSV blocks; 0 or -1. */
int bench_report(const struct bench_sweep *sw, const struct bench_out *o, struct bench_table_scratch *t);

#endif
