/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule.h — internals of the ULE core shared by kernel/sched/ule_*.c and the
 * host tests: the per-CPU tdq, run queues, tunables, and the small
 * functions each file provides. Not for the thread layer (sched.h is).
 */
#ifndef MOSAIC_SCHED_ULE_H
#define MOSAIC_SCHED_ULE_H
#include <stdint.h>
#include <sched/sched.h>
#include <sched/sched_plat.h>
#include <sched/sched_trace.h>

/* ---- run queues (ule_runq.c; FreeBSD's struct runq, kern_switch.c) ---- */
#define RQ_NQS 64   /* queues per run queue */
#define RQ_PPQ 4    /* priorities per queue */

/* Which run queue of its tdq a thread is on (ts_runq). */
#define TS_RUNQ_NONE 0
#define TS_RUNQ_REALTIME 1
#define TS_RUNQ_TIMESHARE 2
#define TS_RUNQ_IDLE 3

/* A FIFO per queue index and a bitmap of the non-empty ones. */
struct runq {
	uint64_t rq_status;                     /* bit i: queue i non-empty */
	struct td_sched *rq_head[RQ_NQS];
	struct td_sched *rq_tail[RQ_NQS];
};

/* Queues ts at index idx: at the head if head, else the tail. */
void runq_add_idx(struct runq *rq, struct td_sched *ts, int idx, int head);
/* Unlinks ts; if its queue became empty and *idx (when idx != NULL) named
 * it, advances *idx to the next queue (mod RQ_NQS). */
void runq_remove_idx(struct runq *rq, struct td_sched *ts, uint8_t *idx);
/* First thread of the lowest non-empty queue, NULL if empty. */
struct td_sched *runq_choose(const struct runq *rq);
/* First thread of the first non-empty queue scanning start..63 then 0.. */
struct td_sched *runq_choose_from(const struct runq *rq, int start);
/* First thread, lowest queue first, that may migrate and may run on cpu. */
struct td_sched *runq_steal(const struct runq *rq, int cpu);
/* Circular scan from start: skips the very first thread met (the victim's
 * next), returns the first later eligible one, else that first if eligible. */
struct td_sched *runq_steal_from(const struct runq *rq, int cpu, int start);

/* ---- per-CPU queue (ule_tdq.c; FreeBSD's struct tdq) ---- */
struct tdq {
	struct cpu_group *tdq_cg;              /* leaf group of this CPU */
	struct td_sched *tdq_curthread;        /* running thread, NULL = idle thread */
	volatile int tdq_load;                 /* running + queued threads */
	volatile int tdq_sysload;              /* same (no TDF_NOLOAD threads here) */
	volatile int tdq_transferable;         /* queued threads that may migrate */
	volatile int tdq_lowpri;               /* best priority running or queued */
	volatile int tdq_cpu_idle;             /* idle thread is about to halt / halted */
	volatile int tdq_owepreempt;           /* a preemption IPI is in flight */
	volatile int tdq_curhog;               /* the running thread is a hog (hmp_hog; set at its
						  switch-in and ticks) */
	volatile uint8_t tdq_curlatency;       /* the running thread is one whose core hmp keeps
						  from hogs (hmp_latency_thread; switch-in, ticks) */
	volatile uint8_t tdq_curclass;         /* the running thread's Thread Director class at its
						  switch-in (0: idle) */
	int tdq_switchcnt, tdq_oldswitchcnt;   /* switches this tick / last tick */
	int tdq_id;                            /* CPU id */
	uint8_t tdq_idx, tdq_ridx;             /* calendar insert / removal index */
	uint32_t tdq_rand;                     /* per-CPU LCG state (sched_random) */
	int tdq_balance_ticks;                 /* ticks to the next balancer run (CPU 0) */
	int tdq_idle_seen;                     /* switch count the idle loop last saw */
	uint64_t tdq_pull_tick;                /* tick of its last up-migration scan, 0 after a
						  switch (own CPU only, under its lock or idle) */
	uint64_t tdq_ask_tick;                 /* hmp: tick it last asked a thread over
						  (hmp_upmigrate_pull), 0 once that thread
						  switched (hmp_ask_done); lock-free */
	uint64_t tdq_interact_tick;            /* tick an interactive thread last slept from here
						  (0: never; own CPU, under its lock) */
	uint64_t tdq_return_tick;              /* tick a thread that will want this CPU back
						  last slept from here (hmp_will_return; 0:
						  never; own CPU, under its lock) */
	struct runq tdq_realtime, tdq_timeshare, tdq_idle;
	struct sched_stats tdq_stats;
} __attribute__((aligned(64)));

extern struct tdq *sched_tdqs;   /* ncpu tdqs */
extern int sched_ncpus;
extern int sched_smp_started;
extern struct cpu_group *sched_top;
extern struct cpuset sched_online;   /* CPUs online at sched_start_smp() */

static inline struct tdq *tdq_cpu(int cpu) { return &sched_tdqs[cpu]; }
/* Writers of the fields other CPUs read without the lock (load, lowpri,
 * transferable, curthread) store them whole, so a lock-free reader sees
 * the old or the new value. The writer holds the tdq lock. */
static inline void tdq_store_lowpri(struct tdq *tdq, int pri)
{
	__atomic_store_n(&tdq->tdq_lowpri, pri, __ATOMIC_RELAXED);
}
static inline void tdq_store_curthread(struct tdq *tdq, struct td_sched *ts)
{
	if (ts)
		ts->ts_flags &= (uint16_t)~TSF_SWAPIN;   /* it runs where its swap sent it */
	__atomic_store_n(&tdq->tdq_curthread, ts, __ATOMIC_RELAXED);
	__atomic_store_n(&tdq->tdq_curclass,
			 ts ? __atomic_load_n(&ts->ts_itd_class, __ATOMIC_RELAXED) : (uint8_t)0,
			 __ATOMIC_RELAXED);
	if (!ts) {
		__atomic_store_n(&tdq->tdq_curhog, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&tdq->tdq_curlatency, 0, __ATOMIC_RELAXED);
	}
}
static inline int tdq_hog_of(int cpu) { return __atomic_load_n(&sched_tdqs[cpu].tdq_curhog, __ATOMIC_RELAXED); }
static inline int tdq_load_of(int cpu) { return __atomic_load_n(&sched_tdqs[cpu].tdq_load, __ATOMIC_RELAXED); }
static inline int tdq_switchcount(const struct tdq *tdq) { return tdq->tdq_switchcnt + tdq->tdq_oldswitchcnt; }
static inline void cpuset_clr_cpu(struct cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < TOPO_MAXCPU)
		s->bits[cpu / 64] &= ~(1ull << (cpu % 64));
}
static inline int cpuset_empty(const struct cpuset *s) { return cpuset_first(s) < 0; }
/* ts_pinned is changed by the thread itself and read by other CPUs (under
 * their tdq lock) deciding whether to move it: whole-word atomics. */
static inline int ts_can_migrate(const struct td_sched *ts)
{
	return __atomic_load_n(&ts->ts_pinned, __ATOMIC_RELAXED) == 0;
}
static inline void ts_pin_add(struct td_sched *ts, int d)
{
	__atomic_fetch_add(&ts->ts_pinned, (int16_t)d, __ATOMIC_RELAXED);
}
static inline int ts_can_run_on(const struct td_sched *ts, int cpu) { return cpuset_isset(&ts->ts_mask, (unsigned)cpu); }

/* Lock the tdqs of two CPUs (ascending id; one lock if equal) / unlock. */
void tdq_lock_pair(int a, int b);
void tdq_unlock_pair(int a, int b);
/* Queue ts on tdq's run queues by priority; flags SRQ_*. tdq locked.
 * FreeBSD: tdq_runq_add(). */
#define SRQ_PREEMPTED 0x1   /* head of its queue, current calendar bucket */
#define SRQ_BORROWING 0x2   /* current calendar bucket */
void tdq_runq_add(struct tdq *tdq, struct td_sched *ts, int flags);
/* Unlink ts from tdq's run queues. tdq locked. FreeBSD: tdq_runq_rem(). */
void tdq_runq_rem(struct tdq *tdq, struct td_sched *ts);
/* load +1 / -1. tdq locked. */
void tdq_load_add(struct tdq *tdq, struct td_sched *ts);
void tdq_load_rem(struct tdq *tdq, struct td_sched *ts);
/* lowpri update, runq add, load add, state RUNQ on tdq's CPU, which now
 * protects ts; returns the lowpri before. tdq locked. FreeBSD: tdq_add(). */
int tdq_add(struct tdq *tdq, struct td_sched *ts, int flags);
/* Removes a queued ts from its tdq (runq and load), recomputes lowpri if
 * needed; ts becomes INACTIVE. tdq locked. */
void tdq_rem_queued(struct tdq *tdq, struct td_sched *ts);
/* The thread tdq_choose would run next (not removed), NULL if none. tdq locked. */
struct td_sched *tdq_choose(const struct tdq *tdq);
/* Exact lowpri: min(current thread, next queued), PRI_MAX_IDLE if none.
 * tdq locked. FreeBSD: tdq_setlowpri(). */
void tdq_setlowpri(struct tdq *tdq);
/* The running thread of tdq changed priority from oldpri to its ts_pri:
 * keeps lowpri exact. tdq locked. FreeBSD: the running-thread branch of
 * sched_thread_priority(). */
void tdq_running_prichange(struct tdq *tdq, const struct td_sched *ts, int oldpri);
/* 1 if an SMT sibling of cpu runs or has queued a thread (lock-free). */
int tdq_core_shared(int cpu);
/* Calendar advance for one tick (the calendar part of FreeBSD's
 * sched_clock()). tdq locked. */
void tdq_calendar_tick(struct tdq *tdq);
/* Runs sched_check_invariants(cpu) body when kern.sched.debug is on; tdq locked. */
void tdq_check(struct tdq *tdq);

/* ---- interactivity, priority, slices (ule_interact.c) ---- */
int sched_interact_score(const struct td_sched *ts);
void sched_interact_update(struct td_sched *ts);
void sched_interact_fork(struct td_sched *ts);
void sched_priority(struct td_sched *ts);
void sched_pctcpu_update(struct td_sched *ts, int run);
int tdq_slice(const struct tdq *tdq);
int sched_shouldpreempt(int pri, int cpri, int remote);
/* Priority of a realtime/idle-class thread from its nice value. */
int sched_class_pri(int pri_class, int nice);

/* ---- hybrid placement (ule_hmp.c; kern.sched.policy, kern.sched.hmp.*) ---- */
#define SCHED_POLICY_ULE 0
#define SCHED_POLICY_HMP 1
#define HMP_METRIC_PERF 0
#define HMP_METRIC_EE 1

/* What one placement decision applies: kern.sched.policy (pol) and the
 * kern.sched.hmp.* switches, read once at its start so that a decision is
 * never half one policy, half another while someone flips a sysctl. hmp
 * is 0 unless the policy uses the hmp switches; on a machine whose CPUs
 * are all alike (hmp_uniform()) policy hmp is ULE's: there hmp decides
 * exactly as ULE. */
struct sched_policy;
struct search_mode {
	const struct sched_policy *pol;   /* the placement policy (sched_policy.h); NULL: ULE's */
	uint8_t hmp;
	uint8_t weight;          /* (a) per-CPU load weight from hmp */
	uint8_t normalize;       /* (b) group totals compared per CPU */
	uint8_t smt;             /* (c) capacity-scaled SMT penalty, propagated */
	uint8_t steer;           /* (d) score / 4 off each CPU's load */
	uint8_t random;          /* (e) random tie break below score / 4 */
	uint8_t highest_random;  /* (f) highest's random range = the CPU's weight */
	uint8_t smt_steer;       /* beyond: half the steering on a CPU whose SMT sibling is busy */
	uint8_t metric;          /* HMP_METRIC_*: the score (d) and (e) use */
	uint8_t best;            /* beyond: the best-CPU searches (hmp_search.c) */
	uint8_t latency;         /* beyond: an interactive thread counts CPUs it would preempt as free */
	uint8_t perf0;           /* HMP_PERF0_*: what HFI perf 0 means */
	uint8_t itd;             /* kern.sched.hmp.itd: scores by the thread's Thread Director class */
	uint8_t cls;             /* the class column the scores are read from (0 unless itd) */
};
/* The switches as a decision sees them now (cls 0). Lock-free. */
struct search_mode search_mode_now(void);
/* search_mode_now() for placing or moving ts: with kern.sched.hmp.itd its
 * scores come from the column of ts's Thread Director class. Lock-free. */
struct search_mode search_mode_for(const struct td_sched *ts);
/* The same for the thread running on cpu (its class as of its switch-in,
 * tdq_curclass; class 0 when idle). Lock-free. */
struct search_mode search_mode_running(const struct search_mode *mode, int cpu);
/* CPUs hmp says not to use among the CPUs of mask — perf 0 with
 * kern.sched.hmp.perf0=strict, perf 0 and ee 0 with perf0=ee0-never — when at
 * least one CPU of mask is usable (none with perf0=overflow): they are
 * cleared from *mask and 1 returned; else *mask is untouched and 0
 * returned. Only with mode->hmp.
 * A word-wise set operation: no CPU is visited. */
int hmp_drop_avoided(const struct search_mode *mode, struct cpuset *mask);
/* 1 if ts, running on cpu, should leave it: policy hmp, cpu marked avoid,
 * and ts may run on some CPU that is not. */
int hmp_should_leave(const struct td_sched *ts, int cpu);
/* hmp: 1 if a thread running alone on `from` would run better on `to`:
 * `to` is idle, not avoided and not on from's core, and worth more than
 * a sixteenth more there than on `from` as the two are (each CPU's score,
 * or capacity, shared while an SMT sibling of it is busy: what the thread
 * adds there; an avoided `from` is worth nothing), and the move does not
 * take a thread out of the primary domain (kern.sched.primary). Lock-free
 * reads. */
int hmp_better_idle(const struct search_mode *mode, int to, int from);
/* hmp: the CPU ts may run on that is hmp_better_idle() than `from` and
 * worth most, -1 if none. */
int hmp_better_idle_for(const struct search_mode *mode, const struct td_sched *ts, int from);
/* hmp: asks t (running, its tdq locked) to move to `to` at its next
 * switch (TSF_PICKCPU with ts_move_to) if hmp_may_ask(): 1 if asked.
 * The caller sends the IPI. */
int hmp_ask_move(struct td_sched *t, int to);
/* hmp: the thread asked over to `to` has switched (to go there or not):
 * `to` no longer waits for it. Lock-free. */
void hmp_ask_done(int to);
/* The one rule of up-migration's asks: 1 if t may be asked to move to
 * `to` — it is a hog (hmp_hog), may migrate and run on `to`, and is not
 * already asked. Its tdq locked. */
int hmp_may_ask(const struct td_sched *t, int to);
/* At t's switch with TSF_PICKCPU and ts_move_to `to` (on self, locked;
 * the switch has cleared ts_move_to): `to` if it still serves t better
 * (counted in upmigrations), else self (upmigrate_stale); half of a class
 * swap (swap: it had TSF_ITDSWAP, cleared by the switch):
 * hmp_itd_swap_target(). */
int hmp_move_target(struct td_sched *t, int self, int to, int swap);
/* kern.sched.hmp.itd_swap (ule_itd_swap.c), from the balancer after its
 * pass: pairs of CPUs each running one busy thread, where the thread on one
 * (class ka) gains more from the other than the other's thread (class kb)
 * does — s(b, ka) x s(a, kb) more than a sixteenth above s(a, ka) x
 * s(b, kb), s the class's score of each CPU as the searches value it
 * (shared while an SMT sibling is busy): the swap raises the product of
 * the two threads' speeds, the ratio of their class's scores being what
 * each gains — are asked to trade CPUs at their next switches (both or
 * neither: TSF_PICKCPU | TSF_ITDSWAP with ts_move_to the other's CPU, and
 * an IPI; itd_swap_asks). Only with policy hmp and kern.sched.hmp.itd.
 * Greedy: each CPU takes its best partner in CPU order. No tdq lock held;
 * takes each pair's two. */
void hmp_itd_swap_pass(const struct search_mode *mode);
/* At the switch of t asked into a class swap (it had TSF_ITDSWAP; on
 * self, locked): `to` while it may run there, policy hmp with itd holds
 * and `to` is online and not a CPU hmp avoids (counted in itd_swaps),
 * else self. */
int hmp_itd_swap_target(const struct search_mode *mode, struct td_sched *t, int self, int to);
/* kern.sched.hmp.upmigrate: self, idle and about to halt, asks the CPU
 * worth least whose lone running hog it would serve better
 * (hmp_better_idle) to send that thread over at its next switch
 * (hmp_ask_move and an IPI); it scans on its first idle round after
 * running a thread, then at most once every hmp_upmigrate_scan ticks. No
 * tdq lock held; takes the victim's with a trylock. */
void hmp_upmigrate_pull(int self);
/* Whether idle self may steal work: always but under hmp on a CPU it
 * avoids — never with perf0=strict, nor with perf0=ee0-never for perf 0
 * and ee 0; on an overflow CPU (perf 0 under perf0=overflow, perf 0 with
 * ee > 0 under ee0-never) only while no CPU it does not avoid is idle. */
int hmp_may_steal(const struct search_mode *mode, int self);
/* kern.sched.hmp.class_aware: for an interactive thread under hmp,
 * narrows *mask to its fastest CPUs (when that leaves some and drops
 * some); returns 1 if it did. */
int hmp_class_mask(const struct search_mode *mode, const struct td_sched *ts, struct cpuset *mask);
/* kern.sched.hmp.latency: 1 if cpu is idle and an interactive thread
 * using HMP_RESERVE_PCTCPU or more of a CPU slept from it within the last
 * slice (tdq_interact_tick, set by sched_switch; now in ticks): it is
 * coming back, so its SMT siblings are kept from batch threads
 * (hmp_search.c, hmp_upmigrate_pull). Lock-free. */
#define HMP_RESERVE_PCTCPU 1000   /* hundredths of a percent: 10 % */
int hmp_returning(int cpu, uint64_t now);
/* 1 if ts, going to sleep, will want its CPU back when it wakes: a
 * timeshare or realtime thread whose stretch just ended ran a tick or more
 * on end (TSF_HOGRUN: a render loop's frame; not a thread answering a
 * message, whose stretch is over before a slower CPU could cost it much).
 * sched_switch stamps its CPU (tdq_return_tick). ts's tdq locked. */
int hmp_will_return(const struct td_sched *ts);
/* 1 if cpu is idle and a thread that will want it back (hmp_will_return)
 * slept from it within the last slice: for a CPU with perf > 0, under
 * kern.sched.hmp.perf0=overflow it still has its thread, so no thread on
 * an overflow CPU leaves for it (hmp_should_leave, hmp_better_idle):
 * otherwise the overflow thread takes the CPU for the length of the sleep
 * and the sleeper, waking to every scored CPU busy, takes the overflow CPU
 * in its place and stays (docs/hmp.md, O1). now in ticks. Lock-free. */
int hmp_sleeper_returning(int cpu, uint64_t now);
/* 1 if ts is an interactive timeshare thread (priority in ULE's
 * interactive range) that uses HMP_RESERVE_PCTCPU or more of a CPU: a
 * render loop, not a shell waking to poll. hmp keeps its core from hogs
 * while it runs (tdq_curlatency) and for a slice after it sleeps
 * (tdq_interact_tick). ts's tdq locked. */
int hmp_latency_thread(const struct td_sched *ts);
/* 1 if cpu holds a latency thread (hmp_latency_thread): one runs there or
 * is coming back to it (hmp_returning). now in ticks. Lock-free. */
int hmp_latency_held(int cpu, uint64_t now);
/* kern.sched.hmp.latency: 1 if an interactive thread that uses a tenth of
 * a CPU or more (HMP_RESERVE_PCTCPU; not a shell waking to poll) slept
 * from cpu or from an idle SMT sibling of it within the last slice
 * (hmp_returning), or one runs on an SMT sibling of cpu (tdq_curlatency):
 * cpu's core is kept for it, so cpu pulls no thread up
 * (hmp_upmigrate_pull) and a hog's search counts cpu as running one
 * thread more (hmp_search.c): a hog beside a render loop would slow each
 * of its frames by the SMT share. Lock-free. */
int hmp_core_reserved(int cpu);
/* The run time a tick on cpu adds to its running thread's history
 * (ts_runtime, interactivity): SCHED_TICKINCR under stock ULE; under hmp
 * the work the tick did, SCHED_TICKINCR × cpu's capacity / 1024, times
 * its SMT share (1 + smt / 1024) / 2 while a sibling is busy. So a
 * thread's interactivity does not depend on where hmp placed it (a
 * render loop interactive on a P-core is not batch beside a busy sibling
 * of a weak SMT core): capacity invariance, as Linux's load tracking
 * scales run time by arch_scale_cpu_capacity(). Own tdq locked. */
uint32_t hmp_tick_charge(int cpu);
/* kern.sched.hmp.latency: a hog is a timeshare thread that has run a
 * tick or more on end (now_ns: now), or whose last stretch on a CPU did
 * (TSF_HOGRUN: set when a stretch lasts a tick, cleared when it sleeps
 * after a shorter one; new threads have it). ULE's run/sleep history is
 * kept in ticks and cannot tell: a server that answers in 40 us and sleeps
 * 15 us is charged the ticks it is caught running and never a sleep. a latency-sensitive thread may take its CPU
 * (cs_free_pri) and a returning interactive thread's core is kept from it
 * (cs_hog). A thread that sleeps more (a server answering its client) is
 * neither displaced nor kept away. The thread's tdq locked (or it is not
 * running anywhere). */
int hmp_hog(const struct td_sched *ts, uint64_t now_ns);
/* kern.sched.primary: the primary CPUs of mask in *out (performance: the
 * highest capacity; efficiency: the others; or the configured list);
 * 0 (and *out untouched) when no primary domain is set. */
#define SCHED_PRIMARY_ALL 0
#define SCHED_PRIMARY_PERFORMANCE 1
#define SCHED_PRIMARY_EFFICIENCY 2
#define SCHED_PRIMARY_LIST 3
int sched_primary_mask(const struct cpuset *mask, struct cpuset *out);
extern struct cpuset sched_primary_list;
/* The core type of cpu for the per-type counters (enum cpu_core_type). */
int sched_cpu_core_type(int cpu);

#define HMP_PERF0_OVERFLOW 0 /* kern.sched.hmp.perf0=overflow: every perf-0 CPU is overflow, ee 0 too */
#define HMP_PERF0_EE0 1      /* perf0=ee0-never: perf 0 overflow only, perf 0 and ee 0 never */
#define HMP_PERF0_STRICT 2   /* perf0=strict: perf 0 never while elsewhere is possible (the report) */

/* Cost hook: SCHED_COST(groups|cpus|muls|stat_hits|stat_recomputes, n)
 * marks the work of the placement code (cpu_group nodes visited, CPUs
 * looked at, multiplications and divisions of the load arithmetic, the
 * balancer's per-pass statistics reused or computed). Here it is nothing and n is not
 * evaluated; the simulator compiles kernel/sched/ with sim/sim_cost.h forced
 * in, which adds n to counters that no decision reads (docs/sim.md, "Cost of
 * placement"). */
#ifndef SCHED_COST
#define SCHED_COST(what, n) ((void)0)
#endif

/* ---- topology search (ule_search.c) ---- */

/* The numbers of the search, in the units of one thread on one CPU. Stock
 * ULE counts every CPU the same: a thread weighs SEARCH_LOAD_ONE. */
#define SEARCH_LOAD_ONE 256        /* one thread's load on a CPU */
#define SEARCH_PREFER_BONUS 128    /* half a thread off the preferred CPU */
#define SEARCH_RANDOM_LOWEST 128   /* lowest: random tie break below half a thread */
#define SEARCH_RANDOM_HIGHEST 256  /* highest: random tie break below one thread */
#define SEARCH_SMT_PENALTY 128     /* lowest while balancing: a busy SMT group's penalty */

struct cpu_search {
	struct search_mode cs_mode;
	const struct cpuset *cs_mask;
	int cs_prefer;
	int cs_running;
	int cs_pri;
	int cs_load;
	int cs_trans;
	int64_t cs_wmax;     /* hmp best lowest: a CPU qualifies only if (its threads + 1) × its
			      * weight is below this (the balancer's receivers); 0: no limit */
	int cs_free_pri;     /* hmp best lowest with latency: a CPU whose best thread is worse
			      * than this and that runs a hog (hmp_hog) counts as free (-1: none) */
	int cs_hog;          /* hmp latency: the thread placed is a hog (or the balancer's load),
			      * kept off the siblings of a CPU an interactive thread returns to */
	int cs_place;        /* the search places a thread that is not running (sched_pick_search),
			      * not balancing, stealing or a running thread's repick: for a
			      * policy's cpu_bias */
	const struct tdq *cs_leaving;   /* hmp best lowest: the CPU whose running thread is about to
					 * sleep (a sync wake-up's waker, SPC_SYNC), counted without
					 * it; NULL: none */
	const struct cpu_group *cs_warm;   /* hmp best lowest: the cache group the thread is warm
					    * in (step 5), whose free CPUs are worth a sixteenth
					    * more; NULL: none */
};
struct cpu_search_res {
	int csr_cpu;
	int64_t csr_load;
};
/* The calling CPU's LCG: 16 random bits. Interrupts off. FreeBSD: sched_random(). */
uint32_t sched_random(void);
/* Least / most loaded acceptable CPU on the least / most loaded path under
 * cg into r; returns cg's total load. Totals are 64-bit: 256 per thread
 * summed over up to TOPO_MAXCPU CPUs of any load cannot overflow them.
 * Both are the policy's search (sched_policy.h; ULE's by default). */
int64_t cpu_search_lowest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r);
int64_t cpu_search_highest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r);
int sched_lowest(const struct search_mode *mode, const struct cpu_group *cg, const struct cpuset *mask,
		 int pri, int maxload, int prefer, int running);
/* sched_lowest() with every field of s (cs_wmax, cs_free_pri). */
int sched_lowest_search(const struct cpu_group *cg, const struct cpu_search *s);
/* The searches under kern.sched.hmp.best (hmp_search.c): the contracts of
 * cpu_search_lowest() and cpu_search_highest(), with hmp's rules. */
int64_t hmp_best_search_lowest(const struct cpu_group *cg, const struct cpu_search *s,
			       struct cpu_search_res *r);
int64_t hmp_best_search_highest(const struct cpu_group *cg, const struct cpu_search *s,
				struct cpu_search_res *r);
int sched_highest(const struct search_mode *mode, const struct cpu_group *cg,
		  const struct cpuset *mask, int minload, int mintrans);
/* The load one more thread would weigh on cpu under mode (SEARCH_LOAD_ONE,
 * or hmp's weight with (a); hmp_report_search.c, hmp's thread_weight). */
int64_t search_thread_weight(const struct search_mode *mode, int cpu);

/* ---- synchronous wake-ups (ule_sync.c) ---- */
/* Called by a wake-up on the calling CPU self: counts it for self's
 * running thread (the waker) and returns 1 if that thread is a sync
 * waker making the wake-up its last stretch ended with (its CPU is about
 * to be free). Interrupts off, on self, no tdq lock held (takes self's). */
int sched_sync_waker(int self);
/* At cur's switch (flags SCHED_SW_*), on its CPU, its tdq locked: learns
 * from a sleep whether the stretch ended as a sync waker's does. */
void sched_sync_learn(struct td_sched *cur, int flags);

/* ---- placement (ule_pickcpu.c) ---- */
/* flags: SPC_OURSELF = requeue of the running thread, never migrate;
 * SPC_LEAVE_AVOIDED = a thread leaving a CPU hmp avoids: only CPUs it does
 * not (when the thread may use one); SPC_SYNC = a wake-up by a sync waker
 * on the calling CPU (sched_sync_waker): under hmp that CPU counts without
 * its running thread. */
#define SPC_OURSELF 0x1
#define SPC_LEAVE_AVOIDED 0x2
#define SPC_SYNC 0x4
int sched_pickcpu(struct td_sched *ts, int flags);
/* Whether ts switched out less than t * affinity ticks ago. */
int sched_affinity_warm(const struct td_sched *ts, int t);

/* ---- adding and notifying (ule_add.c) ---- */
/* Locks the tdq that protects ts (ts_lockcpu's) and returns that CPU:
 * waits while ts is in transit between CPUs, retries if it moved while we
 * waited for the lock. No tdq lock held on entry. */
int ts_lock_tdq(const struct td_sched *ts);
/* Starts a transit: marks ts (protected by cpu's lock, held) as
 * SCHED_TS_LOCK_BLOCKED and releases the lock. The caller alone owns ts
 * until tdq_add()/tdq_runq_add() on some CPU ends the transit. */
void ts_block_unlock(struct td_sched *ts, int cpu);
/* A thread of priority pri became runnable on tdq (locked), whose lowpri
 * was lowpri_before: tells that CPU to switch if it should — the calling
 * CPU through the return value (sched_setpreempt), another by IPI
 * (tdq_notify). */
int tdq_preempt_check(struct tdq *tdq, int pri, int lowpri_before);
/* IPIs tdq's CPU if its new lowpri should preempt lowpri_before. tdq
 * locked. FreeBSD: tdq_notify(). */
void tdq_notify(struct tdq *tdq, int lowpri_before);
/* Local preemption decision for a thread of priority pri just queued on
 * the calling CPU's tdq: SCHED_RESCHED when it beats the running thread,
 * else 0. Own tdq locked. FreeBSD: sched_setpreempt(). */
int sched_setpreempt(struct tdq *tdq, int pri);

/* ---- balancing and stealing (ule_balance.c, ule_idle.c) ---- */
/* The balancer's pass, on the calling CPU (CPU 0 from sched_clock):
 * SCHED_RESCHED if it moved a thread to the calling CPU that should
 * preempt the running one, else 0. No tdq lock held. FreeBSD: sched_balance(),
 * sched_balance_group(). */
int sched_balance(void);
int sched_balance_group(const struct search_mode *mode, const struct cpu_group *cg);
/* Moves one thread from high to low when high has more load (under hmp:
 * more weighted load than low would have with the thread) and a
 * transferable thread; notifies low (IPI, or SCHED_RESCHED in *resched
 * when low is the calling CPU). Returns 1 if a thread moved. No tdq lock
 * held. FreeBSD: sched_balance_pair(). */
int sched_balance_pair(const struct search_mode *mode, struct tdq *high, struct tdq *low,
		       int *resched);
/* Moves one thread from `from` to `to` (both locked); returns to's old
 * lowpri, or -1 if nothing could move; why (enum sched_trace_why) is for
 * the trace. FreeBSD: tdq_move(). */
int tdq_move(struct tdq *from, struct tdq *to, int why);
/* First thread of tdq (locked) that may move to cpu. FreeBSD: tdq_steal(). */
struct td_sched *tdq_steal(struct tdq *tdq, int cpu);
/* Idle stealing: 0 if work arrived / was stolen, 1 if nothing done. Own
 * tdq unlocked. FreeBSD: tdq_idled(). */
int tdq_idled(struct tdq *tdq);
/* Bounded steal into tdq (locked, held throughout) before it goes idle.
 * FreeBSD: tdq_trysteal(). */
void tdq_trysteal(struct tdq *tdq);

/* ---- run-time variables (kern.sched.*): one line each in sched_vars.def,
 * which gives each its default, range and meaning; int64_t for the sysctls ---- */
#define SCHED_VAR(var, nm, grp, knd, dflt, lo, hi, wds, hzr, un, ref, d) extern int64_t var;
#include <sched/sched_vars.def>
#undef SCHED_VAR
/* Derived: the tick rate and sched_slice_min = max(1, sched_slice / 6). */
int sched_hz(void);
/* Nanoseconds per tick at sched_hz(). */
static inline uint64_t sched_tick_ns(void) { return 1000000000ull / (uint64_t)sched_hz(); }
int sched_slice_min(void);
/* One tick in shifted ticks (hz << 10 / stathz, = 1 << 10 here). */
#define SCHED_TICKINCR (1 << SCHED_TICK_SHIFT)
/* Records hz and sets the hz-derived defaults (slice, idlespinthresh,
 * affinity, balance_interval: sched_vars_follow_hz()). sched_init() calls it. */
void sched_tunables_init(int hz);
/* Cache levels an affinity expiry spans (MAX_CACHE_LEVELS). */
#define SCHED_MAX_CACHE_LEVELS 3

/* Under kern.sched.debug: panics unless the calling CPU holds tdq's lock;
 * fn names the caller, a string literal (FreeBSD: TDQ_LOCK_ASSERT). */
#define TDQ_LOCK_ASSERT(tdq, fn)                                                    \
	do {                                                                        \
		if (sched_debug && !sched_plat_tdq_owned((tdq)->tdq_id))            \
			sched_plat_panic(fn ": tdq lock not held");                 \
	} while (0)

#endif
