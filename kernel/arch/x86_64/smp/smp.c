/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smp.c — the logical CPUs: numbering them from the MADT and starting them
 * (what the rest of the kernel may ask about them is smp_cpus.c's).
 *
 * Logical CPU 0 is the boot CPU, whatever its APIC id (Meteor Lake's is
 * 0x20, ids are sparse); the other enabled processors of the MADT follow
 * in MADT order (acpi_madt.c: online-capable and disabled entries are not
 * started, an id listed twice counts once). At most
 * MAXCPU (256) CPUs are used: the per-CPU records, GDTs and TSSs are static
 * arrays of that size (see docs/smp.md). Extra CPUs of the MADT stay
 * offline with a warning.
 *
 * An AP gets SMP_AP_WAIT_MS after its start-up IPIs to report online
 * (Linux waits 10 s for a sign of life, FreeBSD's start_ap 5 s: a real AP
 * takes microseconds, but under QEMU's TCG guest time is host time and a
 * loaded host may not run the AP's thread for a long while). One that has
 * not even entered the kernel by then gets a second INIT-SIPI-SIPI (a lost
 * start-up IPI); one that entered gets a second wait instead, since an
 * INIT in the middle of its set-up could leave a lock held. An AP still
 * not online after that is sent INIT and left offline, with a message.
 * The system goes on either way.
 */
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/smp/smp_boot.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/intr/ipi.h>
#include <arch/x86_64/intr/nmi.h>
#include <arch/x86_64/intr/lapic.h>
#include <arch/x86_64/trap/trap.h>
#include <arch/x86_64/acpi/acpi.h>
#include <arch/x86_64/cpu/cpu_enum.h>
#include <lib/cmdline.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/sysctl.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/cpu/cpu.h>

#define SMP_AP_WAIT_MS 5000
#define SMP_AP_STACK_PAGES 4
#define SMP_IST_PAGES 2


/* Give logical ids to the MADT's CPUs: the boot CPU is 0, the others
 * follow in MADT order, up to MAXCPU and the `maxcpus=` command-line
 * limit. */
static void smp_number_cpus(uint32_t bsp_apic_id)
{
	const struct acpi_madt_info *m = acpi_madt();
	unsigned limit = MAXCPU;
	uint64_t v;
	if (cmdline_number("maxcpus", &v) == 0)   /* 1..MAXCPU; a bad value was reported */
		limit = (unsigned)v;
	unsigned total = m->cpu_total;
	int bsp_listed = 0;
	for (int i = 0; i < m->cpu_count; i++)
		bsp_listed |= m->cpu_apic_ids[i] == bsp_apic_id;
	if (!bsp_listed) {
		printk("smp: the boot CPU's APIC id 0x%x is not an enabled MADT processor; "
		       "counting it anyway\n", bsp_apic_id);
		total++;
	}
	unsigned cpu_count = 1;   /* the boot CPU is 0 */
	for (int i = 0; i < m->cpu_count && cpu_count < limit; i++) {
		if (m->cpu_apic_ids[i] == bsp_apic_id)
			continue;
		struct percpu *p = percpu_get(cpu_count);
		p->cpu = cpu_count;
		p->apic_id = m->cpu_apic_ids[i];
		cpu_count++;
	}
	smp_cpus_set_count(cpu_count);
	if (total > MAXCPU)
		printk("smp: warning: the MADT lists %u CPUs; only %u (MAXCPU) are used, "
		       "the rest stay offline\n", total, MAXCPU);
	else if (total > cpu_count)
		printk("smp: maxcpus=%u: %u CPUs stay offline\n", limit, total - cpu_count);
}

/* The IST stacks of p, with guard pages; 0, or -1 when out of memory. */
static int smp_alloc_ist(struct percpu *p)
{
	for (int i = 0; i < IST_COUNT; i++) {
		void *top = kstack_alloc(SMP_IST_PAGES);
		if (!top)
			return -1;
		p->ist_top[i] = (uint64_t)top;
	}
	return 0;
}

/* 1 when p reports online within SMP_AP_WAIT_MS, else 0. Boot CPU. */
static int smp_wait_online(struct percpu *p)
{
	uint64_t start = time_ns();
	while (!__atomic_load_n(&p->online, __ATOMIC_ACQUIRE)) {
		if (time_ns() - start > SMP_AP_WAIT_MS * 1000000ull)
			return 0;
		cpu_pause();
	}
	return 1;
}

/* How many of CPU 1's start-up sequences go without their start-up IPIs
 * (smp_lose_startup=, a planted lost start-up): 0 normally. */
static unsigned smp_lost_startups(unsigned cpu)
{
	uint64_t v;
	return cpu == 1 && cmdline_number("smp_lose_startup", &v) == 0 ? (unsigned)v : 0;
}

/* Start logical CPU cpu, a second time when the first start-up left no
 * sign of life (see the header); reports what it did. Returns 1 when the
 * CPU is online. Boot CPU, interrupts off. */
static int smp_start_one(unsigned cpu)
{
	struct percpu *p = percpu_get(cpu);
	void *stack = kstack_alloc(SMP_AP_STACK_PAGES);
	if (!stack || smp_alloc_ist(p)) {
		printk("smp: out of memory for the stacks of cpu %u (APIC id %u); left offline\n",
		       cpu, p->apic_id);
		return 0;
	}
	p->stack_top = (uint64_t)stack;
	unsigned lost = smp_lost_startups(cpu);
	smp_boot_send_startup(p, lost < 1);
	if (smp_wait_online(p))
		return 1;
	if (__atomic_load_n(&p->entered, __ATOMIC_ACQUIRE)) {
		printk("smp: cpu %u (APIC id %u) entered the kernel but is not online after %u ms; "
		       "waiting %u ms more\n", cpu, p->apic_id, SMP_AP_WAIT_MS, SMP_AP_WAIT_MS);
	} else {
		printk("smp: cpu %u (APIC id %u) gave no sign of life %u ms after its start-up IPIs; "
		       "starting it again\n", cpu, p->apic_id, SMP_AP_WAIT_MS);
		smp_boot_send_startup(p, lost < 2);   /* its INIT resets whatever the first left */
	}
	if (smp_wait_online(p))
		return 1;
	smp_boot_stop(p);
	printk("smp: cpu %u (APIC id %u) did not come online within %u ms; left offline\n", cpu,
	       p->apic_id, 2 * SMP_AP_WAIT_MS);
	return 0;
}

/* See smp.h. Runs with interrupts off. */
void smp_start_aps(void)
{
	struct percpu *bsp = percpu_get(0);
	uint64_t slowest_ns = 0;   /* the longest start of a CPU that came online */
	unsigned slowest = 0;
	bsp->apic_id = lapic_id();
	if (smp_alloc_ist(bsp) == 0) {   /* guarded IST stacks replace the static ones */
		for (int i = 0; i < IST_COUNT; i++)
			gdt_set_ist(0, (unsigned)i + 1, bsp->ist_top[i]);
	}
	cpu_enumerate_self(&bsp->desc);
	bsp->desc_valid = 1;
	__atomic_store_n(&bsp->online, 1, __ATOMIC_RELEASE);
	ipi_init();
	nmi_init();

	smp_number_cpus(bsp->apic_id);
	if (smp_cpu_count() > 1 && smp_boot_prepare()) {
		printk("smp: no free memory below 1 MiB for the AP start-up code; "
		       "running on the boot CPU only\n");
	} else {
		for (unsigned cpu = 1; cpu < smp_cpu_count(); cpu++) {
			uint64_t start = time_ns();
			int online = smp_start_one(cpu);
			uint64_t took = time_ns() - start;
			if (online && took > slowest_ns) {
				slowest_ns = took;
				slowest = cpu;
			}
		}
	}
	if (slowest)
		printk("smp: %u of %u CPUs online (MAXCPU %u); the slowest start took %llu ms (cpu %u)\n",
		       smp_online_count(), smp_cpu_count(), MAXCPU,
		       (unsigned long long)(slowest_ns / 1000000), slowest);
	else
		printk("smp: %u of %u CPUs online (MAXCPU %u)\n", smp_online_count(), smp_cpu_count(), MAXCPU);
}

/* ---- sysctls ---- */

static void smp_sysctl_cpus(char *buf, size_t len)
{
	ksnprintf(buf, len, "%u", smp_cpu_count());
}
SYSCTL_PROC(kern_smp_cpus, "kern.smp.cpus", smp_sysctl_cpus,
	    "logical CPUs given an id (the MADT's, capped at MAXCPU and maxcpus=)");

static void smp_sysctl_online(char *buf, size_t len)
{
	ksnprintf(buf, len, "%u", smp_online_count());
}
SYSCTL_PROC(kern_smp_online, "kern.smp.online", smp_sysctl_online, "logical CPUs online");

static void smp_sysctl_maxcpu(char *buf, size_t len)
{
	ksnprintf(buf, len, "%u", MAXCPU);
}
SYSCTL_PROC(kern_smp_maxcpu, "kern.smp.maxcpu", smp_sysctl_maxcpu,
	    "most logical CPUs the kernel can use (MAXCPU)");

/* Smallest and largest tick count over the online CPUs: a later reading
 * whose min exceeds an earlier max proves every CPU ticked in between. */
static void smp_sysctl_ticks(char *buf, size_t len)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		if (!smp_cpu_online(i))
			continue;
		uint64_t t = smp_cpu_ticks(i);
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	ksnprintf(buf, len, "min %lu max %lu", lo, hi);
}
SYSCTL_PROC(kern_smp_ticks, "kern.smp.ticks", smp_sysctl_ticks,
	    "per-CPU timer ticks: smallest and largest count over the online CPUs");

/* smp_call_on() target of kern.smp.call_test: records who ran it. */
static void smp_call_test_fn(void *arg)
{
	*(volatile unsigned *)arg = cpu_current();
}

/* Reading it calls every online CPU once through smp_call_on() and checks
 * that the function ran on that CPU. */
static void smp_sysctl_call_test(char *buf, size_t len)
{
	unsigned ok = 0, online = 0;
	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		if (!smp_cpu_online(i))
			continue;
		online++;
		volatile unsigned ran_on = MAXCPU;
		if (smp_call_on(i, smp_call_test_fn, (void *)&ran_on) == 0 && ran_on == i)
			ok++;
		else
			printk("smp: call test: cpu %u failed (ran on %u)\n", i, ran_on);
	}
	ksnprintf(buf, len, "%u of %u CPUs answered", ok, online);
}
SYSCTL_PROC(kern_smp_call_test, "kern.smp.call_test", smp_sysctl_call_test,
	    "self-test: run a function on every online CPU with smp_call_on()");
