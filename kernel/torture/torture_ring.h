/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_ring.h — the last operations of each CPU during a torture pass:
 * a small ring per CPU, printed when a check fails so the failure can be
 * read back to what each CPU was doing.
 */
#ifndef MOSAIC_TORTURE_RING_H
#define MOSAIC_TORTURE_RING_H
#include <stdint.h>

/* The operations the rings record (torture_op_name() names them). */
enum torture_op {
	TOP_CREATE, TOP_JOIN, TOP_SLEEP, TOP_WAKE, TOP_YIELD, TOP_NICE, TOP_PIN, TOP_UNPIN,
	TOP_SPAWN, TOP_REAP, TOP_KNOB, TOP_HFI, TOP_BENCH, TOP_CHECK, TOP_NOPS
};

/* Name of op ("create", "sleep", ...). */
const char *torture_op_name(unsigned op);
/* Empties every ring. Before the pass starts; no other user then. */
void torture_ring_reset(void);
/* Records op with arg on the calling CPU's ring (any thread context; takes
 * that ring's spinlock with interrupts off). */
void torture_note(enum torture_op op, int64_t arg);
/* Prints every CPU's ring, oldest operation first. After the pass. */
void torture_ring_dump(void);

#endif
