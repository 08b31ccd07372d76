/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmd_hmp.c — the `hmp` command: the providers and each CPU's capacity,
 * weight and scores. The manual provider's sysctls are in
 * kernel/hmp/hmp_manual.c; kernel/sched/hmp.h has the conventions.
 */
#include <shell/shell.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <emul/machine_desc/machine.h>
#include <sched/hmp.h>

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
