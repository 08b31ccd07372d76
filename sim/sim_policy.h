/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_policy.h — placement policies of schedsim and the kernel variables
 * they set.
 *
 * A policy is a name and options, e.g. "hmp:steer=0:primary=performance".
 * The names are the kernel's `bench` policies (docs/bench.md, the same
 * named sets of kern.sched.* variables, and every registered placement
 * policy under its own name) and two that exist only here:
 *   ule, hmp, hmp-no-d, hmp-no-upmigrate, hmp-report, hmp+class, primary-p,
 *   primary-e, mic, linux, bpfland, fastest, ...   as `bench policies`
 *               lists them (every run starts from the kernel's defaults,
 *               then the policy's settings)
 *   oracle   the best static placement of a CPU-bound load: the k-th thread
 *            the workload spawns is pinned to the k-th CPU of the machine's
 *            order of marginal throughput (sim_oracle_order), modulo the CPUs
 *   random   the k-th spawned thread pinned to a random permutation of the
 *            CPUs (from the run's seed), modulo the CPUs
 * Options (each at most once, also not one the name already sets): the
 * last component of each kern.sched.hmp.* switch and of kern.sched.primary
 * (steer=0, metric=ee, primary=performance, ...; `schedsim --list`).
 * Oracle and random place with ULE. --sysctl NAME=VALUE sets any
 * kern.sched.* variable but kern.sched.policy for every run.
 */
#ifndef MOSAIC_SIM_POLICY_H
#define MOSAIC_SIM_POLICY_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <emul/machine_desc/machine.h>
#include <sched/topo.h>

#define SIM_POLICY_NAME_MAX 64   /* = BENCH_POLICY_MAX: it names a report column */
#define SIM_POLICY_MAX_OPTS 16

/* SCHED: a registered placement policy (kernel/sched/sched_policy_list.def)
 * with options; ORACLE, RANDOM: pinned, placed by ULE. */
enum sim_policy_kind { SIM_POL_SCHED, SIM_POL_ORACLE, SIM_POL_RANDOM };

struct sched_var;   /* one kern.sched.* variable (kernel/sched/sched_vars.h) */
struct sim_setting {
	const struct sched_var *var;
	int64_t value;
};

struct sim_policy {
	char name[SIM_POLICY_NAME_MAX + 1];   /* the spec as given */
	int kind;                             /* enum sim_policy_kind */
	int sched;                            /* kern.sched.policy's value (ULE's for pinned ones) */
	int nopts;
	struct sim_setting opt[SIM_POLICY_MAX_OPTS];
};

/* Parses spec into *p; 0, or -1 with a message naming the spec and the
 * word in err. */
int sim_policy_parse(const char *spec, struct sim_policy *p, char *err, size_t len);
/* Parses "kern.sched.NAME=VALUE" into *s; 0 or -1 with a message. */
int sim_sysctl_parse(const char *spec, struct sim_setting *s, char *err, size_t len);

/* Remembers the kernel variables' defaults (before the first run). */
void sim_tunables_save(void);
/* Puts them back (before each run). */
void sim_tunables_restore(void);
/* Sets one variable. */
void sim_setting_apply(const struct sim_setting *s);
/* kern.sched.policy and p's options. */
void sim_policy_apply(const struct sim_policy *p);

/* Per run: the pinning order of oracle / random on m with the run's seed. */
void sim_policy_prepare(const struct sim_policy *p, const struct machine *m, uint64_t seed);
/* The CPU mask of the k-th thread the workload spawns: buf set to one CPU
 * (oracle, random) and returned, or NULL (every CPU). */
const struct cpuset *sim_policy_pin(const struct sim_policy *p, int k, struct cpuset *buf);
/* CPUs of m from the largest to the smallest throughput one more CPU-bound
 * thread adds there (a lone P thread 1.0, an E-core 0.54, a second SMT
 * thread 1.39 - 1.0 = 0.39 on the i7-1370P model; ties by CPU number). */
void sim_oracle_order(const struct machine *m, int *order);
/* Prints the policies, their options and the variables (--list). */
void sim_policy_list(FILE *f);
/* --vars-markdown ule|hmp|peers|policies: the variables table of
 * docs/sched.md (ule: the ULE core's tunables), docs/hmp.md (hmp:
 * kern.sched.policy, the hmp switches, kern.sched.primary) or
 * docs/policies.md (peers: the peer policies' tunables), from the variable
 * table, or the named policies' table of docs/bench.md; -1 for another
 * word. */
int sim_vars_markdown(FILE *f, const char *which);

#endif
