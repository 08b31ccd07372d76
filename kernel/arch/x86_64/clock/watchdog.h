/* SPDX-License-Identifier: BSD-2-Clause */
/* watchdog.h — the soft and hard lockup watchdogs (watchdog.c). */
#ifndef MOSAIC_ARCH_WATCHDOG_H
#define MOSAIC_ARCH_WATCHDOG_H

struct trap_frame;

/* One timer tick of the calling CPU (tf: the interrupted state): note the
 * tick, then check this CPU for a soft lockup and every other CPU for a
 * hard one. From the LAPIC timer handler (time.c), interrupts off. */
void watchdog_tick(struct trap_frame *tf);
#endif
