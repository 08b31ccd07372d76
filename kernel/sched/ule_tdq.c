/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_tdq.c — the per-CPU queue (FreeBSD's struct tdq): storage and
 * set-up, placing threads on the realtime / timeshare-calendar / idle run
 * queues, load and lowpri bookkeeping. Every function that changes a tdq
 * needs its lock (asserted under kern.sched.debug).
 */
#include <sched/ule.h>

struct tdq *sched_tdqs;
int sched_ncpus;
int sched_smp_started;
struct cpu_group *sched_top;
struct cpuset sched_online;

/* Allocates and initialises the tdqs of CPUs 0..ncpu-1 (see sched.h).
 * FreeBSD: sched_setup() / tdq_setup() / sched_setup_smp(). */
void sched_init(struct cpu_group *root, int ncpu)
{
	if (!root)
		root = sched_plat_topo_root();
	if (ncpu <= 0)
		ncpu = sched_plat_ncpu();
	sched_tunables_init(sched_plat_hz());
	sched_top = root;
	sched_ncpus = ncpu;
	sched_tdqs = sched_plat_alloc(sizeof(struct tdq) * (size_t)ncpu);
	if (!sched_tdqs)
		sched_plat_panic("sched_init: no memory for the tdqs");
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct tdq *tdq = tdq_cpu(cpu);
		tdq->tdq_id = cpu;
		tdq->tdq_cg = root ? topo_find(root, cpu) : NULL;
		tdq_store_lowpri(tdq, PRI_MAX_IDLE);
		tdq->tdq_rand = (uint32_t)cpu * 69069u + 5u;
	}
	tdq_cpu(0)->tdq_balance_ticks = (int)balance_interval;
}

/* Enables cross-CPU placement, balancing and stealing. FreeBSD: the
 * smp_started flag that sched_setup_smp() and the APs' start-up raise. */
void sched_start_smp(void)
{
	cpuset_zero(&sched_online);
	for (int cpu = 0; cpu < sched_ncpus; cpu++)
		if (sched_plat_cpu_online(cpu) && tdq_cpu(cpu)->tdq_cg)
			cpuset_set(&sched_online, (unsigned)cpu);
	__atomic_store_n(&sched_smp_started, 1, __ATOMIC_RELEASE);
}

int sched_ncpu(void)
{
	return sched_ncpus;
}

/* Locks two tdqs in ascending CPU order (a == b: once). FreeBSD: tdq_lock_pair(). */
void tdq_lock_pair(int a, int b)
{
	if (a == b) {
		sched_plat_tdq_lock(a);
	} else if (a < b) {
		sched_plat_tdq_lock(a);
		sched_plat_tdq_lock(b);
	} else {
		sched_plat_tdq_lock(b);
		sched_plat_tdq_lock(a);
	}
}

/* Unlocks what tdq_lock_pair(a, b) took. */
void tdq_unlock_pair(int a, int b)
{
	sched_plat_tdq_unlock(a);
	if (a != b)
		sched_plat_tdq_unlock(b);
}

/* Queues ts by ts_pri: realtime below PRI_MIN_BATCH, the calendar for
 * batch priorities, else idle. Marks it RUNQ on this CPU, whose lock now
 * protects it (ending a transit); counts it transferable if it may
 * migrate. Load unchanged. FreeBSD: tdq_runq_add(). */
void tdq_runq_add(struct tdq *tdq, struct td_sched *ts, int flags)
{
	int pri = ts->ts_pri, head = (flags & SRQ_PREEMPTED) != 0;
	TDQ_LOCK_ASSERT(tdq, "tdq_runq_add");
	ts->ts_state = SCHED_TS_RUNQ;
	ts->ts_cpu = tdq->tdq_id;
	__atomic_store_n(&ts->ts_lockcpu, tdq->tdq_id, __ATOMIC_RELEASE);
	if (ts_can_migrate(ts)) {
		__atomic_store_n(&tdq->tdq_transferable, tdq->tdq_transferable + 1, __ATOMIC_RELAXED);
		ts->ts_flags |= TSF_XFERABLE;
	}
	if (pri < PRI_MIN_BATCH) {
		ts->ts_runq = TS_RUNQ_REALTIME;
		runq_add_idx(&tdq->tdq_realtime, ts, pri / RQ_PPQ, head);
	} else if (pri <= PRI_MAX_BATCH) {
		int idx;
		if (!(flags & (SRQ_PREEMPTED | SRQ_BORROWING))) {
			idx = RQ_NQS * (pri - PRI_MIN_BATCH) / PRI_BATCH_RANGE;
			idx = (idx + tdq->tdq_idx) % RQ_NQS;
			if (tdq->tdq_ridx != tdq->tdq_idx && idx == tdq->tdq_ridx)
				idx = (idx + RQ_NQS - 1) % RQ_NQS;
		} else {
			idx = tdq->tdq_ridx;
		}
		ts->ts_runq = TS_RUNQ_TIMESHARE;
		runq_add_idx(&tdq->tdq_timeshare, ts, idx, head);
	} else {
		ts->ts_runq = TS_RUNQ_IDLE;
		runq_add_idx(&tdq->tdq_idle, ts, pri / RQ_PPQ, head);
	}
}

/* Unlinks a queued ts; emptying the calendar's removal bucket advances it
 * while the calendar is behind. State is left to the caller. FreeBSD:
 * tdq_runq_rem(). */
void tdq_runq_rem(struct tdq *tdq, struct td_sched *ts)
{
	TDQ_LOCK_ASSERT(tdq, "tdq_runq_rem");
	if (ts->ts_flags & TSF_XFERABLE) {
		__atomic_store_n(&tdq->tdq_transferable, tdq->tdq_transferable - 1, __ATOMIC_RELAXED);
		ts->ts_flags &= (uint16_t)~TSF_XFERABLE;
	}
	switch (ts->ts_runq) {
	case TS_RUNQ_REALTIME:
		runq_remove_idx(&tdq->tdq_realtime, ts, NULL);
		break;
	case TS_RUNQ_TIMESHARE:
		runq_remove_idx(&tdq->tdq_timeshare, ts,
				tdq->tdq_idx != tdq->tdq_ridx ? &tdq->tdq_ridx : NULL);
		break;
	default:
		runq_remove_idx(&tdq->tdq_idle, ts, NULL);
		break;
	}
	ts->ts_runq = TS_RUNQ_NONE;
}

/* Counts ts in tdq's load. FreeBSD: tdq_load_add(). */
void tdq_load_add(struct tdq *tdq, struct td_sched *ts)
{
	(void)ts;
	TDQ_LOCK_ASSERT(tdq, "tdq_load_add");
	__atomic_store_n(&tdq->tdq_load, tdq->tdq_load + 1, __ATOMIC_RELAXED);
	tdq->tdq_sysload++;
}

/* Stops counting ts in tdq's load. FreeBSD: tdq_load_rem(). */
void tdq_load_rem(struct tdq *tdq, struct td_sched *ts)
{
	(void)ts;
	TDQ_LOCK_ASSERT(tdq, "tdq_load_rem");
	if (tdq->tdq_load <= 0)
		sched_plat_panic("tdq_load_rem: load would go negative");
	__atomic_store_n(&tdq->tdq_load, tdq->tdq_load - 1, __ATOMIC_RELAXED);
	tdq->tdq_sysload--;
}

/* lowpri, run queue and load for a thread arriving on tdq; returns lowpri
 * before it. FreeBSD: tdq_add(). */
int tdq_add(struct tdq *tdq, struct td_sched *ts, int flags)
{
	TDQ_LOCK_ASSERT(tdq, "tdq_add");
	int before = tdq->tdq_lowpri;
	if (ts->ts_pri < before)
		tdq_store_lowpri(tdq, ts->ts_pri);
	tdq_runq_add(tdq, ts, flags);
	tdq_load_add(tdq, ts);
	ts->ts_enq_ns = sched_plat_time_ns();
	return before;
}

/* Takes a queued ts off tdq for good (steal, affinity change); the caller
 * queues it elsewhere or marks it in transit. FreeBSD: sched_rem(). */
void tdq_rem_queued(struct tdq *tdq, struct td_sched *ts)
{
	TDQ_LOCK_ASSERT(tdq, "tdq_rem_queued");
	tdq_runq_rem(tdq, ts);
	tdq_load_rem(tdq, ts);
	ts->ts_state = SCHED_TS_INACTIVE;
	uint64_t now = sched_plat_time_ns();
	uint64_t waited = now > ts->ts_enq_ns ? now - ts->ts_enq_ns : 0;
	ts->ts_wait_ns += waited;
	tdq->tdq_stats.wait_ns += waited;
	if (ts->ts_pri == tdq->tdq_lowpri)
		tdq_setlowpri(tdq);
}

/* Next thread to run: realtime by priority, then the calendar from its
 * removal index, then idle class. FreeBSD: tdq_choose(). */
struct td_sched *tdq_choose(const struct tdq *tdq)
{
	struct td_sched *ts = runq_choose(&tdq->tdq_realtime);
	if (ts)
		return ts;
	ts = runq_choose_from(&tdq->tdq_timeshare, tdq->tdq_ridx);
	if (ts)
		return ts;
	return runq_choose(&tdq->tdq_idle);
}

/* lowpri = min(running thread, next queued thread). FreeBSD: tdq_setlowpri(). */
void tdq_setlowpri(struct tdq *tdq)
{
	TDQ_LOCK_ASSERT(tdq, "tdq_setlowpri");
	int pri = tdq->tdq_curthread ? tdq->tdq_curthread->ts_pri : PRI_MAX_IDLE;
	const struct td_sched *next = tdq_choose(tdq);
	if (next && next->ts_pri < pri)
		pri = next->ts_pri;
	tdq_store_lowpri(tdq, pri);
}

/* See ule.h. */
void tdq_running_prichange(struct tdq *tdq, const struct td_sched *ts, int oldpri)
{
	if (ts->ts_pri < tdq->tdq_lowpri)
		tdq_store_lowpri(tdq, ts->ts_pri);
	else if (oldpri == tdq->tdq_lowpri && ts->ts_pri != oldpri)
		tdq_setlowpri(tdq);
}

/* Once per tick: rotate the insert index once the removal index caught up. */
void tdq_calendar_tick(struct tdq *tdq)
{
	if (tdq->tdq_idx == tdq->tdq_ridx) {
		tdq->tdq_idx = (uint8_t)((tdq->tdq_idx + 1) % RQ_NQS);
		if (!tdq->tdq_timeshare.rq_head[tdq->tdq_ridx])
			tdq->tdq_ridx = tdq->tdq_idx;
	}
}

/* See ule.h. */
int tdq_core_shared(int cpu)
{
	const struct cpu_group *cg = tdq_cpu(cpu)->tdq_cg;
	if (!cg || !(cg->cg_flags & CG_FLAG_THREAD))
		return 0;
	for (int c = cg->cg_first; c <= cg->cg_last; c++)
		if (c != cpu && cpuset_isset(&cg->cg_mask, (unsigned)c) && tdq_load_of(c) > 0)
			return 1;
	return 0;
}

/* ---- lock-free readers ---- */

int sched_cpu_load(int cpu)
{
	return tdq_load_of(cpu);
}

int sched_cpu_lowpri(int cpu)
{
	return __atomic_load_n(&tdq_cpu(cpu)->tdq_lowpri, __ATOMIC_RELAXED);
}

int sched_cpu_transferable(int cpu)
{
	return __atomic_load_n(&tdq_cpu(cpu)->tdq_transferable, __ATOMIC_RELAXED);
}

const struct td_sched *sched_cpu_curthread(int cpu)
{
	return __atomic_load_n(&tdq_cpu(cpu)->tdq_curthread, __ATOMIC_RELAXED);
}
