/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rapl.h — package energy from the RAPL counters (Intel SDM vol. 3B,
 * "Platform Specific Power Management Support", RAPL; driver:
 * kernel/dev/rapl.c). On hardware the real MSRs, under QEMU
 * with a machine description's power line the emulated ones (kernel/emul/
 * emul_rapl.c), both read the same way through the door; a machine with
 * neither answers "not present" (the first read faults and is caught).
 *
 * The 32-bit hardware counters wrap (every 262 kJ with Intel's 61 µJ
 * unit: minutes at full power on a big part); the driver extends them to
 * 64 bits, reading each package at least every RAPL_POLL_S seconds.
 */
#ifndef MOSAIC_RAPL_H
#define MOSAIC_RAPL_H
#include <stdint.h>

#define RAPL_POLL_S 10
#define RAPL_MAX_PACKAGES 8

struct rapl_info {
	int present;            /* the counters read */
	int emulated;           /* served by the emulated platform (for messages) */
	int pp0;                /* MSR_PP0_ENERGY_STATUS reads too */
	unsigned packages;      /* packages read (the first RAPL_MAX_PACKAGES) */
	unsigned energy_shift, power_shift, time_shift;   /* units: 1/2^n J, W, s */
	char why[160];           /* without counters: why not */
};

/* Probes the counters on every package (guarded reads: a fault means
 * absent) and starts polling them. Once, boot CPU, thread context, after
 * the other CPUs run and the emulated platform is set up. */
void rapl_init(void);
/* What rapl_init() found. Any context. */
void rapl_get_info(struct rapl_info *out);
/* Energy since rapl_init() of every package summed, µJ: *pkg_uj from the
 * package counters, *pp0_uj (if not NULL) from the cores' (0 without
 * PP0), and *at_ns (if not NULL) the guest time of the reads (their mean
 * over the packages): a power is the difference of two readings over the
 * difference of their times, not of the caller's clock (a read runs on a
 * CPU of its package, which may answer late). Reads each package now. 0,
 * or -1 without counters. Thread context, interrupts on. */
int rapl_energy_uj(uint64_t *pkg_uj, uint64_t *pp0_uj, uint64_t *at_ns);

#endif
