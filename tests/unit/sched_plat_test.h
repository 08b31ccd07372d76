/* SPDX-License-Identifier: BSD-2-Clause */
/* sched_plat_test.h — knobs of the host implementation of sched_plat.h
 * (sched_plat_test.c), shared by the ULE unit tests and the simulator. */
#ifndef MOSAIC_SCHED_PLAT_TEST_H
#define MOSAIC_SCHED_PLAT_TEST_H
#include <stdint.h>
#include <sched/sched_plat.h>

#define SPT_MAXCPU 256
struct sched_plat_test {
	int self;                     /* what sched_plat_cpu_self() returns */
	int ncpu;
	uint8_t online[SPT_MAXCPU];   /* 1 = online (default after spt_reset: all) */
	uint8_t locked[SPT_MAXCPU];   /* tdq lock held */
	uint8_t hmp_locked;           /* hmp lock held */
	uint8_t core_type[SPT_MAXCPU];   /* enum cpu_core_type per CPU (default 0) */
	uint64_t ticks, ns;
	int hz;
	int ipis[SPT_MAXCPU];         /* IPIs received per CPU */
	int idle_waits;
	uint8_t idle_wait_keeps_time; /* 1: sched_plat_idle_wait() does not advance time */
	struct cpu_group *root;
	void (*trace)(const struct sched_trace_point *p);   /* sched_plat_trace(), NULL: ignored */
};
extern struct sched_plat_test spt;

/* ncpu CPUs all online, hz 100, time 0 (ticks start at 1000), no locks. */
void spt_reset(int ncpu, struct cpu_group *root);
/* Advances time by n ticks (ns follow). */
void spt_advance(uint64_t n);
#endif
