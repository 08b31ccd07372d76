/*
 * cmd_sched.c — the `sched` command (schedstats) and the kern.sched.*
 * sysctls of the ULE core's tunables (kernel/sched/ule_tunables.c, where
 * each is documented). Names, meanings and defaults are those of FreeBSD's
 * kern.sched.* sysctls in sys/kern/sched_ule.c (the FreeBSD 14 generation),
 * with the hz-derived defaults recomputed for hz = 100 (docs/sched.md).
 */
#include <shell.h>
#include <sysctl.h>
#include <printk.h>
#include <smp.h>
#include <string.h>
#include "../sched/ule.h"
#include "cpulist.h"

static char sched_name[] = "ULE";
SYSCTL_STRING(kern_sched_name, "kern.sched.name", sched_name, sizeof(sched_name), 0,
	      "scheduler in use");
SYSCTL_INT(kern_sched_slice, "kern.sched.slice", &sched_slice, 1, 1, 1000,
	   "time slice in ticks (default hz/10)");
SYSCTL_INT(kern_sched_interact, "kern.sched.interact", &sched_interact, 1, 0, 100,
	   "interactivity score threshold (default 30)");
SYSCTL_INT(kern_sched_preempt_thresh, "kern.sched.preempt_thresh", &preempt_thresh, 1, 0, 256,
	   "priorities at or below it preempt (default PRI_MIN_KERN 48; 0 off)");
SYSCTL_INT(kern_sched_static_boost, "kern.sched.static_boost", &static_boost, 1, 0, 255,
	   "priority a sleeping timeshare thread is raised to (default PRI_MIN_BATCH 136)");
SYSCTL_INT(kern_sched_idlespins, "kern.sched.idlespins", &sched_idlespins, 1, 0, 1000000,
	   "idle loop spins before halting (default 10000)");
SYSCTL_INT(kern_sched_idlespinthresh, "kern.sched.idlespinthresh", &sched_idlespinthresh, 1, 0,
	   1000000, "switch count above which the idle loop spins (default 2*max(10000,6*hz)/hz)");
SYSCTL_INT(kern_sched_affinity, "kern.sched.affinity", &sched_affinity_ticks, 1, 0, 10000,
	   "ticks per cache level a thread stays cache-warm (default max(1, hz/1000))");
SYSCTL_INT(kern_sched_balance, "kern.sched.balance", &rebalance, 1, 0, 1,
	   "run the periodic load balancer (default 1)");
SYSCTL_INT(kern_sched_balance_interval, "kern.sched.balance_interval", &balance_interval, 1, 1,
	   100000, "average ticks between balancer runs (default hz)");
SYSCTL_INT(kern_sched_steal_idle, "kern.sched.steal_idle", &steal_idle, 1, 0, 1,
	   "idle CPUs steal queued threads (default 1)");
SYSCTL_INT(kern_sched_steal_thresh, "kern.sched.steal_thresh", &steal_thresh, 1, 1, 1000,
	   "least load of a CPU to steal from (default 2)");
SYSCTL_INT(kern_sched_trysteal_limit, "kern.sched.trysteal_limit", &trysteal_limit, 1, 0, 16,
	   "topology levels the steal before idling searches (default 2; 0 off)");
SYSCTL_INT(kern_sched_always_steal, "kern.sched.always_steal", &always_steal, 1, 0, 1,
	   "idle loop tries to steal every round (default 0)");
SYSCTL_INT(kern_sched_debug, "kern.sched.debug", &sched_debug, 1, 0, 1,
	   "check the run-queue invariants after every change (default 0)");

/* A choice among names: its index in names[], or -1 with a message. */
static int choose(const char *what, const char *value, const char *const *names, int n, char *err,
		  size_t len)
{
	for (int i = 0; i < n; i++)
		if (strcmp(value, names[i]) == 0)
			return i;
	ksnprintf(err, len, "%s: '%.32s' is not one of %s|%s", what, value, names[0], names[1]);
	return -1;
}

static const char *const policy_names[] = { "ule", "hmp" };

static void policy_get(int index, char *buf, size_t len)
{
	(void)index;
	ksnprintf(buf, len, "%s", policy_names[sched_policy == SCHED_POLICY_HMP]);
}

/* Switches every placement decision at once; each decision reads the
 * policy once, so a switch under load is safe (docs/hmp.md). */
static int policy_set(int index, const char *value, char *err, size_t len)
{
	(void)index;
	int p = choose("kern.sched.policy", value, policy_names, 2, err, len);
	if (p < 0)
		return -1;
	__atomic_store_n(&sched_policy, p, __ATOMIC_RELAXED);
	return 0;
}
SYSCTL_HANDLER(kern_sched_policy, "kern.sched.policy", NULL, policy_get, policy_set,
	       "placement: ule (stock) or hmp (capacity- and HFI-aware, kern.sched.hmp.*)");

static const char *const metric_names[] = { "perf", "ee" };

static void metric_get(int index, char *buf, size_t len)
{
	(void)index;
	ksnprintf(buf, len, "%s", metric_names[hmp_metric == HMP_METRIC_EE]);
}

static int metric_set(int index, const char *value, char *err, size_t len)
{
	(void)index;
	int m = choose("kern.sched.hmp.metric", value, metric_names, 2, err, len);
	if (m < 0)
		return -1;
	__atomic_store_n(&hmp_metric, m, __ATOMIC_RELAXED);
	return 0;
}
SYSCTL_HANDLER(kern_sched_hmp_metric, "kern.sched.hmp.metric", NULL, metric_get, metric_set,
	       "score hmp steers by: perf (performance) or ee (energy efficiency)");
SYSCTL_INT(kern_sched_hmp_weight, "kern.sched.hmp.weight", &hmp_sw_weight, 1, 0, 1,
	   "(a) a thread weighs 256 x slowest capacity / capacity instead of 256 (default 1)");
SYSCTL_INT(kern_sched_hmp_normalize, "kern.sched.hmp.normalize", &hmp_sw_normalize, 1, 0, 1,
	   "(b) groups of different sizes compared per CPU (default 1)");
SYSCTL_INT(kern_sched_hmp_smt, "kern.sched.hmp.smt", &hmp_sw_smt, 1, 0, 1,
	   "(c) busy SMT groups penalised by 128 x capacity / 1024, propagated up (default 1)");
SYSCTL_INT(kern_sched_hmp_steer, "kern.sched.hmp.steer", &hmp_sw_steer, 1, 0, 1,
	   "(d) each CPU's load lowered by its score / 4 (default 1)");
SYSCTL_INT(kern_sched_hmp_random, "kern.sched.hmp.random", &hmp_sw_random, 1, 0, 1,
	   "(e) lowest's random tie break below score / 4 instead of half a thread (default 1)");
SYSCTL_INT(kern_sched_hmp_highest_random, "kern.sched.hmp.highest_random", &hmp_sw_highest_random,
	   1, 0, 1, "(f) highest's random tie break below the CPU's weight instead of 256 (default 1)");
SYSCTL_INT(kern_sched_hmp_smt_steer, "kern.sched.hmp.smt_steer", &hmp_sw_smt_steer, 1, 0, 1,
	   "half the steering on a CPU whose SMT sibling is busy (beyond the report; default 1)");
SYSCTL_INT(kern_sched_hmp_audit, "kern.sched.hmp.audit", &hmp_audit, 1, 0, 1,
	   "count placements steering changed (hmp_steered; one more search each; default 0)");
SYSCTL_INT(kern_sched_hmp_best, "kern.sched.hmp.best", &hmp_sw_best, 1, 0, 1,
	   "best-CPU searches: free CPUs by what they add, groups by their best CPU (beyond the "
	   "report; default 1; 0: the report's (a)-(f) searches)");
SYSCTL_INT(kern_sched_hmp_latency, "kern.sched.hmp.latency", &hmp_sw_latency, 1, 0, 1,
	   "interactive threads count CPUs they would preempt as free (beyond the report; default 1)");
SYSCTL_INT(kern_sched_hmp_balance_stats, "kern.sched.hmp.balance_stats", &hmp_balance_stats, 1, 0, 1,
	   "balancer: receivers narrowed once per donor from per-pass statistics (default 1)");
SYSCTL_INT(kern_sched_hmp_class_aware, "kern.sched.hmp.class_aware", &hmp_class_aware, 1, 0, 1,
	   "interactive threads kept to the fastest CPUs (beyond the report; default 0)");
SYSCTL_INT(kern_sched_hmp_upmigrate, "kern.sched.hmp.upmigrate", &hmp_upmigrate, 1, 0, 1,
	   "an idle faster core takes a lone running thread from a slower one (default 1)");

static const char *const perf0_names[] = { "sdm", "strict", "overflow" };

static void perf0_get(int index, char *buf, size_t len)
{
	(void)index;
	int v = (int)__atomic_load_n(&hmp_perf0, __ATOMIC_RELAXED);
	ksnprintf(buf, len, "%s", perf0_names[v >= 0 && v < 3 ? v : 0]);
}

static int perf0_set(int index, const char *value, char *err, size_t len)
{
	(void)index;
	for (int v = 0; v < 3; v++)
		if (strcmp(value, perf0_names[v]) == 0) {
			__atomic_store_n(&hmp_perf0, v, __ATOMIC_RELAXED);
			return 0;
		}
	ksnprintf(err, len, "kern.sched.hmp.perf0: '%.32s' is not one of sdm|strict|overflow", value);
	return -1;
}
SYSCTL_HANDLER(kern_sched_hmp_perf0, "kern.sched.hmp.perf0", NULL, perf0_get, perf0_set,
	       "HFI perf 0: sdm (overflow; with ee 0 never), strict (never, the report) or "
	       "overflow (overflow whatever ee)");

static const char *const primary_names[] = { "all", "performance", "efficiency" };

static void primary_get(int index, char *buf, size_t len)
{
	(void)index;
	int kind = (int)sched_primary_kind;
	if (kind == SCHED_PRIMARY_LIST)
		topo_cpulist(&sched_primary_list, buf, len);
	else
		ksnprintf(buf, len, "%s", primary_names[kind]);
}

/* all, performance, efficiency, or a CPU list of this machine. */
static int primary_set(int index, const char *value, char *err, size_t len)
{
	(void)index;
	for (int k = 0; k < 3; k++)
		if (strcmp(value, primary_names[k]) == 0) {
			__atomic_store_n(&sched_primary_kind, k, __ATOMIC_RELAXED);
			return 0;
		}
	struct cpuset list;
	char why[96];
	if (cpulist_parse(value, smp_cpu_count(), &list, why, sizeof(why))) {
		ksnprintf(err, len, "kern.sched.primary: '%.40s' is not all, performance, efficiency or a "
			  "CPU list (%s)", value, why);
		return -1;
	}
	if (cpuset_empty(&list)) {
		ksnprintf(err, len, "kern.sched.primary: the list names no CPU");
		return -1;
	}
	sched_primary_list = list;
	__atomic_store_n(&sched_primary_kind, SCHED_PRIMARY_LIST, __ATOMIC_RELEASE);
	return 0;
}
SYSCTL_HANDLER(kern_sched_primary, "kern.sched.primary", NULL, primary_get, primary_set,
	       "primary domain: all, performance, efficiency or a CPU list (placed there while "
	       "one is idle, then overflow)");

/* kern.sched.quantum: the slice in microseconds (read-only; write kern.sched.slice). */
static void quantum_proc(char *buf, size_t len)
{
	ksnprintf(buf, len, "%ld", (long)(1000000 / sched_hz() * sched_slice));
}
SYSCTL_PROC(kern_sched_quantum, "kern.sched.quantum", quantum_proc,
	    "time slice in microseconds (from kern.sched.slice)");

/* Last snapshot per CPU for `sched stats diff`; shell context only. */
static struct sched_stats snap[MAXCPU];

/* Prints one counter set; times in ms. */
static void print_stats(const struct sched_stats *st)
{
	const uint64_t *v = (const uint64_t *)st;
	for (unsigned i = 0; i < SCHED_STATS_NFIELDS; i++) {
		uint64_t x = v[i];
		const char *unit = "";
		if (&v[i] == &st->run_ns || &v[i] == &st->wait_ns) {
			x /= 1000000;
			unit = " ms";
		}
		printk("  %-20s %lu%s\n", sched_stats_names[i], (unsigned long)x, unit);
	}
}

/* dst = a - b, counter by counter. */
static void stats_sub(struct sched_stats *dst, const struct sched_stats *a, const struct sched_stats *b)
{
	uint64_t *d = (uint64_t *)dst;
	const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
	for (unsigned i = 0; i < SCHED_STATS_NFIELDS; i++)
		d[i] = x[i] - y[i];
}

/* Prints per-CPU (percpu) or summed counters, as deltas since the last
 * snapshot when diff; always refreshes the snapshot. */
static void show_stats(int percpu, int diff)
{
	int n = sched_ncpu();
	struct sched_stats sum = { 0 }, cur, d;
	uint64_t *s = (uint64_t *)&sum;
	for (int cpu = 0; cpu < n && cpu < MAXCPU; cpu++) {
		sched_stats_cpu(cpu, &cur);
		if (diff)
			stats_sub(&d, &cur, &snap[cpu]);
		else
			d = cur;
		snap[cpu] = cur;
		const uint64_t *dv = (const uint64_t *)&d;
		for (unsigned i = 0; i < SCHED_STATS_NFIELDS; i++)
			s[i] += dv[i];
		if (percpu) {
			printk("cpu %d: load %d lowpri %d transferable %d\n", cpu, sched_cpu_load(cpu),
			       sched_cpu_lowpri(cpu), sched_cpu_transferable(cpu));
			print_stats(&d);
		}
	}
	printk("all %d CPUs%s:\n", n, diff ? " (since last)" : "");
	print_stats(&sum);
}

/* sched stats [-c] [reset|diff] */
static int cmd_sched(int argc, char **argv)
{
	int percpu = 0, diff = 0, reset = 0;
	if (strcmp(argv[1], "stats") != 0) {
		printk("sched: unknown subcommand '%s'\n", argv[1]);
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-c"))
			percpu = 1;
		else if (!strcmp(argv[i], "diff"))
			diff = 1;
		else if (!strcmp(argv[i], "reset"))
			reset = 1;
		else {
			printk("sched: unknown argument '%s'\n", argv[i]);
			return 1;
		}
	}
	if (sched_ncpu() == 0) {
		printk("sched: scheduler not running\n");
		return 1;
	}
	if (reset) {
		sched_stats_reset();
		memset(snap, 0, sizeof(snap));
		printk("sched: statistics reset\n");
		return 0;
	}
	show_stats(percpu, diff);
	return 0;
}
SHELL_COMMAND(sched, 1, 3, "stats [-c] [reset|diff]",
	      "scheduler statistics: summed, per CPU (-c), since last (diff), or zero them", cmd_sched);
