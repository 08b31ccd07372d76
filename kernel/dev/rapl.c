/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rapl.c — the RAPL energy counters (see rapl.h): detection by a guarded
 * read of MSR_RAPL_POWER_UNIT (any vendor: where the MSR does not exist,
 * AMD's parts among them, the read faults and is caught), and per package a 64-bit
 * total of the wrapping 32-bit status MSRs, extended at every read and by
 * a poll on one CPU of the package every RAPL_POLL_S seconds.
 */
#include <kern/printk.h>
#include <dev/rapl.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/spinlock.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>
#include <sync/timer.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/cpu/door.h>

enum { DOM_PKG, DOM_PP0, DOMAINS };

static const uint32_t dom_msr[DOMAINS] = { MSR_PKG_ENERGY_STATUS, MSR_PP0_ENERGY_STATUS };

struct rapl_pkg {
	unsigned cpu;               /* the CPU that reads it */
	uint32_t package_id;
	uint32_t last[DOMAINS];     /* last raw status read */
	uint64_t units[DOMAINS];    /* energy units since rapl_init() */
	uint64_t read_ns;           /* guest time of the last read */
	struct timer poll;
};

/* Guards pkgs[].last and .units (taken with interrupts off: the poll runs
 * in the tick). */
static struct spinlock rapl_lock = SPINLOCK_INIT("rapl");
static struct rapl_pkg pkgs[RAPL_MAX_PACKAGES];
static struct rapl_info info;

/* Reads package p's counters on its CPU (the caller runs there) and adds
 * what they advanced since the last read, modulo 2^32. */
static void pkg_update(struct rapl_pkg *p)
{
	uint64_t flags = spin_lock_irqsave(&rapl_lock);
	for (int d = 0; d < DOMAINS; d++) {
		uint64_t raw;
		if ((d == DOM_PP0 && !info.pp0) || door_rdmsr_safe(dom_msr[d], &raw))
			continue;
		p->units[d] += (uint32_t)((uint32_t)raw - p->last[d]);
		p->last[d] = (uint32_t)raw;
	}
	p->read_ns = time_ns();
	spin_unlock_irqrestore(&rapl_lock, flags);
}

/* The poll timer: extends the package's totals before its counter can
 * wrap twice, and re-arms itself on the same CPU. Tick context. */
static void pkg_poll(void *arg)
{
	struct rapl_pkg *p = arg;
	pkg_update(p);
	timer_arm(&p->poll, (uint64_t)RAPL_POLL_S * 1000000000ull, pkg_poll, p);
}

/* smp_call_on() body: read the package now. */
static void pkg_update_call(void *arg)
{
	pkg_update(arg);
}

/* smp_call_on() body: first read of the package (sets last, the zero of
 * its totals) and its poll. */
static void pkg_start(void *arg)
{
	struct rapl_pkg *p = arg;
	for (int d = 0; d < DOMAINS; d++) {
		uint64_t raw = 0;
		if (d == DOM_PKG || info.pp0)
			door_rdmsr_safe(dom_msr[d], &raw);
		p->last[d] = (uint32_t)raw;
	}
	p->read_ns = time_ns();
	timer_init(&p->poll);
	timer_arm(&p->poll, (uint64_t)RAPL_POLL_S * 1000000000ull, pkg_poll, p);
}

/* The probe on the boot CPU: 0 with info's units and pp0 filled, or -1
 * with info.why. */
static int rapl_probe(void)
{
	uint64_t units, raw;
	if (door_rdmsr_safe(MSR_RAPL_POWER_UNIT, &units)) {
		ksnprintf(info.why, sizeof(info.why), "reading MSR_RAPL_POWER_UNIT (0x606) faulted");
		return -1;
	}
	if (door_rdmsr_safe(MSR_PKG_ENERGY_STATUS, &raw)) {
		ksnprintf(info.why, sizeof(info.why), "reading MSR_PKG_ENERGY_STATUS (0x611) faulted");
		return -1;
	}
	if (!(units & 0x1f00)) {   /* an energy unit of 1 J: no part has it */
		ksnprintf(info.why, sizeof(info.why),
			  "MSR_RAPL_POWER_UNIT (0x606) reads 0x%lx, no energy unit (QEMU's TCG reads MSRs it does "
			  "not know as 0)", (unsigned long)units);
		return -1;
	}
	info.power_shift = units & 0xf;
	info.energy_shift = (units >> 8) & 0x1f;
	info.time_shift = (units >> 16) & 0xf;
	info.pp0 = door_rdmsr_safe(MSR_PP0_ENERGY_STATUS, &raw) == 0;
	return 0;
}

/* See rapl.h. */
void rapl_init(void)
{
	info.emulated = door_emulated();
	if (rapl_probe()) {
		printk("rapl: not present: %s\n", info.why);
		return;
	}
	unsigned n = 0, skipped = 0;
	for (unsigned c = 0; c < smp_cpu_count(); c++) {
		uint32_t id = smp_cpu_desc(c)->package_id;
		unsigned i = 0;
		while (i < n && pkgs[i].package_id != id)
			i++;
		if (i < n)
			continue;
		if (n == RAPL_MAX_PACKAGES) {
			skipped++;
			continue;
		}
		pkgs[n].cpu = c;
		pkgs[n++].package_id = id;
	}
	for (unsigned i = 0; i < n; i++)
		smp_call_on(pkgs[i].cpu, pkg_start, &pkgs[i]);
	info.packages = n;
	info.present = 1;
	printk("rapl: %u package%s%s, energy unit 2^-%u J, PP0 %s%s\n", n, n == 1 ? "" : "s",
	       skipped ? " (more not read)" : "", info.energy_shift, info.pp0 ? "yes" : "no",
	       info.emulated ? " (emulated: the machine's power model)" : "");
}

/* See rapl.h. */
void rapl_get_info(struct rapl_info *out)
{
	*out = info;
}

/* Units of 2^-shift J in µJ, rounded down. */
static uint64_t units_uj(uint64_t units)
{
	return (units * 1000000u) >> info.energy_shift;
}

/* See rapl.h. */
int rapl_energy_uj(uint64_t *pkg_uj, uint64_t *pp0_uj, uint64_t *at_ns)
{
	if (!info.present)
		return -1;
	uint64_t pkg = 0, pp0 = 0, at = 0;
	for (unsigned i = 0; i < info.packages; i++)
		smp_call_on(pkgs[i].cpu, pkg_update_call, &pkgs[i]);
	uint64_t flags = spin_lock_irqsave(&rapl_lock);
	for (unsigned i = 0; i < info.packages; i++) {
		pkg += pkgs[i].units[DOM_PKG];
		pp0 += pkgs[i].units[DOM_PP0];
		at += pkgs[i].read_ns / info.packages;
	}
	spin_unlock_irqrestore(&rapl_lock, flags);
	if (at_ns)
		*at_ns = at;
	*pkg_uj = units_uj(pkg);
	if (pp0_uj)
		*pp0_uj = units_uj(pp0);
	return 0;
}
