/* SPDX-License-Identifier: BSD-2-Clause */
/* lockup.c — lockups made on purpose (see lockup.h). The spins read the
 * TSC inline and call nothing, so the watchdog's report from inside them
 * always names the spinning function as frame #0. */
#include <shell/lockup.h>
#include <thread/thread.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/clock/time.h>

struct lockup_job {
	int irqs_off;
	uint64_t cycles;   /* TSC cycles to spin */
};

/* Spin until the TSC reaches end with preemption off: ticks come, no
 * switch. The calling thread; interrupts on. */
static void __attribute__((noipa)) lockup_spin_preempt_off(uint64_t end)
{
	preempt_disable();
	while (rdtsc() < end)
		cpu_pause();
	preempt_enable();
}

/* Spin until the TSC reaches end with interrupts off: no tick either. */
static void __attribute__((noipa)) lockup_spin_irqs_off(uint64_t end)
{
	uint64_t flags = cpu_save_flags_cli();
	while (rdtsc() < end)
		cpu_pause();
	cpu_restore_flags(flags);
}

/* The bound thread: one spin of the job's kind and length. */
static void lockup_thread(void *arg)
{
	const struct lockup_job *job = arg;
	uint64_t end = rdtsc() + job->cycles;
	if (job->irqs_off)
		lockup_spin_irqs_off(end);
	else
		lockup_spin_preempt_off(end);
}

/* See lockup.h. The job lives on the caller's stack: the caller joins. */
int lockup_run(unsigned cpu, int irqs_off, uint64_t seconds)
{
	struct cpuset only;
	cpuset_zero(&only);
	cpuset_set(&only, cpu);
	struct lockup_job job = { .irqs_off = irqs_off, .cycles = seconds * time_tsc_hz() };
	struct thread_attr attr = { .affinity = &only };
	struct thread *td = thread_create(irqs_off ? "lockup hard" : "lockup soft", lockup_thread, &job,
					  &attr);
	if (!td)
		return -1;
	thread_join(td);
	return 0;
}
