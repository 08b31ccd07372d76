/* SPDX-License-Identifier: BSD-2-Clause */
/* lockup.h — lockups made on purpose, for the watchdogs' test command
 * (`lockup`, kernel/shell/cmd_lockup.c; docs/smp.md). */
#ifndef MOSAIC_LOCKUP_H
#define MOSAIC_LOCKUP_H
#include <stdint.h>

#define LOCKUP_MAX_S 60   /* the longest lockup the command makes */

/* Run a thread bound to CPU cpu (online) that spins there for seconds
 * (1..LOCKUP_MAX_S) with preemption off (irqs_off 0: the timer still
 * ticks, the scheduler never runs: a soft lockup) or with interrupts off
 * (1: no tick either: a hard lockup), and wait until it has ended. 0, or
 * -1 when out of memory. Threads context, interrupts on, the scheduler
 * running. */
int lockup_run(unsigned cpu, int irqs_off, uint64_t seconds);
#endif
