/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_trace.h — the scheduler core's trace points: where `sched trace`
 * (docs/sched.md, "The scheduler trace") learns which thread started
 * running on a CPU, where a woken thread was placed and why a thread
 * changed CPU. The core only calls sched_plat_trace() while the platform
 * has switched the points on (sched_trace_points()); off, each point
 * costs one relaxed load. What is recorded, and where, is the platform's
 * (the kernel: kernel/thread/sched_trace.c; schedsim and the tests ignore
 * them). Tracing changes no decision of the scheduler.
 */
#ifndef MOSAIC_SCHED_SCHED_TRACE_H
#define MOSAIC_SCHED_SCHED_TRACE_H
#include <stdint.h>

struct td_sched;

/* What happened (the kind of a trace point). */
enum sched_trace_kind {
	SCHED_TRACE_SWITCH = 1,    /* ts (NULL: the idle thread) starts running on cpu */
	SCHED_TRACE_WAKEUP = 2,    /* ts woken (or new) on cpu, placed on `to` */
	SCHED_TRACE_MIGRATE = 3,   /* ts moved from cpu `from` to `to`, for `why` */
	SCHED_TRACE_HFI = 4,       /* the platform's: an HFI row's values changed */
};

/* Why a thread changed CPU. */
enum sched_trace_why {
	SCHED_TRACE_WHY_NONE = 0,
	SCHED_TRACE_WHY_WAKEUP = 1,    /* placed elsewhere at its wake-up or creation (sched_pickcpu) */
	SCHED_TRACE_WHY_SWITCH = 2,    /* repicked at its switch: affinity, a repick or hmp request, leaving an avoided CPU */
	SCHED_TRACE_WHY_BIND = 3,      /* sched_bind() */
	SCHED_TRACE_WHY_BALANCE = 4,   /* the periodic balancer (sched_balance) */
	SCHED_TRACE_WHY_STEAL = 5,     /* an idle CPU took it (tdq_idled, tdq_trysteal) */
	SCHED_TRACE_WHY_AFFINITY = 6,  /* its queue's CPU left its affinity (sched_set_affinity) */
};

/* The record of one trace point, for sched_plat_trace(). */
struct sched_trace_point {
	uint64_t ns;                   /* sched_plat_time_ns() as the core used it */
	const struct td_sched *ts;
	uint8_t kind, why;             /* enum sched_trace_kind, enum sched_trace_why */
	int16_t from, to;              /* CPUs (the waker's and the chosen one at a wake-up) */
};

/* Switches the trace points on (1) or off (0). Any context. */
void sched_trace_points(int on);
/* 1 while they are on; any context, lock-free. */
int sched_trace_points_on(void);

/* Inside the core: a trace point, if the points are on; ns 0 means now
 * (read only when on). The calling CPU's context (interrupts off, tdq
 * locks as the caller holds them). */
void sched_trace_point(uint64_t ns, const struct td_sched *ts, int kind, int why, int from, int to);

#endif
