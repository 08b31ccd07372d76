/* SPDX-License-Identifier: BSD-2-Clause */
/* tick.c — the periodic tick: the LAPIC timer in TSC-deadline mode where
 * the CPU has it, else periodic, measured against the TSC (lapic.c), on
 * VEC_LAPIC_TIMER of every CPU. Each tick counts in the CPU's record and
 * runs the console's tick (boot CPU), the watchdogs and the thread
 * layer's tick, the last two through arch_hooks.h: the one place the
 * clock calls up. */
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/trap/trap.h>
#include <arch/x86_64/intr/lapic.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/percpu.h>
#include <lib/sysctl.h>
#include <arch/x86_64/clock/watchdog.h>
#include <arch/x86_64/arch_hooks.h>

/* The tick rate. Statistics (per-CPU tick counts, later the scheduler's
 * accounting) are taken on the same LAPIC interrupt, so stathz == hz. */
static int64_t time_hz = TIMER_HZ;
static int64_t time_stathz = TIMER_HZ;
SYSCTL_INT(kern_hz, "kern.hz", &time_hz, 0, 0, 0, "timer interrupts per second, on every CPU");
SYSCTL_INT(kern_stathz, "kern.stathz", &time_stathz, 0, 0, 0,
	   "statistics clock rate (the same LAPIC tick as kern.hz)");

/* The LAPIC timer vector: count one tick on this CPU, the watchdogs,
 * then the thread layer's tick (timers, sched_clock). Interrupts off;
 * only this CPU writes its counter. */
static void time_tick(struct trap_frame *tf)
{
	struct percpu *p = percpu_self();
	__atomic_store_n(&p->ticks, p->ticks + 1, __ATOMIC_RELAXED);
	lapic_timer_tick();             /* TSC-deadline mode: the next one */
	if (p->cpu == 0)
		fbcon_tick();           /* the console's thread: text to draw, status line */
	watchdog_tick(tf);
	thread_tick();
}

/* See time.h. Boot-time, single CPU, interrupts off. */
void time_tick_init(void)
{
	trap_set_handler(VEC_LAPIC_TIMER, time_tick);
	lapic_timer_start(TIMER_HZ);
	printk("time: tick %u Hz on vector 0x%x\n", TIMER_HZ, VEC_LAPIC_TIMER);
}

/* See time.h. Runs on the AP, interrupts off. */
void time_init_ap(void)
{
	lapic_timer_start(TIMER_HZ);
}
