/* SPDX-License-Identifier: BSD-2-Clause */
/* pit.h — the 8254 PIT channel 2 as a reference clock for calibration. */
#ifndef MOSAIC_ARCH_PIT_H
#define MOSAIC_ARCH_PIT_H
#include <stdint.h>
/* TSC frequency in Hz measured against PIT channel 2 (gated through port
 * 0x61, speaker off) over ms milliseconds (at most 50), or 0 when the PIT
 * does not count. Boot-time, single CPU, interrupts off. */
uint64_t pit_measure_tsc_hz(uint32_t ms);
#endif
