/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * arch_hooks.h — every call kernel/arch/x86_64/ makes up into the layers
 * above it, declared in one place, so `grep -rn arch_hooks.h
 * kernel/arch/x86_64` lists the arch files that cross upward and this
 * file lists what they call (the habit of seL4, whose machine code reaches
 * the kernel proper through a small set of declared entry points).
 *
 * The rule (checked by tests/host/test_layers.py in `make test`): a file
 * under kernel/arch/x86_64/ includes only
 *   - the C headers (<stdint.h>, <stddef.h>, <stdarg.h>, ...),
 *   - the base services, which call nothing above them: arch's own
 *     headers, kernel/kern/ (printk, console, panic), kernel/lib/
 *     (strings, formatting, parsers, sysctl, the command line, the CPU
 *     descriptor) and kernel/mm/ (memory),
 *   - and this file, which no other base service includes.
 * Everything else is a layer above arch and is reached only through the
 * declarations below: the thread layer (kernel/thread/, kernel/sync/,
 * kernel/sched/), processes (kernel/user/), the console's input device
 * and the framebuffer console (kernel/dev/). The drivers that use the
 * thread layer (the HFI and RAPL drivers) live in kernel/dev/; the
 * emulated platform (kernel/emul/) is reached only through the MSR/CPUID
 * door (cpu/door.h), where it answers as hardware.
 *
 * Each function is defined by the layer named in its group, whose source
 * includes this file too, so a declaration here that drifts from the
 * definition does not compile. Called from assembly (no C caller):
 * kernel_main (entry.asm), thread_start (switch.asm), syscall_dispatch
 * (trap/syscall.asm).
 */
#ifndef MOSAIC_ARCH_HOOKS_H
#define MOSAIC_ARCH_HOOKS_H
#include <stdint.h>

struct boot_info;
struct trap_frame;

/* ---- boot (kernel/main.c) ---- */

/* The kernel proper, from entry.asm with the loader's hand-off. */
void kernel_main(const struct boot_info *bi);

/* ---- the thread layer (kernel/thread/) ---- */

/* The tick: timers, sched_clock(). From the LAPIC timer handler
 * (clock/tick.c), interrupts off. */
void thread_tick(void);
/* The reschedule IPI's handler (intr/ipi.c), interrupts off. */
void thread_resched_ipi(void);
/* Last step of every interrupt (trap/trap.c, after EOI): switch if one is
 * owed and the interrupted code may be preempted. rflags: the interrupted
 * RFLAGS. */
void thread_irq_exit(uint64_t rflags);
/* Where an AP goes once it is online (smp/smp_boot.c). Never returns. */
void thread_ap_enter(unsigned cpu) __attribute__((noreturn));
/* Entry of every new thread, from switch.asm. */
void thread_start(void (*fn)(void *), void *arg) __attribute__((noreturn));
/* 1 once the scheduler runs (clock/watchdog.c). Lock-free. */
int thread_sched_running(void);
/* The calling thread's preemption-disable count (cpu/tlb.c, around a
 * TLB shootdown; intr/ipi.c, around a cross-CPU call); the outermost
 * enable switches if one was owed. */
void preempt_disable(void);
void preempt_enable(void);

/* ---- processes (kernel/user/) ---- */

/* An exception in user mode (trap/trap.c). Interrupts off; never
 * returns. */
void user_fault(struct trap_frame *tf, uint64_t addr) __attribute__((noreturn));
/* On the way back to user mode (trap/trap.c). */
void user_return_check(void);
/* A system call, from trap/syscall.asm with the user registers saved. */
void syscall_dispatch(struct trap_frame *tf);

/* ---- the console's input device (kernel/dev/console_input.c) ----
 * The serial port's receive interrupt (serial.c) hands its bytes up;
 * console_input.h says what each call promises. Interrupts off. */
int console_input_push(char c);
unsigned console_input_room(void);
void console_input_on_room(void (*fn)(void));

/* ---- devices above the console (kernel/dev/) ---- */

/* From the boot CPU's timer tick (clock/tick.c), interrupts off. */
void fbcon_tick(void);

#endif
