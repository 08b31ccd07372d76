/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * percpu.h — the per-CPU record, reached through GS.
 *
 * Each CPU's IA32_GS_BASE points at its own struct percpu, whose first
 * field points at itself, so `mov %gs:0` yields the record in one
 * instruction. The records live in one static array indexed by logical
 * CPU id; record 0 (the boot CPU) is usable from the first C code on.
 */
#ifndef MOSAIC_ARCH_PERCPU_H
#define MOSAIC_ARCH_PERCPU_H
#include <stdint.h>
#include <lib/cpu_desc.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/trap/trap.h>

/* One-slot call-function mailbox (see ipi.c). */
struct smp_mailbox {
	void (*volatile fn)(void *);   /* claimed (set to NULL) by the target */
	void *volatile arg;
	volatile uint64_t requested;   /* calls posted */
	volatile uint64_t done;        /* calls finished */
};

struct thread;

struct percpu {
	struct percpu *self;           /* must stay first: %gs:0 */
	/* System-call entry (syscall.asm reads these at fixed offsets). */
	uint64_t kernel_rsp;           /* %gs:8: top of the running user thread's kernel stack */
	uint64_t user_rsp;             /* %gs:16: the user RSP while the entry saves it */
	unsigned cpu;                  /* logical id */
	uint32_t apic_id;
	volatile int online;           /* 1 once the CPU runs its idle loop (or the shell) */
	int entered;                   /* 1 once an AP runs kernel C code (smp_boot.c) */
	volatile int stopped;          /* 1 once a panic's NMI has parked it */
	volatile uint64_t ticks;       /* LAPIC timer interrupts on this CPU */
	struct smp_mailbox mailbox;
	uint64_t stack_top;            /* AP: kernel stack the trampoline switches to */
	uint64_t ist_top[IST_COUNT];   /* IST stack tops: [IST_x - 1] */
	int desc_valid;                /* desc filled by enumeration */
	struct cpu_desc desc;
	/* Threads (thread.h); written by this CPU only, NULL until thread_boot(). */
	struct thread *curthread;      /* the thread running here */
	uint32_t *fail_nth;            /* curthread's allocation-failure count (fail_nth.c), set with it */
	struct thread *volatile idlethread;   /* set by the boot CPU; an AP waits for it */
	volatile int need_resched;     /* switch at the next preemption point */
	volatile int sched_ready;      /* 1 once this CPU runs threads */
	uint64_t switch_ns;            /* time of this CPU's last switch (thread_switch) */
	uint64_t clock_ns;             /* guest time up to which this CPU's ticks were counted (thread_tick) */
	volatile uint64_t sched_seen_ns;   /* last entry into the scheduler (thread_switch), switch or not: the soft watchdog */
};

_Static_assert(__builtin_offsetof(struct percpu, kernel_rsp) == 8, "syscall.asm: PCPU_KERNEL_RSP");
_Static_assert(__builtin_offsetof(struct percpu, user_rsp) == 16, "syscall.asm: PCPU_USER_RSP");

/* The record of logical CPU cpu (< MAXCPU). */
struct percpu *percpu_get(unsigned cpu);

/* The calling CPU's record. Needs percpu_init_bsp() (boot CPU) or
 * percpu_load() (AP). */
static inline struct percpu *percpu_self(void)
{
	struct percpu *p;
	__asm__ volatile("movq %%gs:0, %0" : "=r"(p));
	return p;
}

/* The thread running on the calling CPU, read in one instruction: right
 * even with interrupts on (percpu_self()->curthread is two loads, and a
 * thread that migrates between them reads the record of the CPU it left,
 * whose current thread is another one). Needs percpu_ready(). */
static inline struct thread *percpu_curthread(void)
{
	struct thread *td;
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(td)
			 : "i"(__builtin_offsetof(struct percpu, curthread)));
	return td;
}

/* The running thread's allocation-failure count (its struct thread's, set
 * with curthread), read in one instruction like percpu_curthread(): the
 * memory allocators reach it without knowing what a thread is. NULL
 * before the thread layer runs here. Needs percpu_ready(). */
static inline uint32_t *percpu_fail_nth(void)
{
	uint32_t *n;
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(n)
			 : "i"(__builtin_offsetof(struct percpu, fail_nth)));
	return n;
}

/* Boot CPU: point GS at record 0 (its APIC id is filled in by
 * smp_start_aps()). Boot-time, after gdt_init() (which reloads GS). */
void percpu_init_bsp(void);
/* Point this CPU's GS base at p. Per CPU, at bring-up. */
void percpu_load(struct percpu *p);
/* 1 once the boot CPU's GS is set up (cpu_current() is 0 before). */
int percpu_ready(void);

#endif
