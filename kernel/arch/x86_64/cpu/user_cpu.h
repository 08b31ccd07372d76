/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * user_cpu.h — the CPU side of user mode: the SYSCALL MSRs, SMEP, SMAP and
 * UMIP, and what a switch to a thread of a process changes (its page
 * tables, the kernel stack that interrupts and system calls from user mode
 * land on). docs/userland.md.
 */
#ifndef MOSAIC_ARCH_USER_CPU_H
#define MOSAIC_ARCH_USER_CPU_H
#include <stdint.h>

struct trap_frame;

#define USER_CS 0x23                 /* GDT entry 4 (user code), RPL 3 */
#define USER_SS 0x1b                 /* GDT entry 3 (user data), RPL 3 */
#define USER_RFLAGS 0x202            /* IF and the reserved bit 1 */
#define VEC_SYSCALL 0x100            /* trap_frame.vector of a system call */

/* Which protections the CPUs run with (the boot CPU's CPUID decides; every
 * CPU gets the same). */
struct user_cpu_features {
	int smep, smap, umip;
};

/* Program SYSCALL (STAR, LSTAR, FMASK, EFER.SCE), IA32_KERNEL_GS_BASE and
 * CR4.SMEP/SMAP/UMIP (when the CPU has them) on every online CPU, through
 * smp_call_on(). Boot CPU, once, before the first process; interrupts on. */
void user_cpu_init(struct user_cpu_features *out);
/* What thread_switch() does between two threads, given what arch needs of
 * them (it sees no struct thread): a thread of a process leaving saves its
 * x87/SSE registers into prev_fpu (its FXSAVE area; NULL: a kernel
 * thread), one arriving (next_fpu not NULL) gets them back, its page
 * tables next_cr3 and its kernel stack next_stack_top as the stack of
 * interrupts and system calls from user mode (TSS.RSP0, percpu
 * kernel_rsp); a kernel thread (next_fpu NULL) gets the kernel's page
 * tables. Interrupts off. */
void user_cpu_switch(void *prev_fpu, void *next_fpu, uint64_t next_cr3, uint64_t next_stack_top);
/* tlb.c. After entries of the page tables cr3 were cleared
 * (kernel/user/uvm.c): every online CPU running on them reloads CR3, so
 * none keeps a translation to a page about to be freed; one round of IPIs
 * to those CPUs only, at once, shared with shootdowns that overlap. 0, or
 * -1 when a CPU did not flush within 20 s (reported; the caller must not
 * reuse the pages). Thread context, interrupts on, no spinlock held. */
int user_cpu_flush_tlb(uint64_t cr3);
/* tlb.c: install the shootdown's IPI handler. Boot CPU, before the first
 * process. */
void tlb_init(void);
/* tlb.c: this CPU is about to load the page tables cr3 (0: the kernel's);
 * user_cpu_switch() says so before the load. Interrupts off. */
void tlb_note_cr3(uint64_t cr3);
/* Enter user mode with tf's registers; never returns (syscall.asm).
 * Interrupts off. */
void arch_user_return(struct trap_frame *tf) __attribute__((noreturn));
/* Copy n bytes between kernel and user memory (usercopy.asm): 0 or
 * ERR_FAULT. Only kernel/user/usercopy.c calls these, after its checks. */
int64_t arch_copy_user(void *dst, const void *src, uint64_t n);
/* Copy a user string with its NUL, at most max bytes: its length, ERR_FAULT
 * or ERR_TOOBIG. */
int64_t arch_copy_user_str(char *dst, const char *src, uint64_t max);
/* If tf is a page fault (or, defensively, a general-protection fault)
 * inside the copy routines, point it at their fault exit and return 1;
 * else 0. From the exception path. */
int user_copy_fixup(struct trap_frame *tf);

#endif
