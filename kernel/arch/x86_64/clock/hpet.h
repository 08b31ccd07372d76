/* SPDX-License-Identifier: BSD-2-Clause */
/* hpet.h — the HPET main counter as a reference clock for calibration. */
#ifndef MOSAIC_ARCH_HPET_H
#define MOSAIC_ARCH_HPET_H
#include <stdint.h>
/* TSC frequency in Hz measured against the HPET of the ACPI "HPET" table
 * over ms milliseconds (at most 1000), or 0 when there is no usable HPET.
 * Starts the main counter if the firmware left it stopped. Needs
 * acpi_init() and vmm_init(). Boot-time, single CPU. */
uint64_t hpet_measure_tsc_hz(uint32_t ms);
#endif
