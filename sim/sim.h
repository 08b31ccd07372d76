/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim.h — schedsim's internals: the discrete-event engine, its simulated
 * CPUs and threads, and the pieces that set up one run (docs/sim.md).
 *
 * One host thread runs everything. Simulated time (ns since the simulated
 * boot) advances only from event to event; events at the same instant run
 * in the order they were queued, so a run is a pure function of its
 * configuration and seed. The scheduler (kernel/sched/, unmodified) sees
 * this machine through sched_plat.h (sim_plat.c); workloads see it through
 * kernel/bench/bench_rt.h (sim_rt.c). Simulated threads and the idle loop
 * of each simulated CPU are coroutines (sim_ctx.c) on their own stacks;
 * the engine runs on the host's main stack and resumes them.
 *
 * Code of a simulated thread takes no simulated time except brt_work()
 * (CPU work at the CPU's modelled speed, kernel/emul/emul_workclock_model.c), the
 * resume cost after a switch (--resume-ns) and waiting.
 */
#ifndef MOSAIC_SIM_H
#define MOSAIC_SIM_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <emul/machine_desc/machine.h>
#include <emul/emul_workclock_model.h>
#include <lib/itd_class.h>
#include <sched/sched.h>
#include <sched/topo.h>
#include <sim/sim_cost.h>

/* ---- coroutines (sim_ctx.c) ---- */

struct sim_ctx {
	void *sp;   /* saved stack pointer */
};
/* Saves the calling context in *from and continues *to. */
void sim_ctx_switch(struct sim_ctx *from, struct sim_ctx *to);
/* A context that, when switched to, runs fn(arg) on stack[size]; fn must
 * never return. */
void sim_ctx_make(struct sim_ctx *c, void *stack, size_t size, void (*fn)(void *), void *arg);

#define SIM_STACK_SIZE (256u * 1024u)
#define SIM_MAX_THREADS 4096

/* ---- events ---- */

enum sim_ev_kind {
	SIM_EV_START,     /* the run starts: input wakes the shell, which creates the bench main thread */
	SIM_EV_TICK,      /* cpu's timer interrupt */
	SIM_EV_IPI,       /* the scheduler IPI reaches cpu */
	SIM_EV_RESUME,    /* td's code continues (after a switch-in, or its work is done) */
	SIM_EV_HFI,       /* machine event number cpu changes an HFI row */
	SIM_EV_PUBLISH,   /* the HFI driver hands the new table to hmp */
	SIM_EV_STOP,      /* brt_stopping() becomes 1 */
};

struct sim_thread;
struct sim_event {
	uint64_t time;
	uint64_t seq;              /* order of queueing: ties at one instant */
	struct sim_thread *td;
	uint64_t version;          /* td's version when queued (stale if it moved on) */
	int32_t cpu;
	uint8_t kind;
};

/* ---- simulated threads ---- */

enum sim_td_state {
	SIM_TD_READY,     /* has code to run as soon as it is on a CPU */
	SIM_TD_WORK,      /* in brt_work(): done when its clock reaches work_target */
	SIM_TD_BLOCKED,   /* asleep (sched_sleep): waits for sim_wake() */
	SIM_TD_EXITED,
};

enum sim_blk { SIM_BLK_NONE, SIM_BLK_SLEEP, SIM_BLK_CHAN, SIM_BLK_JOIN };

/* What a coroutine asks the engine for when it hands control back. */
enum sim_req {
	SIM_REQ_NONE,
	SIM_REQ_WORK,         /* thread: time its work (brt_work) */
	SIM_REQ_SLEEP,        /* thread: switch out, asleep */
	SIM_REQ_EXIT,         /* thread: switch out for good */
	SIM_REQ_PREEMPT,      /* thread: the core asked to switch it (SCHED_RESCHED) */
	SIM_REQ_HALT,         /* idle loop: sched_plat_idle_wait() */
	SIM_REQ_IDLE_SWITCH,  /* idle loop: sched_switch(NULL, SCHED_SW_YIELD) */
};

struct sim_thread {
	struct td_sched ts;          /* the scheduler's per-thread state */
	struct wc_clock wc;          /* its work clock */
	struct sim_ctx ctx;
	void *stack;
	void (*fn)(void *);
	void *arg;
	int id;                      /* 0: the shell, 1: the bench main thread; then in spawn order */
	char name[24];
	uint8_t state;               /* enum sim_td_state */
	uint8_t blk;                 /* enum sim_blk while SIM_TD_BLOCKED */
	uint8_t req;                 /* enum sim_req, set before handing control back */
	uint8_t self_ipi;            /* a SCHED_RESCHED from its own call: IPI owed to its CPU */
	int cpu;                     /* CPU it runs on, -1 if none */
	uint64_t version;            /* bumped to make its queued events stale */
	uint64_t work_target;        /* SIM_TD_WORK: clock value that ends the work */
	uint64_t deadline;           /* SIM_BLK_SLEEP: timer deadline */
	struct sim_thread *timer_next;
	struct sim_thread *wait_next;   /* channel / join wait list */
	struct sim_thread *joiner;      /* who waits in brt_join() for it */
	struct sim_thread *all_next;    /* every thread of the run */
	uint64_t rng;                /* brt_random() state */
	uint64_t seg_start;          /* trace: when it started running on cpu */
};

/* A FIFO of blocked threads (channels, joins). */
struct sim_waitq {
	struct sim_thread *head, *tail;
};

/* ---- simulated CPUs ---- */

struct sim_cpu {
	struct sim_thread *cur;      /* thread running, NULL: the idle loop */
	struct sim_ctx idle_ctx;     /* the idle loop's coroutine */
	void *idle_stack;
	uint8_t need_resched;        /* the kernel's per-CPU need_resched */
	uint8_t halted;              /* idle loop inside sched_plat_idle_wait() */
	uint8_t idle_req;            /* enum sim_req of the idle loop */
	uint8_t locked;              /* tdq lock held */
	uint32_t rate_seen;          /* rate the running thread's work was timed with */
	uint64_t tick_ns;            /* next tick */
	struct sim_thread *timers;   /* armed sleep timers, earliest first */
};

/* ---- cost counters (sim_cost.h: kernel/sched/ule.h's SCHED_COST hook) ---- */

/* Per entry point: calls and the work they did. */
struct sim_cost_bucket {
	uint64_t calls;
	struct sched_cost ops;
};
enum { SIM_COST_PICKCPU, SIM_COST_BALANCE, SIM_COST_OTHER, SIM_COST_KINDS };

/* ---- trace ---- */

struct sim_seg {
	uint32_t thread;
	uint16_t cpu;
	uint64_t start, end;
};

/* An HFI row the device rewrote during a run (a machine `event` line):
 * when, which row, its new class-0 values (raw 0..255). */
struct sim_hfi_mark {
	uint64_t t;
	uint16_t row;
	uint8_t perf, ee;
};

/* ---- one run's configuration ---- */

/* --spawn-ns's default: what creating a thread costs the creating thread
 * (docs/sim.md, "How workloads start"). */
#define SIM_SPAWN_NS 8000u

struct sim_machine;
struct sim_policy;
struct sim_setting;
struct sim_workload;

struct sim_config {
	const struct sim_machine *sm;    /* the machine, its tree */
	const struct sim_policy *policy;
	const struct sim_setting *settings;   /* --sysctl, applied after the policy */
	int nsettings;
	const struct sim_workload *wl;
	int threads;                 /* the workload's thread count */
	uint64_t seed;               /* of this run */
	uint64_t duration_ns;        /* brt_stopping() after this */
	int hz;                      /* ticks per second on every CPU */
	uint64_t ipi_ns;             /* IPI latency */
	uint64_t resume_ns;          /* switch-in to the thread's code running */
	uint64_t spawn_ns;           /* work a thread creation costs the creating thread */
	int trace;                   /* record placement segments */
	const uint64_t *opt;         /* a kernel/bench workload's options, else NULL */
	int watch;                   /* measure idle-while-overloaded stretches (sim_watch.c) */
	int hmp_scramble;            /* every hmp input replaced (sim_hmp.c), from scramble_seed */
	uint64_t scramble_seed;
};

/* The longest stretch of one run during which one CPU was idle while
 * another had two or more runnable threads (sim_watch.c). */
struct sim_watch_result {
	int watched;                 /* the window opened: every workload thread had started */
	uint64_t longest_ns;         /* 0: none */
	uint64_t at_ns;              /* its start, ns after the run's start */
	int idle_cpu;                /* the idle CPU */
	int busy_cpu, busy_load;     /* an overloaded CPU and its threads when it started */
};

/* What one run produced. */
struct sim_result {
	int64_t value;               /* the workload's sample, or -1 */
	uint64_t events;             /* engine events processed */
	struct sim_cost_bucket cost[SIM_COST_KINDS];
	struct sim_seg *seg;         /* trace segments (malloc), nseg of them */
	size_t nseg;
	struct sim_hfi_mark *hfi;    /* trace: HFI rows rewritten (malloc), nhfi of them */
	size_t nhfi;
	struct sim_watch_result watch;   /* with cfg->watch */
};

/* The observer's state during a run (sim_watch.c). */
enum { SIM_WATCH_OFF, SIM_WATCH_ON, SIM_WATCH_PAUSED };
struct sim_watch {
	int open;                    /* between the last spawn and the first exit */
	int done;                    /* it closed: it does not open again this run */
	uint64_t dirty[MACHINE_MAX_CPUS / 64];   /* CPUs whose load or idleness may have changed */
	struct cpuset eligible;      /* CPUs whose idleness counts */
	uint8_t idle[MACHINE_MAX_CPUS], over[MACHINE_MAX_CPUS];
	int nover, nover_seen;       /* CPUs with 2+ threads, now and at the last settle */
	/* each CPU's stretch: SIM_WATCH_*, since start, paused since end */
	uint8_t stretch[MACHINE_MAX_CPUS];
	uint64_t start[MACHINE_MAX_CPUS], end[MACHINE_MAX_CPUS];
	int16_t busy[MACHINE_MAX_CPUS], busy_load[MACHINE_MAX_CPUS];   /* as it started */
};

/* ---- the engine's state (sim_engine.c) ---- */

struct sim {
	const struct sim_config *cfg;
	const struct machine *m;
	int ncpu;
	uint64_t tick_period;        /* ns between ticks */
	uint64_t now;                /* simulated ns since boot */
	uint64_t t0;                 /* the run's start */
	uint64_t stop_at, give_up_at;
	uint64_t ticks;              /* the global tick count (CPU 0's ticks) */
	int self;                    /* the CPU whose code runs now */
	int stopping;
	struct sim_thread *cur;      /* thread coroutine running, NULL otherwise */
	int cur_idle;                /* idle coroutine running (its CPU), -1 otherwise */
	struct sim_ctx main_ctx;
	/* event queue: a binary heap ordered by (time, seq) */
	struct sim_event *heap;
	size_t nheap, capheap;
	uint64_t seq;
	uint64_t nevents;
	struct sim_cpu cpu[MACHINE_MAX_CPUS];
	struct wc_model wc;
	/* threads */
	struct sim_thread *threads;  /* every thread of the run */
	struct sim_thread *shell;    /* the shell that started the run (sim_shell.c) */
	struct sim_thread *main;     /* the bench main thread it created */
	int nthreads, live;
	int spawned;                 /* workload threads spawned (policy pinning order) */
	uint8_t hmp_locked;
	/* HFI: the device's rows and the driver's publication */
	uint8_t row_perf[MACHINE_MAX_ROWS], row_ee[MACHINE_MAX_ROWS];
	struct machine_hfi_value row_cls[MACHINE_MAX_ROWS][MACHINE_HFI_CLASSES_MAX];   /* [0] unused */
	uint64_t last_pub;
	int pub_queued;
	uint64_t publications;
	/* results */
	int64_t value;
	int main_done;
	struct sim_result *res;
	size_t capseg, caphfi;
	struct sim_watch w;
};
extern struct sim sim;

/* Simulated ns of every run so far, from their starts to their ends
 * (sim_run.c): brt_now() outside a run. */
extern uint64_t sim_plan_ns;

/* sim_engine.c */
/* Runs one run of cfg on m to its end; fills *res. 0, or -1 after a
 * message on stderr (the workload did not end, ...). */
int sim_run(const struct sim_config *cfg, struct sim_result *res);
/* Gives cpu a fresh idle coroutine (its stack is kept across runs). */
void sim_engine_idle_init(int c);
/* Runs the queued events until every thread of the run has ended; 0, or
 * -1 (with a message on stderr) when the workload did not end in time. */
int sim_engine_loop(void);
/* Queues an event at time t (>= now). */
void sim_push(uint64_t t, int kind, int cpu, struct sim_thread *td);
/* Earliest queued time (UINT64_MAX if none). */
uint64_t sim_next_time(void);
/* Asks the calling CPU's current context to switch as soon as it can
 * (the kernel's thread_resched_self: need_resched and a self-IPI). */
void sim_resched_self(void);
/* Wakes td (blocked) from the calling CPU; 1 if it was asleep. */
int sim_wake(struct sim_thread *td);
/* Hands control from the running thread coroutine back to the engine. */
void sim_yield(struct sim_thread *td, int req);
/* The running thread coroutine (checked: not called from the engine). */
struct sim_thread *sim_current(const char *what);
/* When td is switched out: end its trace segment. */
void sim_trace_end(struct sim_thread *td, int cpu);
/* With --trace: the device rewrote HFI row `row` now. */
void sim_trace_hfi(int row, unsigned perf, unsigned ee);
/* Queues td's work completion from its CPU's rate now (SIM_TD_WORK, on a CPU). */
void sim_time_work(struct sim_thread *td);
/* After a work-clock change: re-times the work of every running thread
 * whose CPU's rate changed. */
void sim_rerate(void);
/* Prints "schedsim: ..." on stderr and exits 1 (an inconsistency that
 * means a bug in the simulator or the scheduler). */
void sim_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* sim_watch.c: the observer of idle CPUs next to overloaded ones. */
/* Per run: closed, nothing measured. */
void sim_watch_reset(void);
/* The workload's threads have all started (its main thread blocks after
 * the last spawn): the window opens, every CPU is looked at. */
void sim_watch_open(void);
/* Before time moves on from sim.now: the CPUs marked dirty are looked at
 * again and a stretch starts or ends at sim.now. */
void sim_watch_settle(void);
/* A workload thread ends (or the run stops): the window closes at sim.now,
 * the longest stretch goes to the run's result. */
void sim_watch_close(void);
/* cpu's load or idleness may have changed. */
static inline void sim_watch_dirty(int cpu)
{
	if (sim.w.open)
		sim.w.dirty[cpu >> 6] |= 1ull << (cpu & 63);
}

/* sim_random.c: a splitmix64 step of the generator state *s, the
 * simulator's random numbers (tick phases, LCG seeds, brt_random, the
 * random policy, run seeds). */
uint64_t sim_mix(uint64_t *s);

/* 1 if td is one of the workload's own threads (not the shell, not the
 * bench main thread). */
static inline int sim_workload_thread(const struct sim_thread *td)
{
	return td != sim.shell && td != sim.main;
}

/* sim_shell.c */
/* The run starts: the shell, asleep, is woken by input on the calling CPU
 * (the boot CPU); it creates the bench main thread, which runs the
 * workload once, and sleeps until that thread exits. */
void sim_shell_start(void);

/* sim_rt.c */
/* A new thread (thread_create) running fn(arg), created by parent (the
 * calling CPU's running thread, NULL: none) with mask (NULL: every CPU),
 * queued by sched_add; NULL at the thread limit or without memory. */
struct sim_thread *sim_thread_new(const char *name, void (*fn)(void *), void *arg,
				  struct sim_thread *parent, const struct cpuset *mask);
/* The same thread set up on CPU cpu long ago and asleep since (blocked
 * in why, never queued): a thread that last ran there, for sim_wake(). */
struct sim_thread *sim_thread_asleep(const char *name, void (*fn)(void *), void *arg, int cpu, int why);
/* The work a thread creation costs the calling thread (cfg->spawn_ns of
 * P-core work, before the new thread is queued). */
void sim_spawn_cost(void);
/* Frees every thread and stack of the run. */
void sim_rt_reset(void);
/* At the stop: wakes the threads blocked in brt_sleep() and channels. */
void sim_rt_stop(void);
/* Fires the sleep timers of cpu that are due (its tick). */
void sim_rt_timers(int cpu);

/* sim_hmp.c: hmp's providers as the kernel fills them on an emulated
 * machine, the HFI device's rows and the driver's publication. */
void sim_hmp_init(void);
/* Machine event number i (m->event[i]) at its time. */
void sim_hfi_event(int i);
/* The driver's publication (at most one per 10 ms). */
void sim_hfi_publish(void);

/* sim_cost.c: the counters by entry point (sched_pickcpu and
 * sched_balance are wrapped at link time; the rest is "other"). */
void sim_cost_reset(void);
void sim_cost_collect(struct sim_cost_bucket *out);

/* sim_plat.c */
/* Per-run reset of the platform (arena, locks). */
void sim_plat_reset(void);

#endif
