/* SPDX-License-Identifier: BSD-2-Clause */
/* pmtimer.c — the ACPI PM timer (ACPI 6.5, 4.8.3.3 "Power Management
 * Timer") as a reference clock: 3.579545 MHz, 24 or 32 bits, found in the
 * FADT (pmtimer_fadt.c). Machines without an HPET or a PIT (newer Intel
 * platforms may hide both) usually still have it. */
#include <arch/x86_64/clock/pmtimer.h>
#include <arch/x86_64/acpi/acpi.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <kern/printk.h>

#define PM_TIMER_HZ 3579545ull

static uint16_t port;                  /* I/O port, or 0 with mmio */
static volatile uint32_t *mmio;

/* The counter's current value (before masking). */
static uint32_t pm_read(void)
{
	return port ? inl(port) : *mmio;
}

/* See pmtimer.h. */
uint64_t pmtimer_measure_tsc_hz(uint32_t ms)
{
	if (ms == 0 || ms > 1000)
		ms = 1000;
	const struct acpi_sdt_header *h = acpi_find_table("FACP", 0);
	if (!h) {
		printk("pmtimer: no FADT\n");
		return 0;
	}
	struct pmtimer_loc loc;
	const char *why;
	if (pmtimer_fadt_locate((const uint8_t *)h, h->length, &loc, &why)) {
		printk("pmtimer: %s\n", why);
		return 0;
	}
	if (loc.io)
		port = (uint16_t)loc.address;
	else
		mmio = vmm_map_mmio(loc.address, 4, 0);
	uint32_t mask = loc.mask;
	uint64_t want = PM_TIMER_HZ * ms / 1000, spins = 0;
	uint32_t p0 = pm_read() & mask, p1;
	uint64_t t0 = rdtsc(), t1;
	do {
		cpu_pause();
		p1 = pm_read() & mask;
		t1 = rdtsc();
		if (++spins == 1000000 && ((p1 - p0) & mask) == 0) {
			printk("pmtimer: the ACPI PM timer at %s 0x%lx does not count\n",
			       loc.io ? "port" : "address", loc.address);
			return 0;
		}
	} while (((p1 - p0) & mask) < want);
	uint64_t ticks = (p1 - p0) & mask;
	return (t1 - t0) * PM_TIMER_HZ / ticks;
}
