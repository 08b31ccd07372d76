/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_rapl.h — the emulated RAPL energy counters under QEMU (docs/hfi.md,
 * "Energy"): MSR_RAPL_POWER_UNIT (0x606), MSR_PKG_ENERGY_STATUS (0x611)
 * and MSR_PP0_ENERGY_STATUS (0x639) of the calling CPU's package, served
 * through the door (door.h) from the work clock's power model
 * (emul_workclock.h) when the machine description has a `power` line.
 * Units as Intel client parts report them: energy 2^-14 J (61 µJ), power
 * 1/8 W, time 2^-10 s. Any context; no state but the model's.
 */
#ifndef MOSAIC_EMUL_RAPL_H
#define MOSAIC_EMUL_RAPL_H
#include <stdint.h>

#define EMUL_RAPL_ENERGY_SHIFT 14   /* energy unit 2^-14 J */
#define EMUL_RAPL_POWER_SHIFT 3     /* power unit 1/8 W */
#define EMUL_RAPL_TIME_SHIFT 10     /* time unit 2^-10 s */

/* The door's RAPL part (emul_door.c): 1 with *v for a RAPL MSR while the
 * model meters energy, 0 otherwise (not ours: the real instruction). */
int emul_rapl_door_rdmsr(uint32_t msr, uint64_t *v);
/* 1 while the counters are emulated (the model meters energy). Any context. */
int emul_rapl_active(void);
/* A write to a RAPL MSR while emulated: 1 (ignored and reported once: the
 * status MSRs are read-only and the limits are not modelled), else 0. */
int emul_rapl_door_wrmsr(uint32_t msr, uint64_t v);

#endif
