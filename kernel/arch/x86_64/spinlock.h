/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spinlock.h — busy-waiting mutual exclusion between CPUs.
 *
 * Every lock here is also an interrupts-off section on the CPU that holds
 * it: spin_lock_irqsave() turns interrupts off before it spins, so an
 * interrupt handler on the same CPU can never wait for a lock its own CPU
 * holds. Taking a lock the calling CPU already holds, or spinning for
 * longer than SPINLOCK_TIMEOUT_S seconds, panics with the lock's name and
 * its holder instead of hanging silently. With `sysctl debug.witness=1`
 * every acquisition is also checked against the lock order seen so far
 * (kernel/arch/x86_64/witness.c): a reversal panics naming both orders.
 */
#ifndef MOSAIC_SPINLOCK_H
#define MOSAIC_SPINLOCK_H
#include <stdint.h>

#define SPINLOCK_TIMEOUT_S 5
#define SPINLOCK_NO_OWNER 0xFFFFFFFFu

struct spinlock {
	volatile uint32_t locked;   /* 0 free, 1 held */
	volatile uint32_t owner;    /* logical CPU id of the holder, SPINLOCK_NO_OWNER when free */
	const char *name;           /* for the panic messages */
};

#define SPINLOCK_INIT(nm) { .locked = 0, .owner = SPINLOCK_NO_OWNER, .name = (nm) }

/* Turn interrupts off, then take the lock; returns the RFLAGS to hand to
 * spin_unlock_irqrestore(). Any context. */
uint64_t spin_lock_irqsave(struct spinlock *l);
/* Release the lock, then restore the interrupt flag saved by
 * spin_lock_irqsave(). Only the holder calls it (panics otherwise). */
void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags);
/* Take the lock, leaving the interrupt flag as the caller has it: for
 * long holds that wait with interrupts on. Never from an interrupt
 * handler (its CPU might hold the lock already). */
void spin_lock(struct spinlock *l);
/* Take the lock if it is free; returns 1 when taken, 0 otherwise. The
 * caller has interrupts off. */
int spin_trylock(struct spinlock *l);
/* spin_trylock() and its release for an NMI handler: without the
 * lock-order checker, whose own table lock the interrupted code on this
 * CPU may hold. */
int spin_trylock_nmi(struct spinlock *l);
void spin_unlock_nmi(struct spinlock *l);
/* Release a lock taken by spin_lock() or spin_trylock(). */
void spin_unlock(struct spinlock *l);
/* 1 if this CPU holds the lock. */
int spin_held(const struct spinlock *l);
/* Force the lock free whatever its holder: only for the panic path, once
 * every other CPU has been stopped. */
void spin_break(struct spinlock *l);

#endif
