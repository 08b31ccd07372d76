/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_props.h — schedsim's property run (`--properties N`, docs/sim.md
 * "Property run"): generated machines (sim_gen.c) under ule, hmp and the
 * oracle, every workload of kernel/bench's seed documents at thread
 * counts between 1 and 2 × CPUs, with four properties checked per
 * machine, workload and thread count. sim_props_plan.c says what runs
 * (workloads, options, counts) and which properties apply to a machine;
 * sim_props.c runs and checks it, machine by machine (in --procs
 * processes: sim_procs.c); sim_props_report.c adds the machines up and
 * prints the rules and the summary.
 */
#ifndef MOSAIC_SIM_PROPS_H
#define MOSAIC_SIM_PROPS_H
#include <stdint.h>
#include <bench/bench_table.h>
#include <bench/bench_wl.h>
#include <sim/sim.h>
#include <sim/sim_machine.h>

#define SIM_PROPS_MAX_RUNS 15   /* --runs with --properties */
#define SIM_PROPS_NWL 6         /* workloads judged */
#define SIM_PROPS_MAX_COUNTS (2 * MACHINE_MAX_CPUS)

struct sim_props {
	uint64_t first, count;        /* machines first .. first + count - 1 */
	int runs;                     /* --runs: samples per policy and count for every workload (0: the plan's) */
	int ncounts;                  /* --threads: only these counts (0: the plan's) */
	int counts[BENCH_MAX_COLS];
	unsigned workloads;           /* bit w: workload w of sim_props_wls runs (--workload LIST; all) */
	int only;                     /* --workload with one workload: its index, else -1 */
	const uint64_t *only_opt;     /* its options (the plan's, then the command line's) */
	int only_len_given;           /* the command line set its run length itself */
	int control;                  /* --control POLICY: P1 of POLICY against itself under other seeds */
	const char *control_name;     /* its spec (any policy sim_policy_parse() takes) */
	const char *candidate;        /* --policy: the policy in hmp's place (NULL: hmp) */
	struct sim_config base;       /* hz, latencies, --sysctl, the stop (no workload, no options) */
	const char *args;             /* the options that reproduce base on a command line */
	int procs;                    /* --procs: processes that check machines (the report is the same) */
};

/* Runs and checks every machine of pr; prints each failing machine (what
 * failed per workload, the numbers, the commands that reproduce it, the
 * machine as a file between marker lines) as it is found, then one
 * summary line per property and workload. Returns 0 when every property
 * held, 1 otherwise. */
int sim_props_run(const struct sim_props *pr);

/* ---- the plan (sim_props_plan.c) ---- */

/* How the property run runs one workload. */
struct sim_props_wl {
	const char *name;       /* kernel/bench's */
	int min_pct;            /* P1: hmp's median at least this % of ule's */
	const char *len_opt;    /* the option that sets a run's length, or NULL */
	uint64_t len;           /* its value (per P-core of the machine's capacity with per_capacity) */
	int per_capacity;
	int runs;               /* runs per policy and count */
	int counts;             /* SIM_PROPS_COUNTS_* */
};
/* counts: every one 1..2 × CPUs; the shape's (sim_props_counts) up to
 * 2 × CPUs or up to CPUs + 1; 1 and 2 groups */
enum { SIM_PROPS_COUNTS_EVERY, SIM_PROPS_COUNTS_SHAPE, SIM_PROPS_COUNTS_SHAPE_TO_N1, SIM_PROPS_COUNTS_GROUPS };

/* What a machine's description says about the properties that apply. */
enum { SIM_PROPS_P1_APPLIES, SIM_PROPS_P1_RATIO, SIM_PROPS_P1_POWER, SIM_PROPS_NP1 };
struct sim_props_facts {
	int p1_why;             /* SIM_PROPS_P1_*: P1 applies, or why not */
	int bound;              /* the oracle is an upper bound for hmp (P2) */
	unsigned capacity;      /* every CPU busy, in thousandths of a lone P-core thread */
	int one_type;           /* every CPU of one core type, no event: placement cannot matter */
	int cpus, cores, p_cores, p_cpus, scored;   /* counts of the shape (scored: CPUs not at perf 0) */
};

/* The workloads judged, in the order they run and are reported. */
extern const struct sim_props_wl sim_props_wls[SIM_PROPS_NWL];
/* The index of workload name in sim_props_wls, or -1. */
int sim_props_find(const char *name);
/* opt: kernel/bench's defaults of workload w with the plan's run length
 * (per_capacity: its value for a capacity of one P-core). */
void sim_props_defaults(int w, uint64_t *opt);
/* What m says: P1, P2, the capacity and the counts of its shape. */
void sim_props_facts_of(const struct machine *m, struct sim_props_facts *f);
/* The counts workload w runs at on a machine with facts f (the plan's,
 * or the --threads list), each in the workload's range and accepted by its
 * check with options opt, ascending, into out; their number. */
int sim_props_counts(const struct sim_props *pr, int w, const struct sim_props_facts *f, const uint64_t *opt,
		     int *out);

#endif
