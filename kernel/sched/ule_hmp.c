/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_hmp.c — hybrid placement: what kern.sched.policy=hmp and the
 * switches of the seed report's modifications (a)–(f) to cpu_search_lowest
 * / cpu_search_highest ("Integration Strategy for hmp(4) & sched_ule(4)",
 * Koine Yuusuke, 2026) do, up-migration, the primary domain, and CPUs whose
 * HFI performance is 0. The switches are defined in sched_vars.def; the
 * searches live in ule_search.c and hmp_search.c; docs/hmp.md maps each
 * switch to the report. All of it is read lock-free: a change takes effect
 * at the next decision.
 */
#include <sched/ule.h>
#include <sched/hmp.h>
#include <sched/sched_policy.h>

/* 1 if cpu runs nothing and *stamp (a tick a thread slept from it, 0:
 * never) lies within the last slice. Lock-free. */
static int idle_since_recent_sleep(int cpu, const uint64_t *stamp, uint64_t now)
{
	uint64_t t = __atomic_load_n(stamp, __ATOMIC_RELAXED);
	return t && now - t <= (uint64_t)sched_slice && tdq_load_of(cpu) == 0;
}

/* See ule.h. */
int hmp_returning(int cpu, uint64_t now)
{
	return idle_since_recent_sleep(cpu, &tdq_cpu(cpu)->tdq_interact_tick, now);
}

/* See ule.h. */
int hmp_will_return(const struct td_sched *ts)
{
	return ts->ts_class != SCHED_CLASS_IDLE && (ts->ts_flags & TSF_HOGRUN);
}

/* See ule.h. */
int hmp_sleeper_returning(int cpu, uint64_t now)
{
	return idle_since_recent_sleep(cpu, &tdq_cpu(cpu)->tdq_return_tick, now);
}

/* See ule.h. */
int hmp_latency_thread(const struct td_sched *ts)
{
	return ts->ts_class == SCHED_CLASS_TIMESHARE && ts->ts_pri <= PRI_MAX_INTERACT &&
	       sched_thread_pctcpu(ts) >= HMP_RESERVE_PCTCPU;
}

/* See ule.h. */
int hmp_latency_held(int cpu, uint64_t now)
{
	return hmp_returning(cpu, now) ||
	       (tdq_load_of(cpu) > 0 && __atomic_load_n(&tdq_cpu(cpu)->tdq_curlatency, __ATOMIC_RELAXED));
}

/* See ule.h. */
uint32_t hmp_tick_charge(int cpu)
{
	struct search_mode m = search_mode_now();
	if (!m.hmp)
		return SCHED_TICKINCR;
	int64_t speed = hmp_capacity(cpu);
	if (tdq_core_shared(cpu))
		speed = speed * (HMP_SMT_MAX + hmp_smt(cpu)) / (2 * HMP_SMT_MAX);
	return (uint32_t)((int64_t)SCHED_TICKINCR * speed / HMP_CAPACITY_MAX);
}

/* See ule.h. */
int hmp_hog(const struct td_sched *ts, uint64_t now_ns)
{
	return ts->ts_class == SCHED_CLASS_TIMESHARE &&
	       ((ts->ts_flags & TSF_HOGRUN) ||
		(ts->ts_state == SCHED_TS_RUNNING && now_ns - ts->ts_in_ns >= sched_tick_ns()));
}

/* See ule.h. A batch thread pulled up to such a CPU would take the
 * returning thread's CPU or halve its speed (a render loop's P-core taken
 * by a hog while it waited for its next frame). */
int hmp_core_reserved(int cpu)
{
	struct search_mode mode = search_mode_now();
	if (!mode.hmp || !mode.best || !mode.latency)
		return 0;
	uint64_t now = sched_plat_ticks();
	if (hmp_returning(cpu, now))
		return 1;
	const struct cpu_group *cg = tdq_cpu(cpu)->tdq_cg;
	if (!cg || !(cg->cg_flags & CG_FLAG_THREAD))
		return 0;
	SCHED_COST(cpus, cg->cg_count);
	for (int c = cg->cg_first; c <= cg->cg_last; c++)
		if (c != cpu && cpuset_isset(&cg->cg_mask, (unsigned)c) && hmp_latency_held(c, now))
			return 1;
	return 0;
}

/* 1 while a thread cpu asked over is on its way: it has not switched
 * since (hmp_ask_done) and the ask is at most a slice old (a running
 * thread switches at least once a slice). Lock-free. */
static int ask_in_flight(int cpu, uint64_t now)
{
	uint64_t t = __atomic_load_n(&tdq_cpu(cpu)->tdq_ask_tick, __ATOMIC_RELAXED);
	return t && now - t <= (uint64_t)sched_slice;
}

/* See ule.h. */
void hmp_ask_done(int to)
{
	__atomic_store_n(&tdq_cpu(to)->tdq_ask_tick, 0, __ATOMIC_RELAXED);
}

/* 1 if cpu's core is shared or soon will be: an SMT sibling runs a thread
 * or waits for one it asked over (so the two siblings of an idle core do
 * not each pull one thread of a pair and make the pair again). As in
 * tdq_core_shared(), the siblings' reads are part of visiting cpu.
 * Lock-free. */
static int core_shared(int cpu)
{
	const struct cpu_group *cg = tdq_cpu(cpu)->tdq_cg;
	if (!cg || !(cg->cg_flags & CG_FLAG_THREAD))
		return 0;
	uint64_t now = sched_plat_ticks();
	for (int c = cg->cg_first; c <= cg->cg_last; c++)
		if (c != cpu && cpuset_isset(&cg->cg_mask, (unsigned)c) &&
		    (tdq_load_of(c) > 0 || ask_in_flight(c, now)))
			return 1;
	return 0;
}

static uint8_t on(const int64_t *sw)
{
	return __atomic_load_n(sw, __ATOMIC_RELAXED) != 0;
}

/* See ule.h. */
struct search_mode search_mode_now(void)
{
	struct search_mode m = { .pol = sched_policy_current() };
	if (!m.pol->hmp_switches)
		return m;
	if (hmp_uniform()) {   /* every CPU alike: hmp decides as ULE */
		m.pol = &sched_policy_ule;
		return m;
	}
	m.hmp = 1;
	m.weight = on(&hmp_sw_weight);
	m.normalize = on(&hmp_sw_normalize);
	m.smt = on(&hmp_sw_smt);
	m.steer = on(&hmp_sw_steer);
	m.random = on(&hmp_sw_random);
	m.highest_random = on(&hmp_sw_highest_random);
	m.smt_steer = on(&hmp_sw_smt_steer);
	m.metric = __atomic_load_n(&hmp_metric, __ATOMIC_RELAXED) == HMP_METRIC_EE ? HMP_METRIC_EE
										  : HMP_METRIC_PERF;
	m.best = on(&hmp_sw_best);
	m.latency = on(&hmp_sw_latency);
	m.perf0 = (uint8_t)__atomic_load_n(&hmp_perf0, __ATOMIC_RELAXED);
	m.itd = on(&hmp_itd);
	return m;
}

/* See ule.h. */
struct search_mode search_mode_for(const struct td_sched *ts)
{
	struct search_mode m = search_mode_now();
	if (m.itd)
		m.cls = __atomic_load_n(&ts->ts_itd_class, __ATOMIC_RELAXED);
	return m;
}

/* See ule.h. */
struct search_mode search_mode_running(const struct search_mode *mode, int cpu)
{
	struct search_mode m = *mode;
	m.cls = m.itd ? __atomic_load_n(&tdq_cpu(cpu)->tdq_curclass, __ATOMIC_RELAXED) : 0;
	return m;
}

/* See ule.h. */
int hmp_drop_avoided(const struct search_mode *mode, struct cpuset *mask)
{
	if (!mode->hmp)
		return 0;
	struct cpuset off, usable;
	if (mode->perf0 == HMP_PERF0_OVERFLOW)
		return 0;
	if (mode->perf0 == HMP_PERF0_STRICT)
		hmp_avoid_set(&off);
	else
		hmp_never_set(&off);
	int dropped = 0, left = 0;
	for (int i = 0; i < CPUSET_WORDS; i++) {
		usable.bits[i] = mask->bits[i] & ~off.bits[i];
		dropped |= (mask->bits[i] & off.bits[i]) != 0;
		left |= usable.bits[i] != 0;
	}
	if (!dropped || !left)
		return 0;
	*mask = usable;
	return 1;
}

/* 1 if some CPU of mask that hmp does not avoid runs nothing and, with
 * kept, has no sleeper coming back to it (hmp_sleeper_returning).
 * Lock-free. */
static int idle_unavoided(const struct cpuset *mask, int kept)
{
	uint64_t now = sched_plat_ticks();
	for (int c = cpuset_first(mask); c >= 0; c = cpuset_next(mask, c)) {
		SCHED_COST(cpus, 1);
		if (!hmp_avoid(c) && tdq_load_of(c) == 0 && !(kept && hmp_sleeper_returning(c, now)))
			return 1;
	}
	return 0;
}

/* See ule.h. A thread on an overflow CPU (perf 0; with perf0=ee0-never,
 * ee > 0 too) leaves once a CPU it may use with perf > 0 is idle, and
 * not coming back to a sleeper (hmp_sleeper_returning). */
int hmp_should_leave(const struct td_sched *ts, int cpu)
{
	struct search_mode mode = search_mode_now();
	if (!mode.hmp || !hmp_avoid(cpu))
		return 0;
	struct cpuset mask = ts->ts_mask;
	for (int i = 0; i < CPUSET_WORDS; i++)
		mask.bits[i] &= sched_online.bits[i];
	if (mode.perf0 == HMP_PERF0_STRICT || (mode.perf0 == HMP_PERF0_EE0 && hmp_never(cpu)))
		return hmp_drop_avoided(&mode, &mask);
	return idle_unavoided(&mask, 1);
}

/* See ule.h. */
int hmp_may_steal(const struct search_mode *mode, int self)
{
	if (!mode->hmp || !hmp_avoid(self))
		return 1;
	if (mode->perf0 == HMP_PERF0_STRICT || (mode->perf0 == HMP_PERF0_EE0 && hmp_never(self)))
		return 0;
	return !idle_unavoided(&sched_online, 0);   /* overflow: only while every scored CPU is busy */
}

/* See ule.h. */
int sched_cpu_core_type(int cpu)
{
	return sched_plat_cpu_core_type(cpu) & 3;
}

/* 1 if a and b are SMT siblings of one core. */
static int same_core(int a, int b)
{
	const struct cpu_group *cg = tdq_cpu(a)->tdq_cg;
	return cg && (cg->cg_flags & CG_FLAG_THREAD) && cpuset_isset(&cg->cg_mask, (unsigned)b);
}

/* What cpu is worth to a CPU-bound thread running there alone: its score
 * (or capacity) as the searches value a free CPU (hmp_search.c), shared
 * while an SMT sibling is busy; 0 for a CPU hmp avoids. */
static int64_t worth(const struct search_mode *m, int cpu, int shared)
{
	if (hmp_avoid(cpu))
		return 0;
	if (!m->best || !m->steer) {   /* the report's rules steer by capacity */
		int64_t cap = hmp_capacity(cpu);
		return shared ? cap * hmp_smt(cpu) / HMP_SMT_MAX : cap;
	}
	return hmp_score_class(cpu, m->metric, shared, m->cls);
}

/* 1 if a thread running on `from` would leave the primary domain
 * (kern.sched.primary) by moving to `to`: a domain holds its threads; only
 * placement overflows it, when none of its CPUs is idle. O(CPUs) while a
 * domain by capacity is set, O(1) otherwise. */
static int leaves_primary(int from, int to)
{
	struct cpuset pair, in;
	cpuset_zero(&pair);
	cpuset_set(&pair, (unsigned)from);
	cpuset_set(&pair, (unsigned)to);
	if (!sched_primary_mask(&pair, &in))
		return 0;
	return cpuset_isset(&in, (unsigned)from) && !cpuset_isset(&in, (unsigned)to);
}

/* 1 if a thread runs on, or waits for, a CPU hmp avoids: overflow is in
 * use. Lock-free; visits the avoided CPUs only. */
static int overflow_busy(void)
{
	struct cpuset off;
	hmp_avoid_set(&off);
	for (int c = cpuset_first(&off); c >= 0; c = cpuset_next(&off, c)) {
		SCHED_COST(cpus, 1);
		if (tdq_load_of(c) > 0)
			return 1;
	}
	return 0;
}

/* See ule.h. A margin of a sixteenth: small differences within a core
 * type (the i7-1370P's favoured P-cores, 4 % above the others) move no
 * thread; a move only ever goes up in worth, and a thread is asked at
 * most once a balance interval, so nothing oscillates. A thread is never
 * asked out of the primary domain, nor, while overflow is in use, to a
 * CPU a sleeper is coming back to (hmp_sleeper_returning): from an
 * overflow CPU it would take the sleeper's CPU, from elsewhere free one
 * for the overflow thread to take; either way the sleeper comes back to
 * the overflow CPU. */
int hmp_better_idle(const struct search_mode *m, int to, int from)
{
	if (to == from || same_core(to, from) || hmp_avoid(to) || tdq_load_of(to) > 0 ||
	    leaves_primary(from, to) || (hmp_sleeper_returning(to, sched_plat_ticks()) && overflow_busy()))
		return 0;
	int64_t wt = worth(m, to, core_shared(to)), wf = worth(m, from, core_shared(from));
	return wt > wf + wf / 16;
}

/* See ule.h. The best target: the CPU worth most. */
int hmp_better_idle_for(const struct search_mode *m, const struct td_sched *ts, int from)
{
	struct cpuset mask = ts->ts_mask;
	for (int i = 0; i < CPUSET_WORDS; i++)
		mask.bits[i] &= sched_online.bits[i];
	int best = -1;
	int64_t bw = -1;
	for (int c = cpuset_first(&mask); c >= 0; c = cpuset_next(&mask, c)) {
		SCHED_COST(cpus, 1);
		if (!hmp_better_idle(m, c, from))
			continue;
		int64_t w = worth(m, c, core_shared(c));
		if (w > bw) {
			bw = w;
			best = c;
		}
	}
	return best;
}

/* See ule.h. Only a hog is asked, and a hog whenever a CPU would serve
 * it better: an ask only ever raises the thread's worth by more than a
 * sixteenth, so asks alone cannot move a thread back and forth, and no
 * limit in time is needed. A thread that runs in shorter stretches is
 * never asked: it is placed at every wake-up, by the searches. */
int hmp_may_ask(const struct td_sched *t, int to)
{
	return !(t->ts_flags & TSF_PICKCPU) && ts_can_migrate(t) && ts_can_run_on(t, to) &&
	       hmp_hog(t, sched_plat_time_ns());
}

/* See ule.h. */
int hmp_ask_move(struct td_sched *t, int to)
{
	if (!hmp_may_ask(t, to))
		return 0;
	t->ts_flags |= TSF_PICKCPU;
	t->ts_move_to = to;
	return 1;
}

/* See ule.h. */
int hmp_move_target(struct td_sched *t, int self, int to, int swap)
{
	struct search_mode mode = search_mode_for(t);
	if (swap)
		return hmp_itd_swap_target(&mode, t, self, to);
	if (!mode.hmp || !cpuset_isset(&sched_online, (unsigned)to) || !ts_can_run_on(t, to) ||
	    !hmp_better_idle(&mode, to, self)) {
		tdq_cpu(self)->tdq_stats.upmigrate_stale++;
		return self;
	}
	tdq_cpu(self)->tdq_stats.upmigrations++;
	return to;
}

/* 1 if cpu's one thread is one up-migration may ask: a hog running there
 * (hmp_may_ask), or a thread on its way there, not yet running (pull_ask
 * then scans again at the next round). Lock-free. */
static int pull_candidate(int cpu)
{
	return tdq_load_of(cpu) == 1 &&
	       (tdq_hog_of(cpu) || !__atomic_load_n(&tdq_cpu(cpu)->tdq_curthread, __ATOMIC_RELAXED));
}

/* The CPU self would pull from: of the pull candidates that self serves
 * better (hmp_better_idle with that thread's class), the one worth least
 * (the first found among equals); -1 if none. Lock-free. */
static int pull_victim(const struct search_mode *mode, int self)
{
	int victim = -1;
	int64_t vw = 0;
	SCHED_COST(cpus, cpuset_count(&sched_online));
	for (int c = cpuset_first(&sched_online); c >= 0; c = cpuset_next(&sched_online, c)) {
		if (!pull_candidate(c))
			continue;
		struct search_mode mc = search_mode_running(mode, c);   /* its thread's class */
		if (!hmp_better_idle(&mc, self, c))
			continue;
		int64_t w = worth(&mc, c, core_shared(c));
		if (victim < 0 || w < vw) {
			victim = c;
			vw = w;
		}
	}
	return victim;
}

/* An SMT sibling of victim, a pull candidate that self also serves better: the
 * other half of a shared core, whose move splits the pair as well; -1 if
 * none. Lock-free. */
static int pull_pair_other(const struct search_mode *mode, int self, int victim)
{
	const struct cpu_group *cg = tdq_cpu(victim)->tdq_cg;
	if (!cg || !(cg->cg_flags & CG_FLAG_THREAD))
		return -1;
	SCHED_COST(cpus, cg->cg_count);
	for (int c = cg->cg_first; c <= cg->cg_last; c++) {
		if (c == victim || !cpuset_isset(&cg->cg_mask, (unsigned)c) || !pull_candidate(c))
			continue;
		struct search_mode mc = search_mode_running(mode, c);
		if (hmp_better_idle(&mc, self, c))
			return c;
	}
	return -1;
}

/* Asks the thread running alone on victim over to self, with an IPI: 1 if
 * asked (self then waits for it: tdq_ask_tick), 0 if victim's lock is
 * busy or its thread may not be asked, -1 if its thread is not yet
 * running there (self scans again at its next round). Takes victim's lock
 * if it is free; from self's idle loop. */
static int pull_ask(int self, int victim, uint64_t now)
{
	struct tdq *own = tdq_cpu(self);
	if (!sched_plat_tdq_trylock(victim))
		return 0;
	struct tdq *tdq = tdq_cpu(victim);
	struct td_sched *t = tdq->tdq_curthread;
	int asked = 0;
	if (t && tdq->tdq_load == 1 && hmp_ask_move(t, self)) {
		__atomic_store_n(&own->tdq_ask_tick, now ? now : 1, __ATOMIC_RELAXED);
		own->tdq_stats.upmigrate_asks++;
		own->tdq_stats.ipis++;
		sched_plat_ipi(victim, SCHED_PLAT_IPI_AST);
		asked = 1;
	} else if (!t) {
		own->tdq_pull_tick = 0;
		asked = -1;
	}
	sched_plat_tdq_unlock(victim);
	return asked;
}

/* See ule.h. kern.sched.hmp.upmigrate: an idle CPU asks a CPU it would
 * serve better (worth more: faster, or a whole core against a shared one,
 * or a busy P core's idle sibling against an E-core that adds less, or
 * not avoided) to send its lone running hog over at the next switch — to
 * it, no new search (beyond the report: ULE alone keeps a CPU-bound
 * thread where it started). Only hogs are asked, whenever a CPU would
 * serve them better (hmp_may_ask); when the hog worth least shares its
 * core and may not be asked (it is already on its way elsewhere), the
 * other hog of that core is: either move splits the pair;
 * while an asked thread is on its way, its target's SMT siblings count as
 * shared. An idle CPU scans when it has just run a thread, and again at
 * its next round when the thread it found was still on its way to the
 * victim, else at most every kern.sched.hmp.upmigrate_scan ticks: that
 * bounds the scans' cost (each visits every CPU) at a few ticks of delay. */
void hmp_upmigrate_pull(int self)
{
	struct search_mode mode = search_mode_now();
	uint64_t now = sched_plat_ticks();
	struct tdq *own = tdq_cpu(self);
	if (!mode.hmp || !__atomic_load_n(&hmp_upmigrate, __ATOMIC_RELAXED) ||
	    tdq_load_of(self) > 0 || hmp_avoid(self) || hmp_core_reserved(self) ||
	    (own->tdq_pull_tick &&
	     now - own->tdq_pull_tick < (uint64_t)__atomic_load_n(&hmp_upmigrate_scan, __ATOMIC_RELAXED)))
		return;
	own->tdq_pull_tick = now;
	int victim = pull_victim(&mode, self);
	if (victim < 0 || pull_ask(self, victim, now))
		return;
	int other = pull_pair_other(&mode, self, victim);   /* victim's thread may not move yet */
	if (other >= 0)
		pull_ask(self, other, now);
}

/* The CPU list of kern.sched.primary when it names one (SCHED_PRIMARY_LIST). */
struct cpuset sched_primary_list;

/* Highest capacity among the online CPUs of mask (0 if none). */
static int top_capacity(const struct cpuset *mask)
{
	int top = 0;
	SCHED_COST(cpus, cpuset_count(mask));
	for (int c = cpuset_first(mask); c >= 0; c = cpuset_next(mask, c))
		top = hmp_capacity(c) > top ? hmp_capacity(c) : top;
	return top;
}

/* The CPUs of mask with capacity top (want 1) or below it (want 0). */
static struct cpuset by_capacity(const struct cpuset *mask, int top, int want)
{
	struct cpuset out;
	cpuset_zero(&out);
	SCHED_COST(cpus, cpuset_count(mask));
	for (int c = cpuset_first(mask); c >= 0; c = cpuset_next(mask, c))
		if ((hmp_capacity(c) == top) == want)
			cpuset_set(&out, (unsigned)c);
	return out;
}

/* See ule.h. */
int hmp_class_mask(const struct search_mode *mode, const struct td_sched *ts, struct cpuset *mask)
{
	if (!mode->hmp || !__atomic_load_n(&hmp_class_aware, __ATOMIC_RELAXED) ||
	    ts->ts_pri > PRI_MAX_INTERACT)
		return 0;
	struct cpuset fast = by_capacity(mask, top_capacity(mask), 1);
	if (cpuset_empty(&fast) || cpuset_equal(&fast, mask))
		return 0;
	*mask = fast;
	return 1;
}

/* See ule.h. */
int sched_primary_mask(const struct cpuset *mask, struct cpuset *out)
{
	int kind = (int)__atomic_load_n(&sched_primary_kind, __ATOMIC_RELAXED);
	if (kind == SCHED_PRIMARY_ALL)
		return 0;
	if (kind == SCHED_PRIMARY_LIST) {
		*out = *mask;
		for (int i = 0; i < CPUSET_WORDS; i++)
			out->bits[i] &= sched_primary_list.bits[i];
	} else {
		*out = by_capacity(&sched_online, top_capacity(&sched_online),
				   kind == SCHED_PRIMARY_PERFORMANCE);
		for (int i = 0; i < CPUSET_WORDS; i++)
			out->bits[i] &= mask->bits[i];
	}
	return 1;
}
