/* SPDX-License-Identifier: BSD-2-Clause */
/* sched_plat.c — the kernel's side of kernel/sched/sched_plat.h: CPUs,
 * tdq locks, time, the reschedule IPI, idle halting, memory and panics. */
#include <sched/sched_plat.h>
#include <thread/thread.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/intr/ipi.h>
#include <arch/x86_64/spinlock.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <kern/panic.h>

static struct spinlock tdq_locks[MAXCPU] = {
	[0 ... MAXCPU - 1] = SPINLOCK_INIT("tdq"),
};
static struct spinlock hmp_lock = SPINLOCK_INIT("hmp");
static uint64_t hmp_lock_flags;   /* RFLAGS of the holder, restored at unlock */

int sched_plat_cpu_self(void)
{
	return (int)cpu_current();
}

int sched_plat_ncpu(void)
{
	return (int)smp_cpu_count();
}

/* A CPU takes threads once it runs its idle thread (thread_ap_enter()). */
int sched_plat_cpu_online(int cpu)
{
	return cpu >= 0 && (unsigned)cpu < smp_cpu_count() &&
	       __atomic_load_n(&percpu_get((unsigned)cpu)->sched_ready, __ATOMIC_ACQUIRE);
}

void sched_plat_tdq_lock(int cpu)
{
	spin_lock(&tdq_locks[cpu]);
}

int sched_plat_tdq_trylock(int cpu)
{
	return spin_trylock(&tdq_locks[cpu]);
}

void sched_plat_tdq_unlock(int cpu)
{
	spin_unlock(&tdq_locks[cpu]);
}

int sched_plat_tdq_owned(int cpu)
{
	return spin_held(&tdq_locks[cpu]);
}

/* Interrupts off while held: hmp is written from threads and read from
 * the scheduling path. */
void sched_plat_hmp_lock(void)
{
	uint64_t flags = spin_lock_irqsave(&hmp_lock);
	hmp_lock_flags = flags;
}

void sched_plat_hmp_unlock(void)
{
	spin_unlock_irqrestore(&hmp_lock, hmp_lock_flags);
}

void sched_plat_relax(void)
{
	cpu_pause();
}

/* Every spin: another CPU may queue work on this one meanwhile. */
int64_t sched_plat_idle_spins(int64_t spins)
{
	return spins;
}

static uint64_t ticks_high;   /* the largest tick count handed out */

/* Guest time in ticks (TIMER_HZ a second), never less than a value any
 * CPU was given before (TSCs of two CPUs may differ by a little). Counting
 * the boot CPU's tick interrupts instead would fall behind whenever the
 * host starved that CPU and QEMU merged its ticks. */
uint64_t sched_plat_ticks(void)
{
	uint64_t t = time_ns() / (1000000000ull / TIMER_HZ);
	uint64_t seen = __atomic_load_n(&ticks_high, __ATOMIC_RELAXED);
	while (t > seen && !__atomic_compare_exchange_n(&ticks_high, &seen, t, 1, __ATOMIC_RELAXED,
							  __ATOMIC_RELAXED))
		;
	return t > seen ? t : seen;
}

int sched_plat_hz(void)
{
	return TIMER_HZ;
}

uint64_t sched_plat_time_ns(void)
{
	return time_ns();
}

/* Fixed IPI on VEC_IPI_RESCHED, whatever the kind (the core counts them);
 * its handler is thread_resched_ipi(). */
void sched_plat_ipi(int cpu, int kind)
{
	(void)kind;
	ipi_send((unsigned)cpu, VEC_IPI_RESCHED);
}

/* sti;hlt is one step: an interrupt pending at the sti wakes the hlt. */
void sched_plat_idle_wait(int cpu)
{
	(void)cpu;
	cpu_sti_hlt();
	cpu_cli();
}

int sched_plat_cpu_core_type(int cpu)
{
	return smp_cpu_desc((unsigned)cpu)->core_type;
}

struct cpu_group *sched_plat_topo_root(void)
{
	return thread_topo_root();
}

void *sched_plat_alloc(size_t size)
{
	return kzalloc(size);
}

void sched_plat_panic(const char *msg)
{
	panic("sched: %s", msg);
}
