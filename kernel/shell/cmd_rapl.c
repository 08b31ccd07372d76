/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_rapl.c — `rapl [MS]`: the RAPL energy counters (rapl.h): where they
 * come from, their units and the energy since boot; with MS, also the
 * energy and average power over the next MS milliseconds of guest time. */
#include <shell/shell.h>
#include <kern/printk.h>
#include <dev/rapl.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>

/* µJ as "J.jjjjjj". */
static void print_joules(const char *what, uint64_t uj)
{
	printk("%s %lu.%06lu J", what, (unsigned long)(uj / 1000000u), (unsigned long)(uj % 1000000u));
}

/* One line of energy: the package, and the cores when PP0 reads. */
static void print_energy(const struct rapl_info *ri, uint64_t pkg, uint64_t pp0)
{
	print_joules("package", pkg);
	if (ri->pp0)
		print_joules(", cores (PP0)", pp0);
}

/* `rapl [MS]` (MS 1..SHELL_MS_MAX). Shell thread. */
static int cmd_rapl(int argc, char **argv)
{
	struct rapl_info ri;
	uint64_t ms = 0, pkg0, pp00;
	if (argc == 2 && shell_arg_u64("rapl", "MS", argv[1], 0, 1, SHELL_MS_MAX, &ms))
		return 1;
	rapl_get_info(&ri);
	if (!ri.present) {
		printk("rapl: not present: %s\n", ri.why);
		return 0;
	}
	printk("rapl: %u package%s, units: energy 2^-%u J, power 2^-%u W, time 2^-%u s; %s\n", ri.packages,
	       ri.packages == 1 ? "" : "s", ri.energy_shift, ri.power_shift, ri.time_shift,
	       ri.emulated ? "emulated from the machine description's power model (docs/hfi.md)"
			   : "hardware counters");
	uint64_t t0, t1;
	rapl_energy_uj(&pkg0, &pp00, &t0);
	printk("rapl: since boot: ");
	print_energy(&ri, pkg0, pp00);
	printk("\n");
	if (!ms)
		return 0;
	uint64_t pkg1, pp01;
	thread_sleep_ns(ms * 1000000ull);
	rapl_energy_uj(&pkg1, &pp01, &t1);
	uint64_t dt = t1 - t0, dpkg = pkg1 - pkg0;
	printk("rapl: over %lu.%03lu s: ", (unsigned long)(dt / 1000000000u),
	       (unsigned long)(dt / 1000000u % 1000u));
	print_energy(&ri, dpkg, pp01 - pp00);
	uint64_t mw = dt ? dpkg * 1000000u / dt : 0;   /* µJ / ns × 10^6 = mW */
	printk(", average %lu.%03lu W\n", (unsigned long)(mw / 1000u), (unsigned long)(mw % 1000u));
	return 0;
}
SHELL_COMMAND(rapl, 0, 1, "[MS]", "energy counters (RAPL): since boot, and over MS ms", cmd_rapl);
