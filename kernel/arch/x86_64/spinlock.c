/* SPDX-License-Identifier: BSD-2-Clause */
/* spinlock.c — test-and-test-and-set spinlocks with interrupts off
 * (see spinlock.h). */
#include <arch/x86_64/spinlock.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/clock/time.h>
#include <kern/panic.h>
#include <arch/x86_64/witness.h>

/* Spin until the lock is ours. Panics when this CPU
 * already holds it, or after SPINLOCK_TIMEOUT_S seconds of waiting (once
 * the TSC is calibrated; before that only one CPU runs). */
static void spin_acquire(struct spinlock *l)
{
	unsigned me = cpu_current();
	if (l->locked && l->owner == me)
		panic("spinlock '%s': cpu %u takes it again while holding it", l->name, me);
	witness_acquire(l);
	uint64_t hz = time_tsc_hz();
	uint64_t start = rdtsc();
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED)) {
			cpu_pause();
			if (hz && rdtsc() - start > hz * SPINLOCK_TIMEOUT_S)
				panic("spinlock '%s': cpu %u waited %u s; held by cpu %u", l->name,
				      me, SPINLOCK_TIMEOUT_S, l->owner);
		}
	}
	l->owner = me;
}

/* See spinlock.h. */
void spin_lock(struct spinlock *l)
{
	spin_acquire(l);
}

/* See spinlock.h. */
uint64_t spin_lock_irqsave(struct spinlock *l)
{
	uint64_t flags = cpu_save_flags_cli();
	spin_acquire(l);
	return flags;
}

/* See spinlock.h. */
void spin_unlock(struct spinlock *l)
{
	if (!l->locked || l->owner != cpu_current())
		panic("spinlock '%s': released by cpu %u, held by cpu %u", l->name,
		      cpu_current(), l->owner);
	witness_release(l);
	l->owner = SPINLOCK_NO_OWNER;
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* See spinlock.h. */
void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags)
{
	spin_unlock(l);
	cpu_restore_flags(flags);
}

/* See spinlock.h. */
int spin_trylock(struct spinlock *l)
{
	if (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		return 0;
	l->owner = cpu_current();
	witness_acquire(l);
	return 1;
}

/* See spinlock.h. */
int spin_trylock_nmi(struct spinlock *l)
{
	if (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		return 0;
	l->owner = cpu_current();
	return 1;
}

/* See spinlock.h. */
void spin_unlock_nmi(struct spinlock *l)
{
	l->owner = SPINLOCK_NO_OWNER;
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* See spinlock.h. */
int spin_held(const struct spinlock *l)
{
	return l->locked && l->owner == cpu_current();
}

/* See spinlock.h. */
void spin_break(struct spinlock *l)
{
	l->owner = SPINLOCK_NO_OWNER;
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}
