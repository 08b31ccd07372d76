/*
 * ule.h — internals of the ULE core shared by kernel/sched/ule_*.c and the
 * host tests: the per-CPU tdq, run queues, tunables, and the small
 * functions each file provides. Not for the thread layer (sched.h is).
 */
#ifndef MOSAIC_SCHED_ULE_H
#define MOSAIC_SCHED_ULE_H
#include <stdint.h>
#include "sched.h"
#include "sched_plat.h"

/* ---- run queues (ule_runq.c, §3.1) ---- */
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

/* ---- per-CPU queue (ule_tdq.c, §2) ---- */
struct tdq {
	struct cpu_group *tdq_cg;              /* leaf group of this CPU */
	struct td_sched *tdq_curthread;        /* running thread, NULL = idle thread */
	volatile int tdq_load;                 /* running + queued threads */
	volatile int tdq_sysload;              /* same (no TDF_NOLOAD threads here) */
	volatile int tdq_transferable;         /* queued threads that may migrate */
	volatile int tdq_lowpri;               /* best priority running or queued */
	volatile int tdq_cpu_idle;             /* idle thread is about to halt / halted */
	volatile int tdq_owepreempt;           /* a preemption IPI is in flight */
	int tdq_switchcnt, tdq_oldswitchcnt;   /* switches this tick / last tick */
	int tdq_id;                            /* CPU id */
	uint8_t tdq_idx, tdq_ridx;             /* calendar insert / removal index */
	uint32_t tdq_rand;                     /* per-CPU LCG state (§5.1) */
	int tdq_balance_ticks;                 /* ticks to the next balancer run (CPU 0) */
	int tdq_idle_seen;                     /* switch count the idle loop last saw */
	struct runq tdq_realtime, tdq_timeshare, tdq_idle;
	struct sched_stats tdq_stats;
} __attribute__((aligned(64)));

extern struct tdq *sched_tdqs;   /* ncpu tdqs */
extern int sched_ncpus;
extern int sched_smp_started;
extern struct cpu_group *sched_top;
extern struct cpuset sched_online;   /* CPUs online at sched_start_smp() */

static inline struct tdq *tdq_cpu(int cpu) { return &sched_tdqs[cpu]; }
static inline int tdq_load_of(int cpu) { return __atomic_load_n(&sched_tdqs[cpu].tdq_load, __ATOMIC_RELAXED); }
static inline int tdq_switchcount(const struct tdq *tdq) { return tdq->tdq_switchcnt + tdq->tdq_oldswitchcnt; }
static inline void cpuset_clr_cpu(struct cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < TOPO_MAXCPU)
		s->bits[cpu / 64] &= ~(1ull << (cpu % 64));
}
static inline int cpuset_empty(const struct cpuset *s) { return cpuset_first(s) < 0; }
static inline int ts_can_migrate(const struct td_sched *ts) { return ts->ts_pinned == 0; }
static inline int ts_can_run_on(const struct td_sched *ts, int cpu) { return cpuset_isset(&ts->ts_mask, (unsigned)cpu); }

/* Lock the tdqs of two CPUs (ascending id; one lock if equal) / unlock. */
void tdq_lock_pair(int a, int b);
void tdq_unlock_pair(int a, int b);
/* Queue ts on tdq's run queues by priority (§3.2); flags SRQ_*. tdq locked. */
#define SRQ_PREEMPTED 0x1   /* head of its queue, current calendar bucket */
#define SRQ_BORROWING 0x2   /* current calendar bucket */
void tdq_runq_add(struct tdq *tdq, struct td_sched *ts, int flags);
/* Unlink ts from tdq's run queues. tdq locked. */
void tdq_runq_rem(struct tdq *tdq, struct td_sched *ts);
/* load +1 / -1. tdq locked. */
void tdq_load_add(struct tdq *tdq, struct td_sched *ts);
void tdq_load_rem(struct tdq *tdq, struct td_sched *ts);
/* §2.2: lowpri update, runq add, load add, state RUNQ on tdq's CPU;
 * returns the lowpri before. tdq locked. */
int tdq_add(struct tdq *tdq, struct td_sched *ts, int flags);
/* Removes a queued ts from its tdq (runq and load), recomputes lowpri if
 * needed; ts becomes INACTIVE. tdq locked. */
void tdq_rem_queued(struct tdq *tdq, struct td_sched *ts);
/* The thread tdq_choose would run next (not removed), NULL if none. tdq locked. */
struct td_sched *tdq_choose(const struct tdq *tdq);
/* Exact lowpri: min(current thread, next queued), PRI_MAX_IDLE if none. tdq locked. */
void tdq_setlowpri(struct tdq *tdq);
/* Calendar advance for one tick (§3.2). tdq locked. */
void tdq_calendar_tick(struct tdq *tdq);
/* Runs sched_check_invariants(cpu) body when kern.sched.debug is on; tdq locked. */
void tdq_check(struct tdq *tdq);

/* ---- interactivity, priority, slices (ule_interact.c, §4) ---- */
int sched_interact_score(const struct td_sched *ts);
void sched_interact_update(struct td_sched *ts);
void sched_interact_fork(struct td_sched *ts);
void sched_priority(struct td_sched *ts);
void sched_pctcpu_update(struct td_sched *ts, int run);
int tdq_slice(const struct tdq *tdq);
int sched_shouldpreempt(int pri, int cpri, int remote);
/* Priority of a realtime/idle-class thread from its nice value. */
int sched_class_pri(int pri_class, int nice);

/* ---- topology search (ule_search.c, §5) ---- */
struct cpu_search {
	const struct cpuset *cs_mask;
	int cs_prefer;
	int cs_running;
	int cs_pri;
	int cs_load;
	int cs_trans;
};
struct cpu_search_res {
	int csr_cpu;
	int csr_load;
};
/* The calling CPU's LCG (§5.1): 16 random bits. Interrupts off. */
uint32_t sched_random(void);
int cpu_search_lowest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r);
int cpu_search_highest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r);
int sched_lowest(const struct cpu_group *cg, const struct cpuset *mask, int pri, int maxload,
		 int prefer, int running);
int sched_highest(const struct cpu_group *cg, const struct cpuset *mask, int minload, int mintrans);

/* ---- placement (ule_pickcpu.c, §6) ---- */
/* flags: SPC_OURSELF = requeue of the running thread, never migrate. */
#define SPC_OURSELF 0x1
int sched_pickcpu(struct td_sched *ts, int flags);
/* Whether ts switched out less than t * affinity ticks ago. */
int sched_affinity_warm(const struct td_sched *ts, int t);

/* ---- adding and notifying (ule_add.c, §7) ---- */
/* IPIs tdq's CPU if its new lowpri should preempt lowpri_before. tdq locked. */
void tdq_notify(struct tdq *tdq, int lowpri_before);
/* Local preemption decision for a thread of priority pri just queued on
 * the calling CPU's tdq: SCHED_RESCHED or 0. Own tdq locked. */
int sched_setpreempt(struct tdq *tdq, int pri);

/* ---- balancing and stealing (ule_balance.c, ule_idle.c, §8) ---- */
void sched_balance(void);
void sched_balance_group(const struct cpu_group *cg);
int sched_balance_pair(struct tdq *high, struct tdq *low);
/* Moves one thread from `from` to `to` (both locked); returns to's old
 * lowpri, or -1 if nothing could move. */
int tdq_move(struct tdq *from, struct tdq *to);
struct td_sched *tdq_steal(struct tdq *tdq, int cpu);
/* §8.5: 0 if work arrived / was stolen, 1 if nothing done. Own tdq unlocked. */
int tdq_idled(struct tdq *tdq);
/* §8.6: bounded steal into tdq (locked, held throughout). */
void tdq_trysteal(struct tdq *tdq);

/* ---- tunables (ule_tunables.c, §10); int64_t for the sysctls ---- */
extern int64_t sched_slice;
extern int64_t sched_interact;
extern int64_t preempt_thresh;
extern int64_t static_boost;
extern int64_t sched_idlespins;
extern int64_t sched_idlespinthresh;
extern int64_t sched_affinity_ticks;
extern int64_t rebalance;
extern int64_t balance_interval;
extern int64_t steal_idle;
extern int64_t steal_thresh;
extern int64_t trysteal_limit;
extern int64_t always_steal;
extern int64_t sched_debug;
/* Derived: the tick rate and sched_slice_min = max(1, sched_slice / 6). */
int sched_hz(void);
int sched_slice_min(void);
/* One tick in shifted ticks (hz << 10 / stathz, = 1 << 10 here). */
#define SCHED_TICKINCR (1 << SCHED_TICK_SHIFT)
/* Sets the hz-derived defaults (slice, idlespinthresh, affinity,
 * balance_interval). sched_init() calls it. */
void sched_tunables_init(int hz);
/* Cache levels an affinity expiry spans (MAX_CACHE_LEVELS). */
#define SCHED_MAX_CACHE_LEVELS 3

#endif
