/* SPDX-License-Identifier: BSD-2-Clause */
/* witness.c — lock-order assertions for spinlocks (see witness.h).
 *
 * Locks are grouped into classes by name ("tdq", "heap", ...). While the
 * check is on, every acquisition made while other locks are held records
 * "held class before new class"; taking two classes in the opposite order
 * of one seen before is a lock-order reversal, i.e. a possible deadlock,
 * and panics naming both orders. Locks of the same class may nest (the
 * scheduler takes two run-queue locks in CPU order). */
#include <arch/x86_64/witness.h>
#include <arch/x86_64/spinlock.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/cpu/cpu.h>
#include <kern/panic.h>
#include <lib/string.h>
#include <lib/sysctl.h>

#define WITNESS_CLASSES 64
#define WITNESS_HELD_MAX 16

int64_t witness_enabled;
SYSCTL_INT(debug_witness, "debug.witness", &witness_enabled, 1, 0, 1,
	   "check spinlock acquisition order (lock-order reversals panic)");

static volatile uint32_t witness_busy;          /* guards the class table: 0, or its holder CPU + 1 */
static const char *class_names[WITNESS_CLASSES];
static unsigned class_count;
static uint64_t seen_before[WITNESS_CLASSES];   /* bit b of [a]: a held when b taken */

struct held_locks {
	unsigned count;
	unsigned classes[WITNESS_HELD_MAX];
};
static struct held_locks held[MAXCPU];

/* Interrupts off and back as they were; nothing on the host, where the
 * unit test (tests/unit/test_witness.c) runs this file in user mode. */
#ifdef MOSAIC_HOST
static inline uint64_t irqs_off(void) { return 0; }
static inline void irqs_restore(uint64_t flags) { (void)flags; }
#else
static inline uint64_t irqs_off(void) { return cpu_save_flags_cli(); }
static inline void irqs_restore(uint64_t flags) { cpu_restore_flags(flags); }
#endif

/* Takes the table lock with interrupts off (their state in *flags): 1;
 * or 0 at once, interrupts as they were, when this CPU holds it already —
 * an NMI that came while this CPU was inside witness, whose own lock then
 * goes unchecked rather than spinning for ever on the lock its CPU holds.
 * Interrupts stay off while it is held: an interrupt handler that came
 * in here and then waited for a lock another CPU holds (the emulated HFI
 * device's, from the thermal interrupt) kept the table from that CPU, which
 * needed it to take or release its own lock — a deadlock torture found. */
static int table_lock(uint64_t *flags)
{
	uint32_t me = cpu_current() + 1, none = 0;
	*flags = irqs_off();
	if (__atomic_load_n(&witness_busy, __ATOMIC_RELAXED) == me) {
		irqs_restore(*flags);
		return 0;
	}
	while (!__atomic_compare_exchange_n(&witness_busy, &none, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		none = 0;
		__builtin_ia32_pause();
	}
	return 1;
}

/* Releases the table lock; interrupts as table_lock() found them. */
static void table_unlock(uint64_t flags)
{
	__atomic_store_n(&witness_busy, 0, __ATOMIC_RELEASE);
	irqs_restore(flags);
}

/* Class index of a lock name, adding it if new; -1 when the table is full.
 * Caller holds the table lock. */
static int class_of(const char *name)
{
	for (unsigned i = 0; i < class_count; i++)
		if (strcmp(class_names[i], name) == 0)
			return (int)i;
	if (class_count == WITNESS_CLASSES)
		return -1;
	class_names[class_count] = name;
	return (int)class_count++;
}

/* See witness.h. */
void witness_acquire(const struct spinlock *l)
{
	if (!witness_enabled)
		return;
	struct held_locks *h = &held[cpu_current()];
	uint64_t flags;
	if (!table_lock(&flags))
		return;
	int c = class_of(l->name);
	for (unsigned i = 0; c >= 0 && i < h->count; i++) {
		unsigned before = h->classes[i];
		if (before == (unsigned)c)
			continue;
		if (seen_before[c] & (1ull << before)) {
			const char *held_name = class_names[before];
			table_unlock(flags);
			witness_enabled = 0;   /* one report; the panic path takes locks too */
			panic("lock order reversal: '%s' taken while holding '%s', but earlier "
			      "'%s' was taken while holding '%s'", l->name, held_name, held_name,
			      l->name);
		}
		seen_before[before] |= 1ull << c;
	}
	table_unlock(flags);
	if (c >= 0 && h->count < WITNESS_HELD_MAX)
		h->classes[h->count++] = (unsigned)c;
}

/* See witness.h. */
void witness_release(const struct spinlock *l)
{
	if (!witness_enabled)
		return;
	struct held_locks *h = &held[cpu_current()];
	uint64_t flags;
	if (!table_lock(&flags))
		return;   /* an NMI inside witness on this CPU: its lock was not recorded */
	int c = class_of(l->name);
	table_unlock(flags);
	for (unsigned i = h->count; i-- > 0;) {
		if (h->classes[i] == (unsigned)c) {
			for (; i + 1 < h->count; i++)
				h->classes[i] = h->classes[i + 1];
			h->count--;
			return;
		}
	}
}
