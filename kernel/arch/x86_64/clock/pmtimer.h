/* SPDX-License-Identifier: BSD-2-Clause */
/* pmtimer.h — the ACPI power-management timer as a reference clock. */
#ifndef MOSAIC_ARCH_PMTIMER_H
#define MOSAIC_ARCH_PMTIMER_H
#include <stddef.h>
#include <stdint.h>

/* Where the FADT puts the timer. */
struct pmtimer_loc {
	int io;                 /* 1: an I/O port, 0: memory */
	uint64_t address;       /* port number or physical address */
	uint32_t mask;          /* 0xFFFFFF (24-bit counter) or 0xFFFFFFFF */
};

/* Find the timer in a FADT (fadt[0..len), len from its header): the
 * X_PM_TMR_BLK address when set, else PM_TMR_BLK. Returns 0 with *loc
 * filled, or -1 with *why saying what is missing or not representable.
 * Portable, bounded (pmtimer_fadt.c). */
int pmtimer_fadt_locate(const uint8_t *fadt, size_t len, struct pmtimer_loc *loc, const char **why);

/* TSC frequency in Hz measured against the ACPI PM timer (3.579545 MHz)
 * over ms milliseconds (at most 1000), or 0 (with a note saying why) when
 * there is no usable one. Needs acpi_init() and vmm_init(). Boot-time,
 * single CPU. */
uint64_t pmtimer_measure_tsc_hz(uint32_t ms);
#endif
