/* SPDX-License-Identifier: BSD-2-Clause */
/* witness.h — spinlock order checking, on when `sysctl debug.witness=1`.
 * Called by spinlock.c on every acquisition and release; cheap when off.
 * Turning it on mid-run only sees acquisitions made from then on. */
#ifndef MOSAIC_ARCH_WITNESS_H
#define MOSAIC_ARCH_WITNESS_H
#include <stdint.h>
struct spinlock;
/* 1 while checking (the debug.witness sysctl). */
extern int64_t witness_enabled;
/* Record l as held by this CPU; panic on a lock-order reversal. Call once
 * the caller's interrupts are off or it cannot migrate (as for the lock). */
void witness_acquire(const struct spinlock *l);
/* Forget l on this CPU. */
void witness_release(const struct spinlock *l);
#endif
