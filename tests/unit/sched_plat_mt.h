/* SPDX-License-Identifier: BSD-2-Clause */
/* sched_plat_mt.h — knobs of the multi-threaded host implementation of
 * sched_plat.h (sched_plat_mt.c) used by the race tests. */
#ifndef MOSAIC_SCHED_PLAT_MT_H
#define MOSAIC_SCHED_PLAT_MT_H
#include <stdint.h>
#include <sched/sched_plat.h>

#define MT_MAXCPU 16
struct sched_plat_mt {
	int ncpu;
	struct cpu_group *root;
	int lock_owner[MT_MAXCPU];   /* CPU holding the tdq lock, -1 free (atomic) */
	int ipi_pending[MT_MAXCPU];  /* an IPI arrived (atomic) */
	uint64_t ticks;              /* global tick count (atomic) */
};
extern struct sched_plat_mt mt;
/* The CPU the calling pthread plays. */
extern __thread int mt_self;

/* ncpu CPUs, all online, ticks at 1000, every lock free. */
void mt_reset(int ncpu, struct cpu_group *root);
#endif
