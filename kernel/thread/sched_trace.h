/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_trace.h — `sched trace`, the kernel's scheduler trace (docs/sched.md,
 * "The scheduler trace"): one bounded ring per CPU (kernel/lib/trace_ring.h)
 * of what happened on that CPU — a thread started running (switch), a
 * thread was woken and placed (wakeup), a thread changed CPU and why
 * (migrate), an HFI row's values changed (hfi) — with times in guest ns.
 *
 * Off by default. Each ring keeps its newest records (overwrite-oldest;
 * older ones are counted as dropped). A record is written only by its
 * CPU, with interrupts off, and never waits: the scheduler core's points
 * (kernel/sched/sched_trace.h) arrive through sched_plat_trace(), the HFI
 * driver calls sched_trace_hfi(). Readers do not stop the writers.
 * Starting, stopping and reading are the shell thread's (one controller).
 */
#ifndef MOSAIC_THREAD_SCHED_TRACE_H
#define MOSAIC_THREAD_SCHED_TRACE_H
#include <stdint.h>
#include <lib/trace_ring.h>

#define SCHED_TRACE_SIZE_DEFAULT 4096u     /* records per CPU */
#define SCHED_TRACE_SIZE_MIN     16u
#define SCHED_TRACE_SIZE_MAX     262144u
#define SCHED_TRACE_NAMES        1024u     /* thread names kept per trace */

/* The record kinds: enum sched_trace_kind (kernel/sched/sched_trace.h).
 * switch: tid (0: idle) starts running; wakeup: a = waker CPU, b = chosen
 * CPU; migrate: a = from, b = to, why = enum sched_trace_why; hfi: a = the
 * CPU whose row changed, b = perf, c = ee (0..255, class 0). */

struct sched_trace_status {
	int on;                  /* recording */
	uint32_t size;           /* records per CPU (0: never started) */
	unsigned ncpu;
	uint64_t events, dropped;    /* written, overwritten: every CPU */
	uint64_t start_ns, end_ns;   /* the window: from the start to the stop (or now, while on) */
	unsigned names, names_dropped;
};

/* Starts a new trace of `size` records per CPU (SCHED_TRACE_SIZE_MIN..MAX):
 * a running one is stopped, every ring emptied (reallocated for another
 * size), then recording starts. 0, or -1 when the memory could not be
 * had (nothing recorded, and no trace kept). Shell thread. */
int sched_trace_start(uint32_t size);
/* Stops recording, then waits until no CPU is in the middle of a record.
 * The records stay until the next start. Shell thread. */
void sched_trace_stop(void);
/* Counts and the window; any thread. */
void sched_trace_get_status(struct sched_trace_status *st);
/* CPU cpu's ring, NULL when none (never started, cpu out of range). Read
 * with trace_ring_get(); the ring stays valid until the next start. */
const struct trace_ring *sched_trace_ring(unsigned cpu);
/* The i-th thread name of this trace (threads in the order first seen
 * running): 0 and tid/name, or -1 past the last. Shell thread. */
int sched_trace_name(unsigned i, uint32_t *tid, const char **name);
/* An HFI update at ns (guest time; one update's rows share it) changed
 * CPU cpu's row to perf/ee (raw 0..255, class 0): recorded in the calling
 * CPU's ring. Any context. */
void sched_trace_hfi(uint64_t ns, unsigned cpu, unsigned perf, unsigned ee);

#endif
