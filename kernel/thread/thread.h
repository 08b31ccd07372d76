/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * thread.h — kernel threads: creation, exit, join, sleeping, yielding,
 * preemption control, and the hooks the tick, the IPIs and the boot path
 * call. Scheduling decisions belong to the ULE core (kernel/sched/sched.h);
 * this layer owns stacks, contexts, thread states and wait channels.
 *
 * States (td->state): RUNNABLE (queued or running), SLEEPING (blocked on a
 * wait queue or a timed sleep), DEAD (exited, waiting to be joined or
 * reaped). A wakeup moves SLEEPING → RUNNABLE by compare-and-swap, so one
 * sleep sees at most one sched_wakeup().
 *
 * Each CPU has an idle thread (no scheduler data: the core returns NULL
 * for "run idle"). The boot CPU's first thread ("main") is the boot flow
 * itself, which goes on to run the shell.
 *
 * Preemption: the tick (slice end), the reschedule IPI and local wakeups
 * of a better thread set the CPU's need_resched; the switch happens on the
 * way out of the interrupt, or at preempt_enable() when it
 * was owed inside a critical section. Spinlock holders run with
 * interrupts off and are never preempted.
 */
#ifndef MOSAIC_THREAD_H
#define MOSAIC_THREAD_H
#include <stdint.h>
#include <stddef.h>
#include <sync/waitq.h>
#include <sync/timer.h>
#include <emul/emul_workclock_model.h>
#include <lib/itd_hist.h>
#include <sched/sched.h>

#define THREAD_NAME_MAX 24
#define THREAD_STACK_PAGES 4

enum thread_state { TD_RUNNABLE = 0, TD_SLEEPING = 1, TD_DEAD = 2 };

#define TDF_IDLE 0x1       /* a CPU's idle thread */
#define TDF_DETACHED 0x2   /* nobody joins it: reaped after exit */
#define TDF_BOOT 0x4       /* the boot flow's own thread (stack not ours) */

struct uthread;

struct thread {
	uint64_t rsp;                   /* saved stack pointer while switched out */
	volatile uint32_t on_cpu;       /* 1 while some CPU runs on its stack */
	volatile uint32_t state;        /* enum thread_state */
	uint32_t id;
	uint32_t flags;                 /* TDF_* */
	char name[THREAD_NAME_MAX];
	int preempt_count;              /* > 0: no preemption (critical section) */
	volatile int cpu;               /* CPU it runs on / last ran on */
	void (*fn)(void *);
	void *arg;
	void *stack_top;                /* NULL for the boot thread */
	struct waitq *volatile wchan;   /* wait queue it sleeps on, or NULL */
	struct thread *wq_next;         /* link on that queue */
	struct timer sleep_timer;       /* wakes a timed sleep */
	struct waitq exit_wq;           /* joiners wait here for DEAD */
	struct thread *all_next, *all_prev;   /* every live thread (thread list lock) */
	uint64_t run_ns;                /* CPU time, all switches in to out */
	uint64_t on_since_ns;           /* when it last switched in */
	uint64_t nswitch_in;            /* times switched in */
	struct wc_clock wc;             /* work clock (emulated machines; docs/hfi.md) */
	struct itd_hist itd;            /* Thread Director classes read at its switches */
	struct uthread *uth;            /* its process's record of it (kernel/user/), NULL: a kernel thread */
	uint32_t fail_nth;              /* its n-th allocation from now fails, 0: none (fail_nth.h) */
	uint32_t trace_gen;             /* the `sched trace` that has its name (sched_trace.c; its switch-in only) */
	struct td_sched ts;             /* the ULE core's data */
};

/* Creation attributes; zero means the default (timeshare, nice 0, all CPUs,
 * joinable). */
struct thread_attr {
	int pri_class;                  /* enum sched_class; 0: timeshare */
	int nice;                       /* PRIO_MIN..PRIO_MAX */
	const struct cpuset *affinity;  /* NULL: every CPU */
	int detached;                   /* 1: reaped on exit, never joined */
	struct uthread *uth;            /* a thread of a process (kernel/user/); NULL: kernel */
};

/* ---- set-up (boot path) ---- */

/* Start the scheduler unless the command line says sched=off: build the
 * topology tree, sched_init(), make the boot flow the "main" thread of CPU
 * 0, create every CPU's idle thread and let the APs enter theirs. Boot CPU,
 * after smp_start_aps() and machine_platform_apply(), interrupts on. */
void thread_boot(void);
/* Where an AP goes once it is online: waits (sti;hlt) until thread_boot()
 * made its idle thread, then runs it. Never returns. */
void thread_ap_enter(unsigned cpu) __attribute__((noreturn));
/* 1 once thread_boot() started the scheduler (lock-free). */
int thread_sched_running(void);

/* ---- life cycle ---- */

/* New thread running fn(arg), made runnable at once; NULL when out of
 * memory. Threads context, interrupts on. */
struct thread *thread_create(const char *name, void (*fn)(void *), void *arg,
			     const struct thread_attr *attr);
/* thread_create() with attributes { .detached = 1 } (default class, nice
 * and affinity); for arch code, which sees no struct thread_attr
 * (arch_hooks.h). */
struct thread *thread_create_detached(const char *name, void (*fn)(void *), void *arg);
/* thread_create() in two steps, for callers that must know the thread
 * exists before anything can see it: thread_prepare() makes it (its id
 * given, its scheduler data inherited from the caller) without starting
 * it, NULL when out of memory; thread_launch() adds it to the thread list
 * and makes it runnable (it cannot fail); thread_discard() frees a
 * prepared thread that was never launched. Threads context, interrupts
 * on. */
struct thread *thread_prepare(const char *name, void (*fn)(void *), void *arg,
			      const struct thread_attr *attr);
void thread_launch(struct thread *td);
void thread_discard(struct thread *td);
/* End the calling thread (also what returning from fn does). */
void thread_exit(void) __attribute__((noreturn));
/* Wait until td (joinable, not yet joined) has exited, then free it. */
void thread_join(struct thread *td);
/* Entry of every new thread, from switch.asm. */
void thread_start(void (*fn)(void *), void *arg) __attribute__((noreturn));

/* ---- running ---- */

struct thread *thread_current(void);
uint32_t thread_id(const struct thread *td);
/* The calling thread's CPU time so far (ns), including the current run. */
uint64_t thread_self_run_ns(void);
/* Sleep at least ns (tick resolution). Threads context, interrupts on. */
void thread_sleep_ns(uint64_t ns);
/* Give the CPU to another runnable thread, if any. */
void thread_yield(void);
/* New nice value / affinity of td (any state); may preempt the caller. */
void thread_set_nice(struct thread *td, int nice);
void thread_set_affinity(struct thread *td, const struct cpuset *mask);

/* Block the calling thread: caller holds lk, taken with interrupts off,
 * and has recorded where it sleeps; lk is released once the scheduler
 * knows the thread sleeps, then the CPU goes to another thread. Returns
 * (lk not held, interrupts off) after thread_unblock(). */
void thread_block_locked(struct spinlock *lk);
/* Wake td if it is SLEEPING; 1 if this call woke it. Any context. */
int thread_unblock(struct thread *td);

/* Per-thread preemption-disable count: nestable; the outermost
 * preempt_enable() switches if a preemption was owed meanwhile. */
void preempt_disable(void);
void preempt_enable(void);

/* ---- hook points: what the layers above do at a switch ----
 * The thread layer calls nothing above it: the Thread Director's glue,
 * the emulated work clock and user mode each register what they do at a
 * switch, and what they add to a thread's record, here
 * (thread_hooks.c). Registered at boot (kernel/main.c) before the
 * scheduler starts, at most 4 of each kind; called in registration
 * order. */

/* cur (not an idle thread) is about to leave its CPU, before the
 * scheduler chooses what runs next. Interrupts off; must not sleep. */
typedef void (*thread_leave_hook)(struct thread *cur);
/* The calling CPU cpu switches from cur to next (another thread) at now
 * (time_ns()), before the registers are switched. Interrupts off; must
 * not sleep. */
typedef void (*thread_switch_hook)(unsigned cpu, struct thread *cur, struct thread *next, uint64_t now);
struct thread_info;
/* Fill the fields of *out that the hook's layer knows of td (its work
 * clock, its process). Under the thread list lock, interrupts off. */
typedef void (*thread_info_hook)(const struct thread *td, struct thread_info *out);
void thread_hook_leave(thread_leave_hook fn);
void thread_hook_switch(thread_switch_hook fn);
void thread_hook_info(thread_info_hook fn);

/* ---- hooks for the arch layer ---- */

/* The tick: timers, sched_clock(). From the LAPIC timer handler. */
void thread_tick(void);
/* The reschedule IPI's handler. */
void thread_resched_ipi(void);
/* Last step of every interrupt (after EOI): switch if one is owed and the
 * interrupted code may be preempted (interrupts were on, no critical
 * section, not the idle thread). rflags: the interrupted RFLAGS. */
void thread_irq_exit(uint64_t rflags);

/* ---- between the thread layer's files (kernel/thread/) ---- */

/* Build td's initial stack frame so that switching to it runs fn(arg). */
void thread_frame_init(struct thread *td, void (*fn)(void *), void *arg);
/* Set td's name (cut to THREAD_NAME_MAX - 1). */
void thread_set_name(struct thread *td, const char *name);
/* A THREAD_STACK_PAGES stack (top), from the pool or new; NULL if none. */
void *thread_stack_alloc(void);
/* Add a thread that did not come from thread_create() to the list. */
void thread_register(struct thread *td);
/* sched_add() a new thread; preempts the caller if the core says so. */
void thread_make_runnable(struct thread *td);
/* The hook points' runners (thread_hooks.c): each registered hook in
 * registration order. */
void thread_hooks_leave(struct thread *cur);
void thread_hooks_switch(unsigned cpu, struct thread *cur, struct thread *next, uint64_t now);
void thread_hooks_info(const struct thread *td, struct thread_info *out);
/* First thing a thread does on a CPU after a switch to it: accounting
 * (its run time starts at the instant of the switch, percpu switch_ns). */
void thread_switch_finish(void);
/* The exiting thread's last switch. */
void thread_switch_exit(void) __attribute__((noreturn));
/* The topology tree thread_boot() built (NULL before). */
struct cpu_group *thread_topo_root(void);
/* Which tree the scheduler uses (enum topo_kind): the one thread_boot()
 * built, else (sched=off, or before) the one kern.sched.topology asks for. */
int thread_topo_kind(void);
struct topo;
struct cpu_desc;
/* The tree the scheduler uses (read only), with what topo_build_or_flat()
 * returned for it in *rc; NULL before thread_boot() built it or with
 * sched=off. Lock-free. */
const struct topo *thread_topo_live(int *rc);
/* Builds into t a tree of kind from the online CPUs' descriptors (copied
 * into descs, MAXCPU entries) with the scheduler's fallbacks (ours for a
 * FreeBSD tree its probe refuses, flat for contradicting descriptors);
 * returns what topo_build_or_flat() returned. The caller owns t and descs
 * (no lock). */
int thread_topo_build_online(struct topo *t, int kind, struct cpu_desc descs[]);
/* Mark the scheduler as running (thread_boot(), once). */
void thread_set_running(void);
/* Time source of the accounting (ns). */
uint64_t thread_now_ns(void);
/* Free exited detached threads no CPU runs any more. */
void thread_reap(void);
/* The idle thread's switch once sched_idle() found work. Interrupts off. */
void thread_idle_switch(void);
/* Body of every idle thread (arg: CPU id). */
void thread_idle_main(void *arg) __attribute__((noreturn));

/* ---- reading ---- */

/* Copy of a thread's fields for printing, taken under the thread list lock. */
struct thread_info {
	uint32_t id;
	char name[THREAD_NAME_MAX];
	uint32_t state, flags;
	int cpu, lastcpu, running;      /* running: on a CPU right now */
	int pri, nice, pri_class, score, pctcpu;   /* pctcpu: hundredths of % */
	uint64_t run_ns, migrations, nswitch;
	int has_work;                   /* work is known (an emulated machine's work clock) */
	uint64_t work;                  /* work done, thousandths of a ns of lone P-core time */
	/* the scheduler's run time by core type (enum cpu_core_type) and
	 * while an SMT sibling was busy, to the last switch or tick */
	uint64_t sched_ns_type[4], sched_ns_shared;
	int pid;                        /* its process, 0 for a kernel thread */
	/* Thread Director: the class of the code it runs (its work clock's;
	 * has_code_cls 0 without one), the class adopted from the hardware's
	 * reads, and the reads (itd_hist.h) */
	int has_code_cls;
	unsigned code_cls, itd_cls;
	uint32_t itd_reads[ITD_CLASS_MAX], itd_invalid, itd_changes;
};
/* Fill up to max entries (live threads, then idle threads last); returns
 * how many. */
size_t thread_snapshot(struct thread_info *out, size_t max);
/* One thread's fields as thread_snapshot() copies them; td must stay
 * allocated meanwhile (the caller knows it is not freed). */
void thread_info_of(const struct thread *td, struct thread_info *out);
/* Kernel stacks waiting in the pool for a new thread (each
 * THREAD_STACK_PAGES pages). */
uint64_t thread_pool_stacks(void);
/* Run time of cpu's idle thread so far (ns). */
uint64_t thread_idle_ns(unsigned cpu);
/* Checks every online CPU's run queues once (sched_check_invariants(),
 * each with interrupts off, as its tdq lock needs); panics on a broken
 * invariant; returns how many CPUs it checked. Threads context. */
unsigned thread_check_queues(void);
/* Threads created, exited and freed since boot. */
void thread_counts(uint64_t *created, uint64_t *exited, uint64_t *freed);

#endif
