/*
 * ule_tunables.c — ULE's run-time tunables with FreeBSD's names and
 * defaults; exported as kern.sched.<name> sysctls by kernel/shell/cmd_sched.c.
 * int64_t because sysctls are. Read lock-free by the core: a change takes
 * effect at the next use. hz here is both FreeBSD's hz and its stathz.
 */
#include "ule.h"

/* kern.sched.slice: time slice in ticks; default hz / 10 (100 ms). Also
 * shown in µs as kern.sched.quantum. */
int64_t sched_slice = 10;
/* kern.sched.interact: interactivity threshold; score below = interactive. */
int64_t sched_interact = 30;
/* kern.sched.preempt_thresh: priorities at or below it preempt anything
 * worse (kernel with PREEMPTION: PRI_MIN_KERN); 0 disables preemption. */
int64_t preempt_thresh = PRI_MIN_KERN;
/* kern.sched.static_boost: a timeshare thread that sleeps is raised to this
 * priority (if worse) until it next runs; 0 disables. */
int64_t static_boost = PRI_MIN_BATCH;
/* kern.sched.idlespins: idle loop spins watching for work before halting. */
int64_t sched_idlespins = 10000;
/* kern.sched.idlespinthresh: switches per two ticks above which the idle
 * loop spins first; default 2 * max(10000, 6 * hz) / hz. */
int64_t sched_idlespinthresh = 200;
/* kern.sched.affinity: ticks per cache level a thread stays cache-warm on
 * its last CPU; default max(1, hz / 1000). */
int64_t sched_affinity_ticks = 1;
/* kern.sched.balance: 1 runs the periodic load balancer on CPU 0. */
int64_t rebalance = 1;
/* kern.sched.balance_interval: average ticks between balancer runs
 * (jittered between interval/2 and 1.5 * interval); default hz (1 s). */
int64_t balance_interval = 128;
/* kern.sched.steal_idle: 1 lets idle CPUs steal queued threads. */
int64_t steal_idle = 1;
/* kern.sched.steal_thresh: least load of a CPU to steal from. */
int64_t steal_thresh = 2;
/* kern.sched.trysteal_limit: topology levels searched by the steal before
 * idling (0 disables it). */
int64_t trysteal_limit = 2;
/* kern.sched.always_steal: 1 makes the idle loop try to steal every round,
 * not only after a switch happened. */
int64_t always_steal = 0;
/* kern.sched.debug: 1 checks every run-queue invariant after each change
 * (Mosaic addition, off by default: it is slow). */
int64_t sched_debug = 0;

static int tunables_hz = 100;

/* Tick rate the defaults were derived from. */
int sched_hz(void)
{
	return tunables_hz;
}

/* Shortest slice, for heavily loaded CPUs: sched_slice / 6, at least 1. */
int sched_slice_min(void)
{
	int64_t m = sched_slice / 6;
	return m < 1 ? 1 : (int)m;
}

/* Derives the hz-dependent defaults (slice, balance interval, idle spin
 * threshold, affinity), as FreeBSD's sched_initticks(). Boot only. */
void sched_tunables_init(int hz)
{
	tunables_hz = hz > 0 ? hz : 100;
	sched_slice = tunables_hz / 10 > 0 ? tunables_hz / 10 : 1;
	sched_idlespinthresh = 2 * (10000 > 6 * tunables_hz ? 10000 : 6 * tunables_hz) / tunables_hz;
	sched_affinity_ticks = tunables_hz / 1000 > 1 ? tunables_hz / 1000 : 1;
	balance_interval = tunables_hz;
}
