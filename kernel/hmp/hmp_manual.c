/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hmp_manual.c — hmp's manual provider: sysctls kern.hmp.cpu.N.capacity|
 * perf|eff override what the other providers say for one CPU ("auto"
 * removes the override); kernel/sched/hmp.h has the conventions. Writes
 * come from the shell thread; hmp_provide() and hmp_publish() take hmp's
 * own lock.
 */
#include <lib/sysctl.h>
#include <kern/printk.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <sched/hmp.h>

static const char *const field_names[] = { "capacity", "perf", "eff" };
static const unsigned field_masks[] = { HMP_CAPACITY, HMP_PERF, HMP_EE };

/* How many CPUs hmp knows: the range of the sysctls' "#". */
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
