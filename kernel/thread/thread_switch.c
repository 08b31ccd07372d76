/* SPDX-License-Identifier: BSD-2-Clause */
/* thread_switch.c — switching between threads: blocking and waking,
 * timed sleeps, yielding, preemption (tick, IPI, critical sections) and
 * the accounting of CPU time (see thread.h). */
#include <thread/thread.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/intr/ipi.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/clock/time.h>
#include <kern/panic.h>

#define RFLAGS_IF 0x200

void arch_context_switch(uint64_t *save_rsp, volatile uint32_t *old_on_cpu, uint64_t *load_rsp,
			 volatile uint32_t *new_on_cpu);

static volatile int thread_running;   /* thread_boot() started the scheduler */

/* Marks the scheduler as running. Boot CPU, once. */
void thread_set_running(void)
{
	__atomic_store_n(&thread_running, 1, __ATOMIC_RELEASE);
}

/* See thread.h. */
int thread_sched_running(void)
{
	return __atomic_load_n(&thread_running, __ATOMIC_ACQUIRE);
}

/* See thread.h. One load, so a migration cannot split it. */
struct thread *thread_current(void)
{
	return percpu_ready() ? percpu_curthread() : NULL;
}

/* See thread.h. */
uint64_t thread_now_ns(void)
{
	return time_ns();
}

/* See thread.h. Interrupts off, so no switch splits the two fields. */
uint64_t thread_self_run_ns(void)
{
	uint64_t flags = cpu_save_flags_cli();
	struct thread *td = thread_current();
	uint64_t ns = td->run_ns + (time_ns() - td->on_since_ns);
	cpu_restore_flags(flags);
	return ns;
}

/* The core's view of td: idle threads have none. */
static struct td_sched *thread_ts(struct thread *td)
{
	return td->flags & TDF_IDLE ? NULL : &td->ts;
}

/* The thread that embeds ts. */
static struct thread *thread_of(struct td_sched *ts)
{
	return (struct thread *)((char *)ts - __builtin_offsetof(struct thread, ts));
}

/* The core asked for a switch of the calling CPU's current thread: note it
 * and interrupt ourselves, so it happens as soon as interrupts come on. */
static void thread_resched_self(void)
{
	struct percpu *p = percpu_self();
	p->need_resched = 1;
	ipi_send(p->cpu, VEC_IPI_RESCHED);
}

/* Leave the current thread: ask the core for the next one and switch to
 * it. how: SCHED_SW_*. Interrupts off, no spinlock held; returns (in the
 * same thread, maybe on another CPU) when it runs again. */
static void thread_switch(int how)
{
	struct percpu *p = percpu_self();
	struct thread *cur = p->curthread;
	uint64_t rflags = cpu_save_flags_cli();
	if (rflags & RFLAGS_IF)   /* an interrupt could switch inside this switch */
		panic("thread %u switches (how %d) with interrupts on", cur->id, how);
	p->need_resched = 0;
	__atomic_store_n(&p->sched_seen_ns, time_ns(), __ATOMIC_RELAXED);   /* the soft watchdog */
	if (!(cur->flags & TDF_IDLE))
		thread_hooks_leave(cur);   /* e.g. its Thread Director class, before the core places it again */
	struct td_sched *nts = sched_switch(thread_ts(cur), how);
	struct thread *next = nts ? thread_of(nts) : p->idlethread;
	if (next == cur)
		return;
	/* One instant for the run times and the work clock: cur stops, next
	 * starts (its on_since_ns is written only once it is ours, in
	 * thread_switch_finish(): its old CPU may still be accounting it). */
	uint64_t now = time_ns();
	cur->run_ns += now - cur->on_since_ns;
	p->switch_ns = now;
	/* Thread Director (HRESET), the work clock, user mode's CPU state. */
	thread_hooks_switch(p->cpu, cur, next, now);
	p->curthread = next;
	p->fail_nth = &next->fail_nth;
	arch_context_switch(&cur->rsp, &cur->on_cpu, &next->rsp, &next->on_cpu);
	thread_switch_finish();
}

/* See thread.h. Runs in the thread just switched to, on its new CPU. */
void thread_switch_finish(void)
{
	struct percpu *p = percpu_self();
	struct thread *td = p->curthread;
	td->cpu = (int)p->cpu;
	td->on_since_ns = p->switch_ns;
	td->nswitch_in++;
}

/* See thread.h. */
void thread_switch_exit(void)
{
	cpu_cli();
	thread_switch(SCHED_SW_EXIT);
	panic("thread %u ran again after its exit", thread_current()->id);
}

/* See thread.h. */
void thread_make_runnable(struct thread *td)
{
	uint64_t flags = cpu_save_flags_cli();
	if (sched_add(&td->ts, SCHED_ADD_DEFAULT) & SCHED_RESCHED)
		thread_resched_self();
	cpu_restore_flags(flags);
}

/* See thread.h. sched_sleep() comes first, and the state is published
 * under lk, so no waker (who needs lk, or runs on this CPU with
 * interrupts off) can call sched_wakeup() before it. */
void thread_block_locked(struct spinlock *lk)
{
	struct thread *td = thread_current();
	KASSERT(!(td->flags & TDF_IDLE), "idle thread of cpu %d blocks", td->cpu);
	KASSERT(td->preempt_count == 0, "thread %u blocks in a critical section", td->id);
	sched_sleep(&td->ts);
	__atomic_store_n(&td->state, TD_SLEEPING, __ATOMIC_RELEASE);
	spin_unlock(lk);
	thread_switch(SCHED_SW_SLEEP);
}

/* See thread.h. The compare-and-swap lets one waker through per sleep. */
int thread_unblock(struct thread *td)
{
	uint32_t expect = TD_SLEEPING;
	if (!__atomic_compare_exchange_n(&td->state, &expect, TD_RUNNABLE, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return 0;
	uint64_t flags = cpu_save_flags_cli();
	if (sched_wakeup(&td->ts) & SCHED_RESCHED)
		thread_resched_self();
	cpu_restore_flags(flags);
	return 1;
}

/* Timer callback of a timed sleep. */
static void thread_sleep_timeout(void *arg)
{
	thread_unblock(arg);
}

/* See thread.h. The timer is armed on this CPU with interrupts off, so it
 * cannot fire before the sleep is recorded. Before the scheduler runs it
 * waits with sti;hlt. */
void thread_sleep_ns(uint64_t ns)
{
	if (!thread_sched_running()) {
		uint64_t end = time_ns() + ns;
		while (time_ns() < end)
			cpu_sti_hlt();
		return;
	}
	struct thread *td = thread_current();
	uint64_t flags = cpu_save_flags_cli();
	sched_sleep(&td->ts);
	__atomic_store_n(&td->state, TD_SLEEPING, __ATOMIC_RELEASE);
	timer_arm(&td->sleep_timer, ns, thread_sleep_timeout, td);
	thread_switch(SCHED_SW_SLEEP);
	cpu_restore_flags(flags);
}

/* See thread.h. Interrupts off. */
void thread_idle_switch(void)
{
	thread_switch(SCHED_SW_YIELD);
}

/* See thread.h. */
void thread_yield(void)
{
	if (!thread_sched_running())
		return;
	uint64_t flags = cpu_save_flags_cli();
	thread_switch(SCHED_SW_YIELD);
	cpu_restore_flags(flags);
}

/* See thread.h. */
void thread_set_nice(struct thread *td, int nice)
{
	uint64_t flags = cpu_save_flags_cli();
	if (sched_set_nice(&td->ts, nice) & SCHED_RESCHED)
		thread_resched_self();
	cpu_restore_flags(flags);
}

/* See thread.h. */
void thread_set_affinity(struct thread *td, const struct cpuset *mask)
{
	uint64_t flags = cpu_save_flags_cli();
	if (sched_set_affinity(&td->ts, mask) & SCHED_RESCHED)
		thread_resched_self();
	cpu_restore_flags(flags);
}

/* See thread.h. */
void preempt_disable(void)
{
	struct thread *td = thread_current();
	if (td)
		__atomic_add_fetch(&td->preempt_count, 1, __ATOMIC_RELAXED);
}

/* See thread.h. The owed switch happens here only with interrupts on
 * (otherwise the next interrupt exit or the caller's sti takes care). */
void preempt_enable(void)
{
	struct thread *td = thread_current();
	if (!td)
		return;
	KASSERT(td->preempt_count > 0, "thread %u: preempt_enable without disable", td->id);
	if (__atomic_sub_fetch(&td->preempt_count, 1, __ATOMIC_RELAXED) != 0)
		return;
	uint64_t flags = cpu_save_flags_cli();
	if ((flags & RFLAGS_IF) && percpu_self()->need_resched && !(td->flags & TDF_IDLE))
		thread_switch(SCHED_SW_PREEMPT);
	cpu_restore_flags(flags);
}

/* Ticks to charge the current thread at this tick: the ticks of guest
 * time since this CPU's previous tick (rounded, at most TIMER_HZ: a longer
 * gap counts as a second), but no more than it has held the CPU (this
 * tick included). More than 1 when tick interrupts were lost: QEMU merges
 * the ticks of a vCPU the host did not run, and the thread current then
 * had the CPU all that time; a thread switched in just before the merged
 * tick (a wake-up IPI is taken first) is not charged for the others'.
 * This CPU's tick, interrupts off. */
static int ticks_to_charge(struct percpu *p)
{
	const uint64_t tick_ns = 1000000000ull / TIMER_HZ;
	uint64_t now = time_ns();
	if (p->clock_ns == 0 || now < p->clock_ns) {   /* the first tick, or one early */
		p->clock_ns = now;
		return 1;
	}
	uint64_t n = (now - p->clock_ns + tick_ns / 2) / tick_ns;
	if (n > TIMER_HZ) {
		n = TIMER_HZ;
		p->clock_ns = now;
	} else {
		n = n ? n : 1;
		p->clock_ns += n * tick_ns;
	}
	uint64_t held = now > p->switch_ns ? (now - p->switch_ns) / tick_ns + 1 : 1;
	return (int)(n < held ? n : held);
}

/* See thread.h. Timers run first, outside any scheduler lock. */
void thread_tick(void)
{
	timer_tick();
	struct percpu *p = percpu_self();
	if (!p->sched_ready)
		return;
	if (sched_clock((int)p->cpu, thread_ts(p->curthread), ticks_to_charge(p)))
		p->need_resched = 1;
}

/* See thread.h. */
void thread_resched_ipi(void)
{
	struct percpu *p = percpu_self();
	if (p->sched_ready && sched_ipi((int)p->cpu, thread_ts(p->curthread)))
		p->need_resched = 1;
}

/* See thread.h. */
void thread_irq_exit(uint64_t rflags)
{
	struct percpu *p = percpu_self();
	if (!p->need_resched || !p->sched_ready || !(rflags & RFLAGS_IF))
		return;
	struct thread *td = p->curthread;
	if (td->preempt_count || (td->flags & TDF_IDLE))
		return;
	thread_switch(SCHED_SW_PREEMPT);
}

/* See thread.h. */
unsigned thread_check_queues(void)
{
	unsigned checked = 0;
	for (unsigned c = 0; c < smp_cpu_count(); c++) {
		if (!smp_cpu_online(c))
			continue;
		uint64_t flags = cpu_save_flags_cli();   /* the tdq lock is taken with interrupts off */
		sched_check_invariants((int)c);
		cpu_restore_flags(flags);
		checked++;
	}
	return checked;
}
