/* SPDX-License-Identifier: BSD-2-Clause */
/* ipi.c — sending IPIs and the per-CPU call-function mailbox behind
 * smp_call_on() (the NMIs are nmi.c's). */
#include <arch/x86_64/intr/ipi.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/intr/lapic.h>
#include <arch/x86_64/trap/trap.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/clock/time.h>
#include <kern/printk.h>
#include <arch/x86_64/spinlock.h>
#include <arch/x86_64/arch_hooks.h>

/* A call not answered within CALL_SLOW_NS is reported and waited for up to
 * CALL_TIMEOUT_NS in all. The long bound is for QEMU's TCG on a loaded
 * host, where a vCPU thread can be kept off the host's CPUs for more than
 * a second of guest time while it is perfectly well: withdrawing a TLB
 * flush then would keep pages out of use for nothing. A CPU that is really
 * stuck with interrupts off is the hard-lockup watchdog's to report. */
#define CALL_SLOW_NS    1000000000ull
#define CALL_TIMEOUT_NS 20000000000ull

/* Serializes callers per target, so each mailbox has one call in flight. */
static struct spinlock call_locks[MAXCPU];

/* See ipi.h. */
void ipi_send(unsigned cpu, uint8_t vector)
{
	uint64_t flags = cpu_save_flags_cli();
	lapic_send_ipi(percpu_get(cpu)->apic_id, LAPIC_ICR_FIXED | LAPIC_ICR_ASSERT | vector);
	cpu_restore_flags(flags);
}

/* VEC_IPI_CALL: run the function posted in this CPU's mailbox, if the
 * sender has not withdrawn it. Interrupts off. */
static void ipi_call_handler(struct trap_frame *tf)
{
	(void)tf;
	struct smp_mailbox *mb = &percpu_self()->mailbox;
	void (*fn)(void *) = __atomic_exchange_n(&mb->fn, NULL, __ATOMIC_ACQUIRE);
	if (!fn)
		return;
	fn(mb->arg);
	__atomic_store_n(&mb->done, mb->requested, __ATOMIC_RELEASE);
}

/* VEC_IPI_RESCHED: let the scheduler decide whether to switch on the way
 * out of this interrupt. Interrupts off. */
static void ipi_resched_handler(struct trap_frame *tf)
{
	(void)tf;
	thread_resched_ipi();
}

/* See ipi.h. */
void ipi_init(void)
{
	for (unsigned i = 0; i < MAXCPU; i++)
		call_locks[i] = (struct spinlock)SPINLOCK_INIT("smp call");
	trap_set_handler(VEC_IPI_CALL, ipi_call_handler);
	trap_set_handler(VEC_IPI_RESCHED, ipi_resched_handler);
}

/* Wait until the call numbered seq on mb is done or the timeout passed.
 * Returns 1 when done. */
static int ipi_call_wait(struct smp_mailbox *mb, uint64_t seq, uint64_t deadline)
{
	while (__atomic_load_n(&mb->done, __ATOMIC_ACQUIRE) != seq) {
		if (time_ns() > deadline)
			return 0;
		cpu_pause();
	}
	return 1;
}

/* The call proper (see smp_call_on()): the caller cannot leave its CPU. */
static int call_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	if (cpu == cpu_current()) {
		uint64_t flags = cpu_save_flags_cli();
		fn(arg);
		cpu_restore_flags(flags);
		return 0;
	}
	struct smp_mailbox *mb = &percpu_get(cpu)->mailbox;
	spin_lock(&call_locks[cpu]);
	uint64_t seq = mb->requested + 1;
	mb->arg = arg;
	mb->requested = seq;
	__atomic_store_n(&mb->fn, fn, __ATOMIC_RELEASE);
	ipi_send(cpu, VEC_IPI_CALL);

	uint64_t start = time_ns();
	int ok = ipi_call_wait(mb, seq, start + CALL_SLOW_NS);
	if (!ok) {
		printk("smp: cpu %u has not answered a call for 1 s; waiting up to %u s\n", cpu,
		       (unsigned)(CALL_TIMEOUT_NS / 1000000000ull));
		ok = ipi_call_wait(mb, seq, start + CALL_TIMEOUT_NS);
	}
	if (!ok && __atomic_exchange_n(&mb->fn, NULL, __ATOMIC_ACQ_REL) == NULL) {
		/* The target took the call and is still running it: its
		 * argument must stay valid, so wait for it to finish. */
		printk("smp: cpu %u is slow to finish a call; waiting\n", cpu);
		ok = ipi_call_wait(mb, seq, UINT64_MAX);
	}
	if (!ok)
		mb->done = seq;   /* withdrawn: the next call starts clean */
	spin_unlock(&call_locks[cpu]);
	if (!ok)
		printk("smp: cpu %u did not answer a call within %u s\n", cpu,
		       (unsigned)(CALL_TIMEOUT_NS / 1000000000ull));
	return ok ? 0 : -1;
}

/* See smp.h. The caller holds the target's call lock and waits with
 * interrupts on, so two CPUs calling each other both get served; with
 * preemption off, so that a calling thread stays on its CPU from the
 * "is it this one" check to the lock's release (found by bench's RAPL
 * reads: a shell thread preempted while waiting released the lock on
 * another CPU). */
int smp_call_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	if (cpu >= smp_cpu_count() || !smp_cpu_online(cpu))
		return -1;
	preempt_disable();
	int rc = call_on(cpu, fn, arg);
	preempt_enable();
	return rc;
}
