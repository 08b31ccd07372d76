/* SPDX-License-Identifier: BSD-2-Clause */
/* watchdog.c — the lockup watchdogs, run from every CPU's timer tick once
 * the scheduler runs (sched=off: none).
 *
 * Soft lockup: the CPU's ticks come but its scheduler has not run for
 * kern.watchdog.soft_s seconds (percpu sched_seen_ns, stamped by every
 * entry into thread_switch(), a switch or not: a thread that keeps
 * preemption off, or never reaches a preemption point). The CPU finds it
 * itself, on its tick, and prints the interrupted registers and backtrace.
 *
 * Hard lockup: the CPU's ticks have stopped for kern.watchdog.hard_s
 * seconds (interrupts off). It cannot see that itself: every other CPU
 * looks at the time of its last tick on each of their own ticks, the
 * first to find it stale sends it an NMI (intr/nmi.c), and the stuck
 * CPU's NMI handler prints its registers and backtrace.
 *
 * Each episode is reported once, and its end gets one line; a hard
 * lockup counts as the soft one of the same stretch too. 0 turns a
 * watchdog off. */
#include <arch/x86_64/clock/watchdog.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/intr/nmi.h>
#include <arch/x86_64/trap/trap.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/smp/smp.h>
#include <kern/printk.h>
#include <kern/console.h>
#include <arch/x86_64/trap/backtrace.h>
#include <lib/sysctl.h>
#include <arch/x86_64/arch_hooks.h>

#define NS_PER_MS 1000000ul
#define NS_PER_S  1000000000ul

static int64_t soft_s = 20;
static int64_t hard_s = 10;
SYSCTL_INT(kern_watchdog_soft_s, "kern.watchdog.soft_s", &soft_s, 1, 0, 3600,
	   "seconds a CPU may go without running its scheduler before it reports a soft "
	   "lockup (registers, backtrace); 0: off");
SYSCTL_INT(kern_watchdog_hard_s, "kern.watchdog.hard_s", &hard_s, 1, 0, 3600,
	   "seconds a CPU may go without a timer tick (interrupts off) before another CPU "
	   "NMIs it for its registers and backtrace; 0: off");

/* Per CPU. Written by that CPU on its tick, except hard_since. */
static volatile uint64_t tick_ns[MAXCPU];   /* time of its last tick, 0: none yet */
static uint64_t soft_episode[MAXCPU];       /* sched_seen_ns of the stretch dealt with, 0: none */
static int soft_reported[MAXCPU];           /* that stretch was reported soft: its end gets a line */
/* The last tick before a stretch reported hard, 0: none. Set by the CPU
 * that found it (compare-and-swap: one finder), cleared by the stuck CPU
 * at its next tick. */
static volatile uint64_t hard_since[MAXCPU];

/* The hard lockup's report, on the stuck CPU, from its NMI handler
 * (nmi_report_fn): no lock, a console block. */
static void watchdog_hard_report(struct trap_frame *tf)
{
	unsigned me = cpu_current();
	uint64_t since = __atomic_load_n(&hard_since[me], __ATOMIC_ACQUIRE);
	console_hold_begin();
	printk("watchdog: hard lockup on cpu %u: no timer tick for %lu ms; its state at the NMI:\n",
	       me, since ? (time_ns() - since) / NS_PER_MS : 0);
	trap_print_registers(tf);
	backtrace_print(tf->rip, tf->rbp);
	console_hold_end();
}

/* This CPU ticks again after a stretch reported hard: say so, and let the
 * soft watchdog keep quiet about the same stretch. Its tick; no lock. */
static void watchdog_hard_end(struct percpu *p, uint64_t now)
{
	uint64_t since = __atomic_exchange_n(&hard_since[p->cpu], 0, __ATOMIC_ACQ_REL);
	if (!since)
		return;
	printk("watchdog: cpu %u ticks again after %lu ms (hard lockup over)\n", p->cpu,
	       (now - since) / NS_PER_MS);
	uint64_t seen = __atomic_load_n(&p->sched_seen_ns, __ATOMIC_RELAXED);
	if (soft_episode[p->cpu] != seen) {
		soft_episode[p->cpu] = seen;
		soft_reported[p->cpu] = 0;
	}
}

/* The soft watchdog of this CPU: end the stretch dealt with once the
 * scheduler ran again; report a new one that passed the limit (in a
 * console block). tf: the tick's interrupted state. Its tick; no lock. */
static void watchdog_soft_check(struct percpu *p, struct trap_frame *tf, uint64_t now)
{
	unsigned me = p->cpu;
	uint64_t seen = __atomic_load_n(&p->sched_seen_ns, __ATOMIC_RELAXED);
	if (soft_episode[me] && soft_episode[me] != seen) {
		if (soft_reported[me])
			printk("watchdog: cpu %u scheduled again after %lu ms (soft lockup over)\n", me,
			       (seen - soft_episode[me]) / NS_PER_MS);
		soft_episode[me] = 0;
		soft_reported[me] = 0;
	}
	uint64_t limit = (uint64_t)__atomic_load_n(&soft_s, __ATOMIC_RELAXED) * NS_PER_S;
	if (!limit || !seen || soft_episode[me] || now < seen || now - seen < limit)
		return;
	soft_episode[me] = seen;
	soft_reported[me] = 1;
	console_hold_begin();
	printk("watchdog: soft lockup on cpu %u: not scheduled for %lu ms; its state at the tick:\n",
	       me, (now - seen) / NS_PER_MS);
	trap_print_registers(tf);
	backtrace_print(tf->rip, tf->rbp);
	console_hold_end();
}

/* The hard watchdog, from this CPU: every other CPU that runs threads and
 * has not ticked for the limit, and is not reported yet, gets an NMI.
 * Lock-free: the compare-and-swap on hard_since picks one finder. */
static void watchdog_hard_check(unsigned me, uint64_t now)
{
	uint64_t limit = (uint64_t)__atomic_load_n(&hard_s, __ATOMIC_RELAXED) * NS_PER_S;
	if (!limit)
		return;
	for (unsigned cpu = 0; cpu < smp_cpu_count(); cpu++) {
		uint64_t last = __atomic_load_n(&tick_ns[cpu], __ATOMIC_ACQUIRE), none = 0;
		if (cpu == me || !last || now < last || now - last < limit ||
		    !__atomic_load_n(&percpu_get(cpu)->sched_ready, __ATOMIC_ACQUIRE))
			continue;
		if (!__atomic_compare_exchange_n(&hard_since[cpu], &none, last, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			continue;   /* reported already, this stretch */
		/* A block: the stuck CPU may hold the console lock for good. */
		console_hold_begin();
		printk("watchdog: cpu %u sees no timer tick on cpu %u for %lu ms; sending it an NMI\n", me,
		       cpu, (now - last) / NS_PER_MS);
		console_hold_end();
		nmi_request_report(cpu, watchdog_hard_report);
	}
}

/* See watchdog.h. */
void watchdog_tick(struct trap_frame *tf)
{
	struct percpu *p = percpu_self();
	uint64_t now = time_ns();
	__atomic_store_n(&tick_ns[p->cpu], now, __ATOMIC_RELEASE);
	if (!thread_sched_running() || !p->sched_ready)
		return;
	watchdog_hard_end(p, now);
	watchdog_soft_check(p, tf, now);
	watchdog_hard_check(p->cpu, now);
}
