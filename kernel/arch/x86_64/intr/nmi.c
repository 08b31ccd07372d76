/* SPDX-License-Identifier: BSD-2-Clause */
/* nmi.c — the NMI handler and the NMIs one CPU sends another. An NMI is
 * an IPI with delivery mode NMI (ICR bits 10:8 = 100b; the vector field is
 * ignored) and always enters through IDT vector 2 (Intel SDM vol. 3, the
 * APIC chapter, "Interrupt Command Register"). It is taken with
 * interrupts off too, and the CPU holds back further NMIs until the
 * handler's IRET (Intel SDM vol. 3, "NMI Interrupt Handling"); the entry
 * runs on its own IST stack (trap/idt.c) and fixes GS itself
 * (trap/isr.asm), since it may land anywhere, in another handler too. */
#include <arch/x86_64/intr/nmi.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/intr/lapic.h>
#include <arch/x86_64/trap/trap.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/smp/smp.h>
#include <kern/printk.h>
#include <kern/console.h>
#include <arch/x86_64/trap/backtrace.h>

#define STOP_WAIT_US 100000    /* for every CPU to park */
#define TURN_WAIT_US 1000000   /* for one parked CPU's backtrace */
#define NO_TURN (-1)

static volatile int stopping;             /* set once a panic began stopping CPUs */
static volatile int stop_turn = NO_TURN;  /* the parked CPU to print its backtrace now */
static volatile int stop_printed[MAXCPU]; /* 1 once that CPU printed it */
/* A report asked of each CPU, taken (set back to NULL) by its handler. */
static nmi_report_fn report_wanted[MAXCPU];

/* A panic's stop on this CPU: park, wait for this CPU's turn, print the
 * backtrace of the interrupted code inside a console block, halt. */
static void __attribute__((noreturn)) nmi_park(struct percpu *p, const struct trap_frame *tf)
{
	__atomic_store_n(&p->stopped, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&stop_turn, __ATOMIC_ACQUIRE) != (int)p->cpu)
		cpu_pause();
	console_hold_begin();
	printk("cpu %u, stopped by the panic:\n", p->cpu);
	backtrace_print(tf->rip, tf->rbp);
	console_hold_end();
	__atomic_store_n(&stop_printed[p->cpu], 1, __ATOMIC_RELEASE);
	cpu_halt_forever();
}

/* Vector 2. A panic's stop comes first (it also ends any report asked of
 * this CPU); then a requested report; anything else (LINT1, a hardware
 * error line) is stray: one line, and carry on. NMI context. */
static void nmi_handler(struct trap_frame *tf)
{
	struct percpu *p = percpu_self();
	if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE))
		nmi_park(p, tf);
	nmi_report_fn fn = __atomic_exchange_n(&report_wanted[p->cpu], NULL, __ATOMIC_ACQ_REL);
	if (fn) {
		fn(tf);
		return;
	}
	console_hold_begin();
	printk("nmi: unexpected NMI on cpu %u at rip %016lx; ignored\n", p->cpu, tf->rip);
	console_hold_end();
}

/* See nmi.h. */
void nmi_init(void)
{
	trap_set_handler(2, nmi_handler);
}

/* See nmi.h. The request is posted before the NMI is sent, so the handler
 * finds it. */
int nmi_request_report(unsigned cpu, nmi_report_fn fn)
{
	nmi_report_fn none = NULL;
	if (!__atomic_compare_exchange_n(&report_wanted[cpu], &none, fn, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return -1;
	uint64_t flags = cpu_save_flags_cli();
	lapic_send_ipi(percpu_get(cpu)->apic_id, LAPIC_ICR_NMI | LAPIC_ICR_ASSERT);
	cpu_restore_flags(flags);
	return 0;
}

/* 1 when every online CPU other than the caller has parked. */
static int nmi_others_stopped(void)
{
	unsigned me = cpu_current();
	for (unsigned i = 0; i < smp_cpu_count(); i++)
		if (i != me && smp_cpu_online(i) && !__atomic_load_n(&percpu_get(i)->stopped,
								     __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

/* See nmi.h. */
void nmi_stop_others(void)
{
	cpu_cli();
	if (smp_online_count() <= 1 || __atomic_exchange_n(&stopping, 1, __ATOMIC_ACQ_REL))
		return;
	lapic_send_ipi(0, LAPIC_ICR_NMI | LAPIC_ICR_ASSERT | LAPIC_ICR_ALL_BUT_SELF);
	for (unsigned waited = 0; waited < STOP_WAIT_US && !nmi_others_stopped(); waited += 100)
		time_udelay(100);
}

/* See nmi.h. One turn at a time, so the backtraces come out in CPU order
 * and never mixed; a CPU that misses its turn loses it for good. */
void nmi_print_stopped(void)
{
	unsigned me = cpu_current();
	if (!__atomic_load_n(&stopping, __ATOMIC_ACQUIRE))
		return;
	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		if (i == me || !smp_cpu_online(i))
			continue;
		if (!__atomic_load_n(&percpu_get(i)->stopped, __ATOMIC_ACQUIRE)) {
			printk("cpu %u did not stop: no backtrace\n", i);
			continue;
		}
		__atomic_store_n(&stop_turn, (int)i, __ATOMIC_RELEASE);
		unsigned waited = 0;
		while (!__atomic_load_n(&stop_printed[i], __ATOMIC_ACQUIRE) && waited < TURN_WAIT_US) {
			time_udelay(100);
			waited += 100;
		}
		if (!stop_printed[i])
			printk("cpu %u printed no backtrace within 1 s\n", i);
	}
	__atomic_store_n(&stop_turn, NO_TURN, __ATOMIC_RELEASE);
}
