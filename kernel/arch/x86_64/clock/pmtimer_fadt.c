/* SPDX-License-Identifier: BSD-2-Clause */
/* pmtimer_fadt.c — the ACPI PM timer's place in the FADT (ACPI 6.5,
 * 5.2.9 "Fixed ACPI Description Table": PM_TMR_BLK at offset 76,
 * PM_TMR_LEN at 91, Flags at 112 with TMR_VAL_EXT bit 8 and
 * HW_REDUCED_ACPI bit 20, X_PM_TMR_BLK, a Generic Address Structure, at
 * 208). Portable C, no kernel calls; host-tested in
 * tests/unit/test_pmtimer_fadt.c. */
#include <arch/x86_64/clock/pmtimer.h>

#define FADT_PM_TMR_BLK  76
#define FADT_PM_TMR_LEN  91
#define FADT_FLAGS       112
#define FADT_X_PM_TMR    208
#define GAS_SIZE         12
#define TMR_VAL_EXT      (1u << 8)
#define HW_REDUCED_ACPI  (1u << 20)
#define GAS_MEMORY       0
#define GAS_IO           1
#define IO_LAST_PORT     0xFFFC   /* a 4-byte inl must fit below 0x10000 */

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* See pmtimer.h. */
int pmtimer_fadt_locate(const uint8_t *fadt, size_t len, struct pmtimer_loc *loc, const char **why)
{
	if (len < FADT_FLAGS + 4) {
		*why = "FADT too short for the PM timer fields";
		return -1;
	}
	uint32_t flags = get32(fadt + FADT_FLAGS);
	if (flags & HW_REDUCED_ACPI) {
		*why = "hardware-reduced ACPI (FADT flag HW_REDUCED_ACPI): no PM timer";
		return -1;
	}
	loc->mask = flags & TMR_VAL_EXT ? 0xFFFFFFFFu : 0xFFFFFFu;
	if (len >= FADT_X_PM_TMR + GAS_SIZE && get64(fadt + FADT_X_PM_TMR + 4) != 0) {
		const uint8_t *gas = fadt + FADT_X_PM_TMR;
		uint64_t addr = get64(gas + 4);
		if (gas[0] == GAS_IO && addr <= IO_LAST_PORT) {
			loc->io = 1;
			loc->address = addr;
			return 0;
		}
		if (gas[0] == GAS_MEMORY) {
			loc->io = 0;
			loc->address = addr;
			return 0;
		}
		*why = gas[0] == GAS_IO ? "X_PM_TMR_BLK names an I/O port above 0xFFFC"
					: "X_PM_TMR_BLK in an address space other than memory or I/O";
		return -1;
	}
	uint32_t blk = get32(fadt + FADT_PM_TMR_BLK);
	if (blk == 0 || fadt[FADT_PM_TMR_LEN] < 4) {
		*why = "the FADT names no PM timer (PM_TMR_BLK 0 or PM_TMR_LEN below 4)";
		return -1;
	}
	if (blk > IO_LAST_PORT) {
		*why = "PM_TMR_BLK names an I/O port above 0xFFFC";
		return -1;
	}
	loc->io = 1;
	loc->address = blk;
	return 0;
}
