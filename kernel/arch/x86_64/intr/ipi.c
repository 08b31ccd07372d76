/* ipi.c — sending IPIs, the per-CPU call-function mailbox behind
 * smp_call_on(), and the NMI that parks CPUs during a panic. */
#include <ipi.h>
#include <percpu.h>
#include <lapic.h>
#include <trap.h>
#include <cpu.h>
#include <time.h>
#include <printk.h>
#include <spinlock.h>
#include <arch_hooks.h>

#define CALL_TIMEOUT_NS 1000000000ull
#define STOP_WAIT_US    100000

/* Serializes callers per target, so each mailbox has one call in flight. */
static struct spinlock call_locks[MAXCPU];
static volatile int stopping;   /* set once a panic began stopping CPUs */

/* See ipi.h. */
void ipi_send(unsigned cpu, uint8_t vector)
{
	uint64_t flags = cpu_save_flags_cli();
	lapic_send_ipi(percpu_get(cpu)->apic_id, LAPIC_ICR_FIXED | LAPIC_ICR_ASSERT | vector);
	cpu_restore_flags(flags);
}

/* See ipi.h. */
void ipi_send_all_but_self(uint8_t vector)
{
	uint64_t flags = cpu_save_flags_cli();
	lapic_send_ipi(0, LAPIC_ICR_FIXED | LAPIC_ICR_ASSERT | LAPIC_ICR_ALL_BUT_SELF | vector);
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

/* NMI: park this CPU when a panic asked for it; otherwise report the
 * stray NMI (LINT1, a hardware error line) and carry on. */
static void ipi_nmi_handler(struct trap_frame *tf)
{
	if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&percpu_self()->stopped, 1, __ATOMIC_RELEASE);
		cpu_halt_forever();
	}
	printk("nmi: unexpected NMI on cpu %u at rip %016lx; ignored\n", cpu_current(), tf->rip);
}

/* See ipi.h. */
void ipi_init(void)
{
	for (unsigned i = 0; i < MAXCPU; i++)
		call_locks[i] = (struct spinlock)SPINLOCK_INIT("smp call");
	trap_set_handler(VEC_IPI_CALL, ipi_call_handler);
	trap_set_handler(VEC_IPI_RESCHED, ipi_resched_handler);
	trap_set_handler(2, ipi_nmi_handler);
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

/* See smp.h. The caller holds the target's call lock and waits with
 * interrupts on, so two CPUs calling each other both get served. */
int smp_call_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	if (cpu >= smp_cpu_count() || !smp_cpu_online(cpu))
		return -1;
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

	int ok = ipi_call_wait(mb, seq, time_ns() + CALL_TIMEOUT_NS);
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
		printk("smp: cpu %u did not answer a call within 1 s\n", cpu);
	return ok ? 0 : -1;
}

/* 1 when every online CPU other than the caller has parked. */
static int ipi_others_stopped(void)
{
	unsigned me = cpu_current();
	for (unsigned i = 0; i < smp_cpu_count(); i++)
		if (i != me && smp_cpu_online(i) && !__atomic_load_n(&percpu_get(i)->stopped,
								     __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

/* See ipi.h. Interrupts off from here on. */
void ipi_stop_others(void)
{
	cpu_cli();
	if (smp_online_count() <= 1 || __atomic_exchange_n(&stopping, 1, __ATOMIC_ACQ_REL))
		return;
	lapic_send_ipi(0, LAPIC_ICR_NMI | LAPIC_ICR_ASSERT | LAPIC_ICR_ALL_BUT_SELF);
	for (unsigned waited = 0; waited < STOP_WAIT_US && !ipi_others_stopped(); waited += 100)
		time_udelay(100);
}
