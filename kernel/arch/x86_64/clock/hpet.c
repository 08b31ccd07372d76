/* SPDX-License-Identifier: BSD-2-Clause */
/* hpet.c — High Precision Event Timer main counter (IA-PC HPET spec 1.0a). */
#include <arch/x86_64/clock/hpet.h>
#include <arch/x86_64/acpi/acpi.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <kern/printk.h>

#define HPET_CAP      0x000   /* general capabilities and id */
#define HPET_CONFIG   0x010
#define HPET_COUNTER  0x0F0
#define CAP_COUNT_64  (1ull << 13)
#define CONFIG_ENABLE 1ull
#define HPET_MAX_PERIOD_FS 100000000ull  /* the spec's upper bound: 100 ns */

/* Map the HPET named by ACPI and make its main counter run. Returns the
 * register window, NULL (after a note) when there is no usable HPET. */
static volatile uint64_t *hpet_start(uint64_t *period_fs, int *wide)
{
	const struct acpi_sdt_header *t = acpi_find_table("HPET", 0);
	if (!t)
		return NULL;
	if (t->length < 56) {
		printk("hpet: ACPI table too short (%u bytes)\n", t->length);
		return NULL;
	}
	const struct acpi_gas *gas = (const struct acpi_gas *)((const uint8_t *)t + 40);
	if (gas->space_id != ACPI_GAS_MEMORY || gas->address == 0) {
		printk("hpet: unsupported register address (space %u)\n", gas->space_id);
		return NULL;
	}
	volatile uint64_t *regs = vmm_map_mmio(gas->address, 0x400, 0);
	uint64_t cap = regs[HPET_CAP / 8];
	*period_fs = cap >> 32;
	*wide = (cap & CAP_COUNT_64) != 0;
	if (*period_fs == 0 || *period_fs > HPET_MAX_PERIOD_FS) {
		printk("hpet: bad counter period %lu fs\n", *period_fs);
		return NULL;
	}
	regs[HPET_CONFIG / 8] |= CONFIG_ENABLE;
	return regs;
}

/* See hpet.h. A 32-bit counter wraps after at least 7 minutes, so one
 * modular subtraction covers the measurement window. */
uint64_t hpet_measure_tsc_hz(uint32_t ms)
{
	uint64_t period_fs;
	int wide;
	volatile uint64_t *regs = hpet_start(&period_fs, &wide);
	if (!regs)
		return 0;
	uint64_t mask = wide ? ~0ull : 0xFFFFFFFFull;
	uint64_t want = (uint64_t)ms * 1000000000000ull / period_fs;  /* counter ticks */
	uint64_t h0 = regs[HPET_COUNTER / 8] & mask, h1;
	uint64_t t0 = rdtsc(), t1;
	uint64_t spins = 0;
	do {
		cpu_pause();
		h1 = regs[HPET_COUNTER / 8] & mask;
		t1 = rdtsc();
		if (++spins == 1000000 && ((h1 - h0) & mask) == 0) {
			printk("hpet: main counter does not advance\n");
			return 0;
		}
	} while (((h1 - h0) & mask) < want);
	uint64_t elapsed_ns = ((h1 - h0) & mask) * period_fs / 1000000;
	return (t1 - t0) * 1000000000ull / elapsed_ns;
}
