/* SPDX-License-Identifier: BSD-2-Clause */
/* panic.c — the one way the kernel stops after something went wrong. */
#include <kern/panic.h>
#include <kern/printk.h>
#include <arch/x86_64/trap/backtrace.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/power.h>
#include <lib/cmdline.h>
#include <lib/string.h>
#include <kern/console.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/intr/nmi.h>
#include <arch/x86_64/witness.h>

#define PANIC_NOBODY 0xFFFFFFFFu
static uint32_t panic_cpu = PANIC_NOBODY;   /* the CPU that owns the panic */
static const struct panic_keeper *keeper;   /* panic_set_keeper() */

/* See panic.h. */
void panic_set_keeper(const struct panic_keeper *k)
{
	__atomic_store_n(&keeper, k, __ATOMIC_RELEASE);
}

/* Ends the run as the command line asks (panic=halt|reboot|exit; default
 * halt), once each CPU panic_begin() stopped has printed its backtrace.
 * After panic_begin(); interrupts off; never returns. */
void panic_stop(void)
{
	nmi_print_stopped();
	const struct panic_keeper *k = __atomic_load_n(&keeper, __ATOMIC_ACQUIRE);
	if (k)
		k->store();        /* the report, for the next boot */
	const char *how = cmdline_choice("panic");   /* checked at boot */
	if (strcmp(how, "exit") == 0) {
		printk("System stopped (panic=exit).\n");
		power_qemu_exit(3);
	} else if (strcmp(how, "reboot") == 0) {
		printk("System stopped; rebooting (panic=reboot).\n");
		power_reboot();
	}
	printk("System halted.\n");
	cpu_halt_forever();
}

/* The first CPU to panic (or take a fatal exception) stops the others with
 * an NMI before it prints, so its report is not interleaved with their
 * output (they print their backtraces after it, in panic_stop()); a CPU
 * that panics second just stops (the first one's NMI parks it). Lock-order
 * checking (witness) ends here. Returns only on the first panicking CPU,
 * with interrupts off. */
void panic_begin(void)
{
	cpu_cli();
	uint32_t me = cpu_current(), nobody = PANIC_NOBODY;
	if (!__atomic_compare_exchange_n(&panic_cpu, &nobody, me, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		if (nobody == me) {   /* a panic while panicking */
			console_break_lock();
			printk("nested panic\n");
		}
		cpu_halt_forever();
	}
	/* The report takes locks (the console's); a stopped CPU may hold
	 * witness's table, and no order matters any more. */
	__atomic_store_n(&witness_enabled, 0, __ATOMIC_RELEASE);
	nmi_stop_others();
	console_break_lock();   /* a stopped CPU may have held it */
	const struct panic_keeper *k = __atomic_load_n(&keeper, __ATOMIC_ACQUIRE);
	if (k)
		k->begin();
}

void panic(const char *fmt, ...)
{
	panic_begin();
	uint32_t me = cpu_current();
	va_list ap;
	va_start(ap, fmt);
	printk("\npanic: ");
	vprintk(fmt, ap);
	printk("\n");
	if (smp_online_count() > 1)
		printk("(on cpu %u; the other CPUs were stopped)\n", me);
	va_end(ap);
	/* Start at our caller: its RIP and the frame pointer our frame saved. */
	backtrace_print((uint64_t)__builtin_return_address(0) - 1,
			*(uint64_t *)__builtin_frame_address(0));
	panic_stop();
}

void kassert_failed(const char *cond, const char *file, int line, const char *fmt, ...)
{
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	panic("assertion '%s' failed at %s:%d: %s", cond, file, line, msg);
}
