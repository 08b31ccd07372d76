/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmd_sched.c — the `sched` command: the scheduler's statistics
 * (schedstats), summed or per CPU; `sched trace` is cmd_sched_trace.c.
 * The kern.sched.* sysctls are in kernel/thread/sched_sysctl.c.
 */
#include <shell/shell.h>
#include <shell/cmd_sched.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <sched/ule.h>

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

/* sched stats [-c] [reset|diff] | sched trace ... */
static int cmd_sched(int argc, char **argv)
{
	int percpu = 0, diff = 0, reset = 0;
	if (!strcmp(argv[1], "trace"))
		return cmd_sched_trace(argc, argv);
	if (strcmp(argv[1], "stats") != 0) {
		printk("sched: unknown subcommand '%s' (expected stats or trace)\n", argv[1]);
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
SHELL_COMMAND(sched, 1, 3, "stats [-c] [reset|diff] | trace [on [SIZE] | off | dump]",
	      "scheduler statistics: summed, per CPU (-c), since last (diff), or zero them; trace: a "
	      "per-CPU ring of SIZE (16..262144, default 4096) switch, wake-up, migration and HFI "
	      "events, its status, or its CSV dump", cmd_sched);
