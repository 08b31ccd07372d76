/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * policy_linux.c — the `linux` placement policy: the placement rules of
 * Linux's fair class on a machine of asymmetric CPUs, on ULE's run queues
 * (it models where threads go, not EEVDF's order of running them; slices,
 * priorities and interactivity stay ULE's). Sources, read for facts only:
 *   - ITMT / asym packing (arch/x86/kernel/itmt.c, sched_core_priority set
 *     from each core's maximum boost frequency; sched_use_asym_prio(): a
 *     priority counts only when the destination's whole core is idle):
 *     placement and the balancer prefer the highest-priority CPU whose
 *     core is idle. Here a CPU's priority is its hmp capacity (the static
 *     performance ratio Mosaic derives from CPUID and the HFI table), not
 *     a frequency.
 *   - capacity-aware wake-up (select_idle_sibling / select_idle_capacity
 *     with fits_capacity(): util × 1280 < capacity × 1024): the previous
 *     CPU when its core is idle and the thread fits it, else the best idle
 *     core, else the best idle CPU (SMT-aware: select_idle_core's whole
 *     idle core before an idle sibling of a busy one).
 *   - misfit migration (Rasmussen, "sched/fair: Add 'group_misfit_task'
 *     load-balance type", 2018): a thread whose utilisation does not fit
 *     its CPU by the 1280/1024 margin is moved to an idle CPU of larger
 *     capacity, by the balancer and by a CPU going idle (as newidle
 *     balance pulls a misfit task).
 * A thread's utilisation is ULE's %CPU (sched_thread_pctcpu) on the
 * 0..1024 scale, not PELT's decayed, frequency-invariant sum.
 * Not modelled: EEVDF, PELT, sibling_imbalance()'s per-core group
 * comparison (the balancer compares ULE's thread counts), EAS (Linux
 * enables it only on hybrids without SMT), NUMA, wake-affine.
 */
#include <sched/sched_policy.h>
#include <sched/hmp.h>

#define LINUX_FIT_MARGIN 1280   /* fits_capacity(): util × 1280 < capacity × 1024 */

static int64_t capacity_rank(int cpu)
{
	return hmp_capacity(cpu);
}

/* ts's utilisation on Linux's 0..1024 scale, from ULE's %CPU (hundredths
 * of a percent). ts's tdq locked or ts not running anywhere. */
static int64_t task_util(const struct td_sched *ts)
{
	return (int64_t)sched_thread_pctcpu(ts) * HMP_CAPACITY_MAX / 10000;
}

/* 1 if util fits cpu with Linux's margin. */
static int fits(int64_t util, int cpu)
{
	return util * LINUX_FIT_MARGIN < (int64_t)hmp_capacity(cpu) * HMP_CAPACITY_MAX;
}

/* The pickcpu operation: the previous CPU if its core is idle and ts fits
 * it; else the idle core of highest priority; else the idle CPU of highest
 * capacity; else ULE's steps (least loaded). Lock-free reads. */
static int linux_pickcpu(const struct search_mode *m, struct td_sched *ts, struct cpuset *mask, int flags,
			 struct sched_stats *st)
{
	int prev = ts->ts_cpu, cpu;
	if (cpuset_isset(mask, (unsigned)prev) && sched_core_idle(prev) && fits(task_util(ts), prev)) {
		st->pick_idle_affinity++;
		return prev;
	}
	cpu = sched_pick_idle_ranked(ts, mask, 1, capacity_rank);
	if (cpu < 0)
		cpu = sched_pick_idle_ranked(ts, mask, 0, capacity_rank);
	if (cpu < 0)
		return ule_pickcpu_steps(m, ts, mask, flags, st);
	st->pick_llc_idle++;
	return cpu;
}

/* 1 if t, running on cpu, should go to an idle CPU of t's: misfit (it
 * does not fit cpu and a CPU of larger capacity is idle) or asym packing
 * (a CPU of higher priority has an idle core). Lock-free reads. */
static int should_move_up(const struct td_sched *t, int cpu)
{
	int misfit = !fits(task_util(t), cpu);
	int cap = hmp_capacity(cpu);
	for (int c = cpuset_first(&sched_online); c >= 0; c = cpuset_next(&sched_online, c)) {
		SCHED_COST(cpus, 1);
		if (c == cpu || !ts_can_run_on(t, c) || hmp_capacity(c) <= cap)
			continue;
		if (sched_core_idle(c) || (misfit && sched_cpu_idle(c)))
			return 1;
	}
	return 0;
}

/* The lone_thread operation: t (alone on high, high locked) repicks its
 * CPU at its next switch when it should move up. */
static int linux_lone_thread(const struct search_mode *m, struct td_sched *t, int high)
{
	(void)m;
	if (!ts_can_migrate(t) || (t->ts_flags & TSF_PICKCPU) || !should_move_up(t, high))
		return 0;
	t->ts_flags |= TSF_PICKCPU;
	return 1;
}

/* Tick of each CPU's last misfit scan (own CPU only). */
static uint64_t last_scan[TOPO_MAXCPU];

/* The idle operation: idle self, at most once a tick, asks the lone thread
 * of a smaller CPU that does not fit it to repick (it comes to self or to
 * a better idle CPU), as Linux's newidle balance pulls a misfit task. No
 * tdq lock held; takes the victim's with a trylock. */
static void linux_idle(const struct search_mode *m, int self)
{
	(void)m;
	uint64_t now = sched_plat_ticks();
	if (last_scan[self] == now || !sched_core_idle(self))
		return;
	last_scan[self] = now;
	int cap = hmp_capacity(self);
	for (int c = cpuset_first(&sched_online); c >= 0; c = cpuset_next(&sched_online, c)) {
		SCHED_COST(cpus, 1);
		if (c == self || tdq_load_of(c) != 1 || hmp_capacity(c) >= cap || !sched_plat_tdq_trylock(c))
			continue;
		struct td_sched *t = tdq_cpu(c)->tdq_curthread;
		int ask = t && ts_can_migrate(t) && !(t->ts_flags & TSF_PICKCPU) && ts_can_run_on(t, self) &&
			  !fits(task_util(t), c);
		if (ask)
			t->ts_flags |= TSF_PICKCPU;
		sched_plat_tdq_unlock(c);
		if (ask) {
			tdq_cpu(self)->tdq_stats.ipis++;
			sched_plat_ipi(c, SCHED_PLAT_IPI_AST);
			return;
		}
	}
}

const struct sched_policy sched_policy_linux = {
	.name = "linux",
	.descr = "Linux fair-class placement: ITMT asym packing, capacity-aware idle pick, misfit (1280/1024)",
	.pickcpu = linux_pickcpu,
	.lone_thread = linux_lone_thread,
	.idle = linux_idle,
};
