/* SPDX-License-Identifier: BSD-2-Clause */
/* trap.c — dispatch of every vector: device handlers, and the report that
 * ends the machine's run on an exception. */
#include <arch/x86_64/trap/trap.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/intr/lapic.h>
#include <kern/printk.h>
#include <kern/panic.h>
#include <arch/x86_64/trap/backtrace.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/cpu/user_cpu.h>

extern trap_handler_t trap_handlers[256];

/* The exceptions' names, after the Intel SDM vol. 3A table "Protected-Mode
 * Exceptions and Interrupts" in short. The one table for every message
 * that names an exception (kernel traps, user faults, a process's end). */
static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow", "bound range",
	"invalid opcode", "device not available", "double fault", "coprocessor overrun",
	"invalid TSS", "segment not present", "stack fault", "general protection",
	"page fault", "reserved", "x87 FP error", "alignment check", "machine check",
	"SIMD FP error", "virtualization", "control protection", "reserved", "reserved",
	"reserved", "reserved", "reserved", "reserved", "hypervisor injection",
	"VMM communication", "security", "reserved",
};

/* See trap.h. */
const char *trap_exception_name(uint64_t vector)
{
	return vector < 32 ? exception_names[vector] : "exception";
}

static void print_page_fault_cause(uint64_t err)
{
	printk("  cause: %s %s in %s mode%s%s\n",
	       err & 1 ? "protection violation on" : "not-present page on",
	       err & 16 ? "instruction fetch" : (err & 2 ? "write" : "read"),
	       err & 4 ? "user" : "kernel",
	       err & 8 ? ", reserved bit set" : "",
	       err & 32 ? ", protection key" : "");
}

/* See trap.h. */
void trap_print_registers(const struct trap_frame *tf)
{
	printk("  RIP=%016lx CS=%04lx RFLAGS=%016lx\n", tf->rip, tf->cs, tf->rflags);
	printk("  RSP=%016lx SS=%04lx\n", tf->rsp, tf->ss);
	printk("  RAX=%016lx RBX=%016lx RCX=%016lx\n", tf->rax, tf->rbx, tf->rcx);
	printk("  RDX=%016lx RSI=%016lx RDI=%016lx\n", tf->rdx, tf->rsi, tf->rdi);
	printk("  RBP=%016lx R8 =%016lx R9 =%016lx\n", tf->rbp, tf->r8, tf->r9);
	printk("  R10=%016lx R11=%016lx R12=%016lx\n", tf->r10, tf->r11, tf->r12);
	printk("  R13=%016lx R14=%016lx R15=%016lx\n", tf->r13, tf->r14, tf->r15);
	printk("  CR0=%016lx CR3=%016lx CR4=%016lx\n", read_cr0(), read_cr3(), read_cr4());
}

/* An exception in the kernel is fatal: report it fully, then stop. */
static void __attribute__((noreturn)) exception_report(struct trap_frame *tf)
{
	panic_begin();
	printk("\nEXCEPTION: vector %lu (%s), error code 0x%lx\n", tf->vector,
	       trap_exception_name(tf->vector), tf->error_code);
	if (tf->vector == 14) {
		printk("  CR2=%016lx (faulting address)\n", read_cr2());
		print_page_fault_cause(tf->error_code);
	}
	if (tf->vector == 8)
		printk("  (running on the double-fault IST stack)\n");
	else if (tf->vector == 18)
		printk("  (running on the machine-check IST stack)\n");
	trap_print_registers(tf);
	backtrace_print(tf->rip, tf->rbp);
	panic_stop();
}

static uint64_t unexpected_interrupts;

/* Called by isr.asm with interrupts off, on the interrupted stack (or an
 * IST stack). Handlers run with interrupts off. An exception in user mode
 * ends that process (user_fault()); one in the kernel is fatal, except a
 * page fault inside the user-copy routines, which they report as
 * ERR_FAULT, and a #GP of rdmsr_safe(), which it reports as -1. Back to
 * user mode, a thread whose process was killed leaves
 * (user_return_check()). */
void trap_dispatch(struct trap_frame *tf)
{
	uint64_t vec = tf->vector;
	if (vec < 32) {
		if (vec == 2 && trap_handlers[2]) {
			trap_handlers[2](tf);
			return;
		}
		if ((tf->cs & 3) == 3)
			user_fault(tf, vec == 14 ? read_cr2() : tf->rip);
		if (user_copy_fixup(tf) || msr_safe_fixup(tf))
			return;
		exception_report(tf);
	}
	if (vec == VEC_SPURIOUS)
		return;
	if (trap_handlers[vec])
		trap_handlers[vec](tf);
	else if (unexpected_interrupts++ < 8)
		printk("trap: unexpected interrupt on vector %lu\n", vec);
	lapic_eoi();
	thread_irq_exit(tf->rflags);   /* preemption point: may switch threads */
	if ((tf->cs & 3) == 3)
		user_return_check();
}
