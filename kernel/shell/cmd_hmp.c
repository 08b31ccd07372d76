/*
 * cmd_hmp.c — the `hmp` command and the manual provider: sysctls
 * kern.hmp.cpu.N.capacity|perf|eff override what the other providers say
 * for one CPU ("auto" removes the override). kernel/sched/hmp.h has the
 * conventions.
 */
#include <shell.h>
#include <sysctl.h>
#include <printk.h>
#include <parse.h>
#include <smp.h>
#include <string.h>
#include <machine.h>
#include "../sched/hmp.h"

static const char *const field_names[] = { "capacity", "perf", "eff" };
static const unsigned field_masks[] = { HMP_CAPACITY, HMP_PERF, HMP_EE };

static int hmp_cpu_count(void)
{
	return hmp_ncpu();
}

/* Counts the manual overrides and says so in the provider's status. */
static void manual_status(void)
{
	int n = 0;
	for (int c = 0; c < hmp_ncpu(); c++) {
		int cap, perf, ee;
		if (hmp_provider_values(HMP_PROV_MANUAL, c, &cap, &perf, &ee))
			n++;
	}
	char why[64];
	ksnprintf(why, sizeof(why), n ? "overrides on %d CPU(s) (kern.hmp.cpu.N.*)" : "none set", n);
	hmp_set_status(HMP_PROV_MANUAL, n > 0, why);
}

/* The override of one field of cpu, or "auto". */
static void manual_get(int cpu, int field, char *buf, size_t len)
{
	int v[3];
	unsigned mask = hmp_provider_values(HMP_PROV_MANUAL, cpu, &v[0], &v[1], &v[2]);
	if (mask & field_masks[field])
		ksnprintf(buf, len, "%d", v[field]);
	else
		ksnprintf(buf, len, "auto");
}

/* Sets (a number in range) or removes ("auto") the override, publishes. */
static int manual_set(int cpu, int field, const char *value, char *err, size_t len)
{
	if (strcmp(value, "auto") == 0) {
		hmp_withdraw(HMP_PROV_MANUAL, cpu, field_masks[field]);
	} else {
		uint64_t v;
		char what[48];
		ksnprintf(what, sizeof(what), "kern.hmp.cpu.%d.%s", cpu, field_names[field]);
		if (parse_u64_range(value, field ? 0 : 1, field ? HMP_SCORE_MAX : HMP_CAPACITY_MAX, &v,
				    what, err, len))
			return -1;
		int floor;
		if (field == 0 && !hmp_capacity_fits(cpu, (int)v, &floor)) {
			ksnprintf(err, len, "%s: %lu leaves a CPU more than 16 times slower than the "
				  "fastest, beyond what hmp's weights can tell apart; at least %d", what,
				  v, floor);
			return -1;
		}
		hmp_provide(HMP_PROV_MANUAL, cpu, field_masks[field], (int)v, (int)v, (int)v);
	}
	manual_status();
	hmp_publish();
	return 0;
}

static void cap_get(int cpu, char *buf, size_t len) { manual_get(cpu, 0, buf, len); }
static void perf_get(int cpu, char *buf, size_t len) { manual_get(cpu, 1, buf, len); }
static void ee_get(int cpu, char *buf, size_t len) { manual_get(cpu, 2, buf, len); }
static int cap_set(int cpu, const char *v, char *e, size_t l) { return manual_set(cpu, 0, v, e, l); }
static int perf_set(int cpu, const char *v, char *e, size_t l) { return manual_set(cpu, 1, v, e, l); }
static int ee_set(int cpu, const char *v, char *e, size_t l) { return manual_set(cpu, 2, v, e, l); }

SYSCTL_HANDLER(kern_hmp_capacity, "kern.hmp.cpu.#.capacity", hmp_cpu_count, cap_get, cap_set,
	       "manual capacity of the CPU, 1..1024, or auto");
SYSCTL_HANDLER(kern_hmp_perf, "kern.hmp.cpu.#.perf", hmp_cpu_count, perf_get, perf_set,
	       "manual performance score of the CPU, 0..1020 (0: do not schedule here), or auto");
SYSCTL_HANDLER(kern_hmp_eff, "kern.hmp.cpu.#.eff", hmp_cpu_count, ee_get, ee_set,
	       "manual energy-efficiency score of the CPU, 0..1020, or auto");

/* "P", "E", "LP-E" or "-" for cpu. */
static const char *type_of(int cpu)
{
	unsigned t = smp_cpu_desc((unsigned)cpu)->core_type;
	return t ? machine_core_type_name(t) : "-";
}

/* Short names of the providers for the per-CPU "from" column. */
static const char *const short_names[HMP_NPROV] = { "man", "hfi", "mach", "hwp", "type", "eq" };

static int cmd_hmp(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (hmp_ncpu() == 0)
		return printk("hmp: not started\n"), 1;
	printk("hmp: capacity 64..1024 (fastest = 1024), weight = 256 x slowest / capacity, "
	       "scores 0..1020 (HFI byte x 4), smt = what a second thread on the core adds "
	       "(x 1/1024); generation %llu\n",
	       (unsigned long long)hmp_generation());
	printk("providers, highest first:\n");
	for (int p = 0; p < HMP_NPROV; p++) {
		char why[128];
		int active = hmp_provider_status((enum hmp_provider)p, why, sizeof(why));
		printk("  %-10s %s  %s\n", hmp_provider_name((enum hmp_provider)p),
		       active ? "active  " : "inactive", why);
	}
	if (hmp_all_perf_zero())
		printk("every CPU has perf 0: taken as no information, perf follows capacity, "
		       "no CPU avoided\n");
	printk("CPU type  capacity weight perf   ee  smt  row avoid  gen  from(cap/perf/ee/smt)\n");
	for (int c = 0; c < hmp_ncpu(); c++) {
		struct hmp_cpu r;
		hmp_read(c, &r);
		int row = smp_cpu_desc((unsigned)c)->hfi_row;
		char rowtxt[8];
		ksnprintf(rowtxt, sizeof(rowtxt), row >= 0 ? "%d" : "-", row);
		printk("%3d %-5s %8u %6u %4u %4u %4u %4s %5s %4llu  %s/%s/%s/%s\n", c, type_of(c),
		       r.capacity, r.weight, r.perf, r.ee, r.smt, rowtxt,
		       r.never ? "never" : r.avoid ? "yes" : "no", (unsigned long long)r.generation,
		       short_names[r.capacity_from], short_names[r.perf_from], short_names[r.ee_from],
		       short_names[r.smt_from]);
	}
	return 0;
}
SHELL_COMMAND(hmp, 0, 0, "", "CPU capacities and HFI scores: providers and per-CPU values", cmd_hmp);
