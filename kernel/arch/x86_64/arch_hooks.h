/*
 * arch_hooks.h — every call kernel/arch/x86_64/ makes up into the layers
 * above it, declared in one place, so `grep -rn arch_hooks.h
 * kernel/arch/x86_64` lists the arch files that cross upward and this
 * file lists what they call (the habit of seL4, whose machine code reaches
 * the kernel proper through a small set of declared entry points).
 *
 * The rule (checked by tests/host/test_arch_hooks.py in `make test`): a
 * file under kernel/arch/x86_64/ includes only
 *   - the C headers (<stdint.h>, <stddef.h>, <stdarg.h>, ...),
 *   - arch headers (kernel/arch/x86_64/ and its rooms),
 *   - the kernel services every layer may use, which call nothing back:
 *     printk.h, console.h, panic.h, backtrace.h, spinlock.h, string.h,
 *     mm.h, sysctl.h, cmdline.h, smp.h, time.h, power.h, serial.h,
 *     cpu_desc.h, and the sleeping primitives waitq.h and timer.h,
 *   - the scheduler's platform header kernel/sched/sched_plat.h, which
 *     arch implements (sched_plat.c),
 *   - and this file.
 * Everything else is a layer above arch and is reached only through the
 * declarations below: the thread layer (thread.h, kernel/sched/),
 * processes (user.h, kernel/user/), the shell, the devices above the
 * console (fbcon.h). The emulated platform (kernel/emul/) is reached only
 * through the MSR/CPUID door (cpu/door.h), where it answers as hardware.
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
struct cpu_group;
struct thread;
struct trap_frame;

/* ---- boot (kernel/main.c) ---- */

/* The kernel proper, from entry.asm with the loader's hand-off. */
void kernel_main(const struct boot_info *bi);

/* ---- the thread layer (kernel/thread*.c) ---- */

/* The tick: timers, sched_clock(). From the LAPIC timer handler
 * (clock/time.c), interrupts off. */
void thread_tick(void);
/* The reschedule IPI's handler (intr/ipi.c), interrupts off. */
void thread_resched_ipi(void);
/* Last step of every interrupt (trap/trap.c, after EOI): switch if one is
 * owed and the interrupted code may be preempted. rflags: the interrupted
 * RFLAGS. */
void thread_irq_exit(uint64_t rflags);
/* Where an AP goes once it is online (smp/smp_boot.c). Never returns. */
void thread_ap_enter(unsigned cpu) __attribute__((noreturn));
/* The topology tree thread_boot() built, NULL before (sched_plat.c). */
struct cpu_group *thread_topo_root(void);
/* Entry of every new thread, from switch.asm. */
void thread_start(void (*fn)(void *), void *arg) __attribute__((noreturn));
/* 1 once the scheduler runs (hfi/hfi_kernel.c). Lock-free. */
int thread_sched_running(void);
/* A detached kernel thread running fn(arg) with the default class, nice
 * and affinity, runnable at once; NULL when out of memory
 * (hfi/hfi_kernel.c's publisher). Threads context, interrupts on. */
struct thread *thread_create_detached(const char *name, void (*fn)(void *), void *arg);
/* Sleep at least ns (tick resolution). Threads context, interrupts on. */
void thread_sleep_ns(uint64_t ns);
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

/* From the boot CPU's timer tick (clock/time.c), interrupts off. */
void fbcon_tick(void);

/* ---- hmp's providers' interface (kernel/sched/hmp.h) ----
 * The HFI driver (hfi/) is an hmp provider: it pushes scores with
 * hmp_provide(), hmp_publish() and hmp_set_status(). That header is the
 * scheduler's published interface for providers (types and calls), taken
 * whole here rather than copied. */
#include <sched/hmp.h>

#endif
