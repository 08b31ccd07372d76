/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched.h — the ULE scheduler core: what the thread layer calls. A port of
 * FreeBSD's sys/kern/sched_ule.c of the FreeBSD 14 generation (three run
 * queues per CPU with the timeshare calendar, cpu_search_lowest/highest
 * over the cpu_group tree); each ported function names its FreeBSD
 * counterpart in the comment above it. docs/sched.md describes it.
 *
 * The thread layer embeds a struct td_sched in its struct thread (find the
 * thread again with container_of) and never touches its fields except
 * through the functions below; reading the fields for `ps`/`top` without a
 * lock is allowed (values may be stale). Everything the core needs from the
 * platform comes through sched_plat.h.
 *
 * CPUs and their queues. Each CPU has one tdq (run queues, load, lowest
 * priority, ...) protected by that CPU's tdq lock (sched_plat_tdq_lock()).
 * The idle thread of a CPU belongs to the thread layer and has no td_sched:
 * sched_switch() returning NULL means "run the idle thread", and the idle
 * thread passes cur == NULL.
 *
 * Thread states, kept by the core in ts_state, changed only under the tdq
 * lock that protects the thread (ts_lockcpu's):
 *   SCHED_TS_INACTIVE  new, sleeping or exited: on no queue, counted nowhere;
 *   SCHED_TS_RUNQ      on the run queue of ts_cpu (counted in its load);
 *   SCHED_TS_RUNNING   chosen by sched_switch() on ts_cpu (counted in its load).
 *
 * Which lock protects a thread: the tdq lock of ts_lockcpu. While the core
 * moves a thread between CPUs without holding both locks (a wake-up that
 * queues it elsewhere, a migration at switch time, an affinity change),
 * ts_lockcpu is SCHED_TS_LOCK_BLOCKED: whoever wants the thread's lock waits
 * until the move has finished and then takes the new CPU's lock (FreeBSD's
 * thread_lock_block() / blocked_lock). The mover owns the thread meanwhile.
 *
 * LOCKING RULES (binding for every caller):
 *  1. Every sched_* function except sched_init(), the tunable setters and the
 *     readers marked "lock-free" is called with interrupts disabled on the
 *     calling CPU, and with NO tdq lock held. The core takes and releases the
 *     tdq locks itself and returns with none held. Locks of the thread layer
 *     (wait queues, thread locks) may be held: they come before tdq locks in
 *     the lock order; tdq locks are leaves, two of them are only ever taken
 *     together in ascending CPU order (or with a trylock).
 *  2. A thread is added (sched_add / sched_wakeup) only when it is INACTIVE;
 *     at most one sched_wakeup() per sched_sleep() — the thread layer
 *     serialises wakers (e.g. a compare-and-swap of its own thread state).
 *     A wakeup that arrives after sched_sleep() but before the sleeper has
 *     completed sched_switch(SCHED_SW_SLEEP) is legal: the core notices the
 *     thread is still RUNNING and makes that switch keep it runnable (no lost
 *     wakeup).
 *  3. sched_switch() may requeue `cur` (yield, preemption, cancelled sleep),
 *     and from that moment another CPU may steal it and return it from its
 *     own sched_switch() before this CPU has saved cur's registers. The
 *     thread layer must therefore not load a thread's context until the CPU
 *     that last ran it has finished saving it (e.g. a per-thread `on_cpu`
 *     word cleared by the context switch after the save and waited for
 *     before the restore). The same applies to a thread woken right after
 *     sched_switch(SCHED_SW_SLEEP) released it.
 *  4. sched_plat_ipi() is called with tdq locks held; its kernel side must
 *     not take a tdq lock.
 *
 * Time: "ticks" are the platform's periodic clock (sched_plat_hz() per
 * second, global count sched_plat_ticks()); sched_clock() is called on
 * every CPU once per tick that CPU receives, with the number of ticks
 * since its previous call (hz = stathz here). Run/wait times are in ns
 * (sched_plat_time_ns()).
 */
#ifndef MOSAIC_SCHED_SCHED_H
#define MOSAIC_SCHED_SCHED_H
#include <stdint.h>
#include <sched/topo.h>

/* ---- priorities (sys/sys/priority.h, FreeBSD <= 14 ranges); 0 best, 255 worst ---- */
#define PRI_MIN_ITHD 0
#define PRI_MAX_ITHD 15
#define PRI_MIN_REALTIME 16
#define PRI_MAX_REALTIME 47
#define PRI_MIN_KERN 48
#define PRI_MAX_KERN 87
#define PRI_MIN_TIMESHARE 88
#define PRI_MAX_TIMESHARE 223
#define PRI_MIN_IDLE 224
#define PRI_MAX_IDLE 255
#define PRIO_MIN (-20)   /* nice range */
#define PRIO_MAX 20

/* ULE's split of timeshare into interactive and batch. */
#define SCHED_PRI_NRESV (PRIO_MAX - PRIO_MIN)
#define SCHED_PRI_NHALF (SCHED_PRI_NRESV / 2)
#define PRI_TIMESHARE_RANGE (PRI_MAX_TIMESHARE - PRI_MIN_TIMESHARE + 1)      /* 136 */
#define PRI_INTERACT_RANGE ((PRI_TIMESHARE_RANGE - SCHED_PRI_NRESV) / 2)      /* 48 */
#define PRI_BATCH_RANGE (PRI_TIMESHARE_RANGE - PRI_INTERACT_RANGE)           /* 88 */
#define PRI_MIN_INTERACT PRI_MIN_TIMESHARE                                   /* 88 */
#define PRI_MAX_INTERACT (PRI_MIN_TIMESHARE + PRI_INTERACT_RANGE - 1)         /* 135 */
#define PRI_MIN_BATCH (PRI_MIN_TIMESHARE + PRI_INTERACT_RANGE)                /* 136 */
#define PRI_MAX_BATCH PRI_MAX_TIMESHARE                                      /* 223 */
#define SCHED_PRI_MIN (PRI_MIN_BATCH + SCHED_PRI_NHALF)                       /* 156 */
#define SCHED_PRI_MAX (PRI_MAX_BATCH - SCHED_PRI_NHALF)                       /* 203 */
#define SCHED_PRI_RANGE (SCHED_PRI_MAX - SCHED_PRI_MIN + 1)                   /* 48 */

/* Interactivity score range (sched_interact_score). */
#define SCHED_INTERACT_MAX 100
#define SCHED_INTERACT_HALF (SCHED_INTERACT_MAX / 2)
#define SCHED_TICK_SHIFT 10

/* Priority classes. TIMESHARE: priority computed from interactivity and
 * %CPU plus nice (sched_priority). REALTIME and IDLE: fixed priority, nice selects
 * the level inside the class: REALTIME PRI_MIN_REALTIME + (nice+20)*31/40
 * (16..47), IDLE PRI_MIN_IDLE + (nice+20)*31/40 (224..255). */
enum sched_class { SCHED_CLASS_REALTIME = 1, SCHED_CLASS_TIMESHARE = 2, SCHED_CLASS_IDLE = 3 };

enum sched_ts_state { SCHED_TS_INACTIVE = 0, SCHED_TS_RUNQ = 1, SCHED_TS_RUNNING = 2 };

/* ts_flags (core-private except where noted). */
#define TSF_BOUND 0x0001     /* bound to ts_cpu by sched_bind() */
#define TSF_XFERABLE 0x0002  /* counted in its tdq's transferable */
#define TSF_PICKCPU 0x0004   /* repick the CPU at the next switch (TDF_PICKCPU) */
#define TSF_SLICEEND 0x0008  /* slice exhausted (TDF_SLICEEND) */
#define TSF_WOKEN 0x0010     /* woken while still RUNNING: the sleep is cancelled */
#define TSF_BOOSTED 0x0020   /* priority raised to static_boost by sched_sleep(), until it next runs */
#define TSF_HOGRUN 0x0040    /* hmp: it last ran a tick or more on end, or has not slept short (hmp_hog) */
#define TSF_ITDSWAP 0x0080   /* hmp: its TSF_PICKCPU move is half of a class swap (kern.sched.hmp.itd_swap) */
#define TSF_SWAPIN 0x0100    /* hmp: moved by a class swap and not yet run there: not to be stolen */

/* ts_lockcpu of a thread in transit between CPUs (see "Which lock"). */
#define SCHED_TS_LOCK_BLOCKED (-1)

/* Per-thread scheduler data (FreeBSD's struct td_sched plus the fields of
 * struct thread ULE uses). Zero-initialise, then sched_thread_init(). */
struct td_sched {
	struct td_sched *ts_next, *ts_prev; /* run-queue links (tdq lock) */
	uint8_t ts_state;        /* enum sched_ts_state */
	uint8_t ts_class;        /* enum sched_class */
	int8_t ts_nice;          /* PRIO_MIN..PRIO_MAX */
	uint8_t ts_pri;          /* current priority (what run queues and lowpri use) */
	uint8_t ts_user_pri;     /* priority computed by sched_priority() / from the class */
	uint8_t ts_runq;         /* which run queue it is on (ule_runq.h) */
	uint8_t ts_rqindex;      /* bucket in that run queue */
	uint8_t ts_itd_class;    /* Thread Director class the hardware last reported (enum itd_class), 0 without ITD */
	uint16_t ts_flags;       /* TSF_* */
	int16_t ts_pinned;       /* > 0: may not migrate (sched_pin / sched_bind) */
	int32_t ts_cpu;          /* CPU it is queued on / runs on / last ran on */
	int32_t ts_lockcpu;      /* CPU whose tdq lock protects it, or SCHED_TS_LOCK_BLOCKED */
	int32_t ts_lastcpu;      /* CPU it ran on before the last switch-out, -1 never ran */
	int32_t ts_bound_cpu;    /* CPU of sched_bind(), -1 if not bound */
	int32_t ts_move_to;      /* hmp: the CPU a TSF_PICKCPU switch moves it to, -1: search */
	uint16_t ts_wakes;       /* threads it woke since it last woke up (its CPU only; ule_sync.c) */
	uint16_t ts_sync_wakes;  /* its last stretch woke this many, then slept within the tick; 0: not a sync waker (ule_sync.c) */
	uint64_t ts_woke_tick;   /* tick of its last wake-up of another thread (its CPU only) */
	int32_t ts_slice;        /* ticks of the current slice consumed (counts up) */
	uint32_t ts_slptime;     /* voluntary sleep time, ticks << 10 */
	uint32_t ts_runtime;     /* run time, ticks << 10 */
	uint32_t ts_ticks;       /* run ticks in the %CPU window, << 10 */
	uint64_t ts_ltick, ts_ftick; /* last / first tick of the %CPU window */
	uint64_t ts_rltick;      /* tick of the last switch-out (cache affinity) */
	uint64_t ts_slptick;     /* tick of sched_sleep(), 0 = not sleeping */
	struct cpuset ts_mask;   /* CPUs it may run on */
	/* statistics (read lock-free by ps/top) */
	uint64_t ts_run_ns;      /* total time on a CPU */
	uint64_t ts_wait_ns;     /* total time runnable on a run queue */
	uint64_t ts_on_ns;       /* when it last started running (or its last tick) */
	uint64_t ts_in_ns;       /* when it was last switched in (ticks leave it) */
	uint64_t ts_enq_ns;      /* when it was last queued */
	uint64_t ts_migrations;  /* times it ran on a CPU other than its previous one */
	uint64_t ts_nswitch;     /* times it was switched out */
	uint64_t ts_run_ns_type[4];  /* ts_run_ns by the CPU's core type (enum cpu_core_type) */
	uint64_t ts_run_ns_shared;   /* ts_run_ns while an SMT sibling of its CPU was busy */
};

/* ---- set-up ---- */

/* Initialises every tdq for CPUs 0..ncpu-1 under the tree root (which
 * must stay valid; NULL: sched_plat_topo_root()), the per-CPU random seeds
 * and the tunables derived from sched_plat_hz(). ncpu <= 0:
 * sched_plat_ncpu(); at most TOPO_MAXCPU, and every CPU of the tree must
 * be below it. Boot CPU, before any other sched_* call, interrupts in any
 * state. Storage comes from sched_plat_alloc(). */
void sched_init(struct cpu_group *root, int ncpu);

/* Starts balancing, pickcpu searches and stealing across CPUs (until then
 * every thread stays on the CPU that adds it). Call once every CPU whose
 * tdq may receive threads is running its tick. Any CPU, no lock. */
void sched_start_smp(void);

/* Prepares a new thread: INACTIVE, class, nice (clamped to PRIO_MIN..MAX),
 * CPUs it may run on (NULL: all), and ULE's fork inheritance from parent
 * (NULL: none): the parent's history is copied and scaled down
 * (sched_interact_fork), the child's slice starts nearly used, and the
 * parent's %CPU is brought up to date and it is charged one tick of run time
 * (its priority recomputed). ts_cpu starts as the parent's CPU, else the
 * calling CPU. No lock needed for ts; the parent must be the calling
 * thread (or NULL); takes the own tdq lock for the parent. FreeBSD:
 * sched_fork() / sched_fork_thread(). */
void sched_thread_init(struct td_sched *ts, struct td_sched *parent, int pri_class, int nice,
		       const struct cpuset *mask);

/* Declares ts as the thread already running on the calling CPU (the boot
 * thread that becomes a kernel thread): RUNNING, counted in the load.
 * Once per such thread, before the CPU's first sched_switch(). */
void sched_adopt_running(struct td_sched *ts);

/* ---- making threads runnable ---- */

/* sched_add() flags. */
#define SCHED_ADD_DEFAULT 0
#define SCHED_ADD_YIELDING 0x1  /* do not ask the calling CPU to preempt */

/* Return value bit of sched_add()/sched_wakeup()/sched_set_*(): the calling
 * CPU's current thread should be switched out as soon as the caller leaves
 * its critical section (local preemption: FreeBSD's sched_setpreempt asks
 * for a switch at the next return to user mode or critical-section exit;
 * kernel threads have only the latter). Remote CPUs are told by IPI
 * (sched_plat_ipi) from inside the call. */
#define SCHED_RESCHED 1

/* Makes an INACTIVE thread runnable (new thread or end of a wait that did
 * not go through sched_sleep): recomputes a timeshare priority, chooses a
 * CPU (sched_pickcpu), queues it there (tdq_add) and notifies that
 * CPU (tdq_notify: IPI when it should preempt) or, if it is the calling
 * CPU, returns SCHED_RESCHED when the thread has a better priority than
 * the current one. Takes the thread's tdq lock, then the chosen CPU's.
 * FreeBSD: sched_add(). */
int sched_add(struct td_sched *ts, int flags);

/* Records the start of a voluntary sleep of the calling CPU's current
 * thread ts: the sleep tick, and for a timeshare thread the static_boost
 * priority, which it keeps while it sleeps and waits on a run queue and
 * loses when it next runs. Must be followed by sched_switch(ts,
 * SCHED_SW_SLEEP). Takes the own tdq lock. FreeBSD: sched_sleep(). */
void sched_sleep(struct td_sched *ts);

/* Ends a sleep begun with sched_sleep(): adds the slept time to the
 * history, refreshes %CPU, resets the slice, then sched_add(). If ts has
 * not yet switched out, only cancels its pending sleep (rule 2). Returns
 * as sched_add(). Takes the thread's tdq lock, then possibly another.
 * FreeBSD: sched_wakeup(). */
int sched_wakeup(struct td_sched *ts);

/* ---- switching ---- */

/* sched_switch() flags: exactly one of these. */
#define SCHED_SW_YIELD 1    /* cur stays runnable, voluntary: tail of its queue */
#define SCHED_SW_PREEMPT 2  /* cur stays runnable, preempted (tick, IPI, local wake) */
#define SCHED_SW_SLEEP 3    /* cur blocks (after sched_sleep()) */
#define SCHED_SW_EXIT 4     /* cur exits: removed for good, ts may be freed once switched out */

/* Called on the running CPU to leave cur (NULL: the idle thread): charges
 * its run time, requeues it if still runnable (on this CPU, or elsewhere
 * after a repick: TSF_PICKCPU from the balancer, or its mask no longer
 * allowing this CPU, or sched_bind to another CPU), or removes its load
 * (sleep/exit, then tries a bounded steal if the CPU became empty:
 * tdq_trysteal);
 * then chooses the next thread and marks it RUNNING here. Returns it, cur
 * itself (no switch needed), or NULL (run the idle thread). Takes the own
 * tdq lock (and a target's when migrating cur), returns with none held.
 * FreeBSD: sched_switch() (sched_ule_sswitch in later generations). */
struct td_sched *sched_switch(struct td_sched *cur, int flags);

/* Per-tick work on cpu (the calling CPU) whose current thread is cur
 * (NULL: idle): calendar advance, run-time/%CPU accounting, priority,
 * slice; on CPU 0 also the periodic balancer with jitter. Returns 1
 * when cur should be switched out (slice used up, a preemption owed —
 * also one the balancer caused by moving a better thread here — or
 * TSF_PICKCPU set). cnt (>= 1) is the number of ticks since this CPU's
 * previous call: more than 1 when the platform lost tick interrupts, and
 * cur is charged for all of them. From the tick interrupt. FreeBSD:
 * sched_clock(td, cnt). */
int sched_clock(int cpu, struct td_sched *cur, int cnt);

/* Handler of the scheduler IPI on the calling CPU cpu running cur (NULL:
 * idle): returns 1 when cur should be switched out now (a better thread
 * was queued, or cur was asked to repick its CPU), else 0 and clears the
 * owed-preemption mark. From the IPI interrupt. FreeBSD: sched_preempt(). */
int sched_ipi(int cpu, struct td_sched *cur);

/* One round of the idle loop of cpu (the calling CPU, running its idle
 * thread): idle stealing (tdq_idled), spinning, then at most one
 * sched_plat_idle_wait(). Returns 1 when the tdq has load (the idle thread
 * then calls sched_switch(NULL, SCHED_SW_YIELD)), 0 after an idle wait
 * ended without work (call again). FreeBSD: one round of sched_idletd(). */
int sched_idle(int cpu);

/* ---- changing a thread ---- */

/* New nice value (priority recomputed; a queued thread is requeued). Any
 * state. Asks for preemption where the change calls for it: a queued
 * thread that now beats its CPU's running thread (SCHED_RESCHED on the
 * calling CPU, an IPI elsewhere), or a running thread that now ranks below
 * a thread queued on its CPU. Takes the thread's tdq lock. Returns as
 * sched_add(). FreeBSD: sched_nice() → sched_prio(). */
int sched_set_nice(struct td_sched *ts, int nice);

/* New CPU mask (NULL: all). A queued thread whose CPU is no longer allowed
 * is moved; a running one is asked (IPI or SCHED_RESCHED) to repick at its
 * next switch. Takes the thread's tdq lock (and a target's). FreeBSD:
 * sched_affinity(). */
int sched_set_affinity(struct td_sched *ts, const struct cpuset *mask);

/* Binds the calling CPU's current thread cur to cpu (pins it there).
 * Returns SCHED_RESCHED if cur is not yet on cpu: the caller then calls
 * sched_switch(cur, SCHED_SW_YIELD), which moves it. For good: nothing
 * unbinds (FreeBSD's sched_unbind() had no caller here). Takes the own tdq
 * lock. */
int sched_bind(struct td_sched *cur, int cpu);

/* Pin/unpin the calling CPU's current thread to its CPU (nestable):
 * while pinned it is never migrated. Own thread only, no lock. */
void sched_pin(struct td_sched *cur);
void sched_unpin(struct td_sched *cur);

/* ---- reading (lock-free, values may be stale) ---- */

/* Interactivity score 0..100 of ts (sched_interact_score). */
int sched_thread_score(const struct td_sched *ts);
/* %CPU over the recent window, in hundredths of a percent (0..10000). */
int sched_thread_pctcpu(const struct td_sched *ts);
/* Running + queued threads on cpu (tdq_load); its lowest priority
 * (PRI_MAX_IDLE when idle); queued migratable threads. */
int sched_cpu_load(int cpu);
int sched_cpu_lowpri(int cpu);
int sched_cpu_transferable(int cpu);
/* The thread running on cpu, NULL if idle (do not dereference without
 * the thread layer's own guarantee that it still exists). */
const struct td_sched *sched_cpu_curthread(int cpu);

/* Checks cpu's queue invariants (each queued thread on exactly one bucket
 * whose priority range it fits, RUNQ state and ts_cpu == cpu, load ==
 * queued + running, transferable == migratable queued, lowpri exact);
 * panics with a description on failure. Takes cpu's tdq lock, so the
 * caller has interrupts off (thread_check_queues() does that). Called by
 * the core itself after every queue change when kern.sched.debug is 1. */
void sched_check_invariants(int cpu);
/* How many run-queue checks (the above and kern.sched.debug's) ran since
 * boot. Lock-free. */
uint64_t sched_checks_done(void);

/* ---- schedstats ---- */

struct sched_stats {
	uint64_t schedule;        /* sched_switch() calls */
	uint64_t idle_switch;     /* switches that left the CPU idle */
	uint64_t wakeup_local;    /* wakeups queued on the waking CPU */
	uint64_t wakeup_remote;   /* wakeups queued on another CPU */
	uint64_t run_ns;          /* run time of threads on this CPU */
	uint64_t wait_ns;         /* time threads waited on this CPU's queues */
	uint64_t timeslices;      /* slices that ran to the end */
	uint64_t migrations;      /* threads that arrived here from another CPU */
	uint64_t pick_idle_affinity; /* sched_pickcpu: last CPU idle and cache-warm */
	uint64_t pick_llc_idle;   /* sched_pickcpu: idle CPU in the LLC group */
	uint64_t pick_preempt;    /* sched_pickcpu: CPU where it is the best priority */
	uint64_t pick_lowest;     /* sched_pickcpu: least loaded CPU anywhere */
	uint64_t pick_local;      /* sched_pickcpu: the local CPU preferred */
	uint64_t pick_fixed;      /* sched_pickcpu: pinned/bound/requeue-own, or before SMP */
	uint64_t balance_runs;    /* balancer passes (CPU 0) */
	uint64_t balance_moves;   /* threads moved by the balancer to this CPU */
	uint64_t balance_pickcpu; /* running threads here told to repick by the balancer */
	uint64_t idle_steals;     /* threads stolen by this CPU while idle */
	uint64_t try_steals;      /* threads stolen by this CPU before idling */
	uint64_t ipis;            /* scheduler IPIs sent by this CPU */
	uint64_t pick_p;          /* sched_pickcpu chose a P-core CPU */
	uint64_t pick_e;          /* ... an E-core CPU */
	uint64_t pick_lpe;        /* ... an LP-E-core CPU */
	uint64_t pick_untyped;    /* ... a CPU without a core type (homogeneous machine) */
	uint64_t hmp_steered;     /* hmp placements that steering (d) changed (kern.sched.hmp.audit) */
	uint64_t hmp_avoid_picks; /* placements that left out CPUs with HFI perf 0 */
	uint64_t hmp_avoid_moves; /* running threads that left a CPU with HFI perf 0 */
	uint64_t upmigrations;    /* running threads that moved to the faster idle CPU that asked (kern.sched.hmp.upmigrate) */
	uint64_t upmigrate_asks;  /* running threads an idle CPU here asked over */
	uint64_t upmigrate_stale; /* asked threads that stayed: the CPU that asked was no longer better */
	uint64_t hmp_class_picks; /* interactive threads kept to the fastest CPUs (kern.sched.hmp.class_aware) */
	uint64_t primary_picks;   /* placed in the primary domain (kern.sched.primary) */
	uint64_t primary_overflows; /* no primary CPU idle: placed anywhere */
	uint64_t primary_misses;  /* ended outside the domain although a primary CPU was idle */
	uint64_t itd_swap_asks;   /* running threads the balancer here asked to swap CPUs by class (kern.sched.hmp.itd_swap) */
	uint64_t itd_swaps;       /* asked threads that left this CPU for their partner's */
};
#define SCHED_STATS_NFIELDS (sizeof(struct sched_stats) / sizeof(uint64_t))

/* Names of the fields, in order (for printing). */
extern const char *const sched_stats_names[SCHED_STATS_NFIELDS];
/* Copies cpu's counters (lock-free, each word exact, the set not atomic). */
void sched_stats_cpu(int cpu, struct sched_stats *out);
/* Sum over all CPUs. */
void sched_stats_sum(struct sched_stats *out);
/* Zeroes every CPU's counters (lock-free; counts racing with it may be lost). */
void sched_stats_reset(void);

/* CPUs the core was initialised with. */
int sched_ncpu(void);

/* Records the Thread Director class (enum itd_class, below ITD_CLASS_MAX)
 * the thread layer settled on for ts after its history's hysteresis; hmp
 * placement reads it lock-free when kern.sched.hmp.itd is 1. A class out
 * of range is ignored. The CPU ts runs on (or last ran on), at switch-out;
 * no lock needed (one byte, one writer). */
void sched_itd_class_set(struct td_sched *ts, unsigned cls);

/* "ule" or "hmp": the placement policy in force (kern.sched.policy), for
 * status lines and summaries. Lock-free; a static string. */
const char *sched_policy_name(void);

#endif
