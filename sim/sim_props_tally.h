/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_props_tally.h — the property run's records and totals, shared by
 * sim_props.c (which checks a machine into a record) and
 * sim_props_report.c (which adds the records up in machine order and
 * prints the rules and the summary). Internal to those two files.
 */
#ifndef MOSAIC_SIM_PROPS_TALLY_H
#define MOSAIC_SIM_PROPS_TALLY_H
#include <stdint.h>
#include <sim/sim_props.h>

enum { POL_ULE, POL_HMP, POL_ORACLE, NPOL };
enum { P1, P2, P3, P4, NPROP };

/* P1 of one workload over the run (points: machine and count pairs). */
struct props_wl_tally {
	uint64_t points, failed;
	int32_t *ratio;                           /* hmp / ule × 10000 of each checked point */
	uint64_t *ratio_seed;
	int *ratio_count;
	size_t nratio, cap;
	uint64_t info_points, info_below;         /* where P1 is not checked */
	int64_t info_worst;                       /* lowest hmp/ule there, × 10000 (-1: none yet) */
	uint64_t info_seed;
	int info_count;
	uint64_t one_type_points;                 /* checked points on machines of one core type */
	int64_t one_type_lowest;                  /* their lowest ratio × 10000 (-1: none yet) */
	uint64_t one_type_seed;
	int one_type_count;
};

/* The counts a machine adds to the run's: every member a uint64_t count
 * or an array of them (added member by member). */
struct props_sums {
	uint64_t points[NPROP], failed[NPROP], machines[NPROP], failed_machines[NPROP];
	uint64_t skipped[NPROP];                  /* machines a property does not apply to */
	uint64_t p1_skipped[SIM_PROPS_NP1];       /* P1's, by reason */
	uint64_t wl_machines[SIM_PROPS_NWL], wl_failed_machines[SIM_PROPS_NWL];   /* P1's, per workload */
	uint64_t p3_failed[NPOL], p3_machines[NPOL];
	uint64_t runs, events, nosample;
	uint64_t confirmed;                       /* points judged again on SIM_PROPS_MAX_RUNS runs */
};

/* A point P1 looked at on a machine: the run's figures take it in order. */
struct props_point {
	int64_t ratio;       /* hmp / ule × 10000 */
	int32_t w, count;    /* workload, thread count */
	uint8_t checked;     /* P1 applies there (else it is reported, not checked) */
	uint8_t below;       /* below the workload's threshold */
};

/* What one machine's checks give the run (sent as this head, then np1
 * P1 points, then ntext bytes of its report: empty when nothing failed). */
struct props_record {
	struct props_sums s;
	uint64_t seed;
	uint64_t longest_ns[NPOL];                /* P3's longest stretch per policy, at the first count with it */
	int32_t longest_threads[NPOL];
	int32_t one_type;                         /* a machine of one core type */
	uint64_t np1, ntext;
};

/* Totals over the run. */
struct props_tally {
	struct props_sums s;
	struct props_wl_tally wl[SIM_PROPS_NWL];
	uint64_t longest_ns[NPOL], longest_seed[NPOL];
	int longest_threads[NPOL];
};

/* The policies' names in the report: ule, the candidate (hmp unless
 * --policy names another), oracle. */
extern const char *sim_props_pol_name[NPOL];

/* A run's totals before its first machine. */
void sim_props_tally_init(struct props_tally *t);
/* Adds machine record m and its m->np1 P1 points (points, in the order
 * they were checked; possibly unaligned) to t. Records added in machine
 * order give the totals one process checking every machine gives. */
void sim_props_tally_add(struct props_tally *t, const struct props_record *m, const void *points);

/* What the run checks, before any result (stdout). */
void sim_props_print_rules(const struct sim_props *pr);
/* One summary line per property, and P1's per workload (stdout). */
void sim_props_print_summary(const struct sim_props *pr, const struct props_tally *t);

/* What a workload counts at n ("threads", "thread", "jobs", ...) into buf. */
const char *sim_props_noun(const struct bench_wl *bw, int n, char *buf, size_t len);
/* Nanoseconds as seconds with six decimals into buf. */
const char *sim_props_secs(uint64_t ns, char *buf, size_t len);

#endif
