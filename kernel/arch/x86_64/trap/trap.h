/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trap.h — the interrupt descriptor table and the frame every vector saves.
 *
 * Vector plan: 0-31 exceptions; 0x20-0x2F ISA IRQs routed through the IOAPIC
 * (ISA irq n -> vector 0x20+n); 0x30-0xEF free for devices and IPIs (0x40:
 * the xHCI controllers' MSI/MSI-X, kernel/dev/usb/usb.c);
 * 0xF0 LAPIC timer; 0xFA thermal LVT (HFI updates); 0xFF spurious.
 */
#ifndef MOSAIC_ARCH_TRAP_H
#define MOSAIC_ARCH_TRAP_H

#include <stdint.h>

#define VEC_ISA_BASE    0x20
#define VEC_LAPIC_TIMER 0xF0
#define VEC_THERMAL     0xFA   /* thermal sensor LVT: HFI updates (hfi/hfi_kernel.c) */
#define VEC_SPURIOUS    0xFF
#define IST_DOUBLE_FAULT  1
#define IST_NMI           2
#define IST_MACHINE_CHECK 3
#define IST_COUNT         3   /* IST stacks 1..IST_COUNT of every TSS */

/* Saved by isr.asm, in push order reversed (lowest address first). */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;   /* pushed by the CPU */
};

typedef void (*trap_handler_t)(struct trap_frame *tf);

/* The short name of exception vector 0..31 ("page fault", "invalid
 * opcode", ...), "exception" for any other number. Any context. */
const char *trap_exception_name(uint64_t vector);

/* Print the registers saved in tf, and the control registers of the
 * calling CPU (the watchdog's and the exception reports). printk only. */
void trap_print_registers(const struct trap_frame *tf);

/* Load the IDT with the entry points of all 256 vectors. Boot-time, per CPU. */
void idt_init(void);
void idt_load(void);
/* Install the handler for an interrupt vector (>= 0x20). For vectors >= 0x20
 * the dispatcher sends the LAPIC EOI after the handler returns (not for the
 * spurious vector). Boot-time; no lock. */
void trap_set_handler(uint8_t vector, trap_handler_t handler);
/* Load the boot CPU's GDT and TSS (static IST stacks). Boot-time. */
void gdt_init(void);
/* Give logical CPU cpu its own GDT and TSS with these IST stack tops
 * (ist_top[i] is stack i + 1: IST_DOUBLE_FAULT, IST_NMI, IST_MACHINE_CHECK)
 * and load them on the calling CPU (which must be cpu). Per CPU, bring-up. */
void gdt_init_cpu(unsigned cpu, const uint64_t ist_top[IST_COUNT]);
/* The stack an interrupt or exception from user mode starts on (TSS.RSP0)
 * for cpu; set at each switch to a thread of a process. */
void gdt_set_rsp0(unsigned cpu, uint64_t top);
/* Replace one IST stack (IST_DOUBLE_FAULT, IST_NMI, IST_MACHINE_CHECK) of
 * cpu's TSS. */
void gdt_set_ist(unsigned cpu, unsigned ist, uint64_t top);

#endif
