/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trace_ring.h — a bounded ring of fixed-size event records with one
 * writer and lock-free readers: the storage of the scheduler trace
 * (`sched trace`, kernel/thread/sched_trace.c keeps one ring per CPU).
 *
 * Overwrite-oldest: the ring keeps the newest `cap` records; each older
 * one is counted as dropped. Records are numbered 0, 1, 2, ... in the
 * order written; record i sits in slot i % cap.
 *
 * Concurrency: one writer per ring (the kernel: the ring's own CPU with
 * interrupts off), which never waits. Any number of readers at any time:
 * trace_ring_get() copies a record and then checks that the writer cannot
 * have touched its slot meanwhile, and refuses it otherwise. Portable C,
 * no locks; the memory belongs to the caller.
 */
#ifndef MOSAIC_LIB_TRACE_RING_H
#define MOSAIC_LIB_TRACE_RING_H
#include <stdint.h>

/* One event; the meaning of kind, why and a..c is the owner's. */
struct trace_rec {
	uint64_t ns;        /* when */
	uint32_t tid;       /* the thread it is about (0: none) */
	uint8_t kind, why;
	uint16_t a, b, c;
};

struct trace_ring {
	struct trace_rec *rec;   /* cap slots */
	uint32_t cap;
	uint64_t written;        /* records ever written (the next one's number) */
};

/* An empty ring over mem (cap slots, cap >= 1). */
void trace_ring_init(struct trace_ring *r, struct trace_rec *mem, uint32_t cap);
/* Appends ev, overwriting the oldest record when full. The ring's one writer. */
void trace_ring_put(struct trace_ring *r, const struct trace_rec *ev);
/* Records ever written; any thread. */
uint64_t trace_ring_written(const struct trace_ring *r);
/* Records overwritten so far (written beyond cap); any thread. */
uint64_t trace_ring_dropped(const struct trace_ring *r);
/* The number of the oldest record still kept; any thread. */
uint64_t trace_ring_first(const struct trace_ring *r);
/* Copies record number i into out: 0, or -1 when it was never written or
 * has been (or may be being) overwritten. Any thread, lock-free. */
int trace_ring_get(const struct trace_ring *r, uint64_t i, struct trace_rec *out);

#endif
