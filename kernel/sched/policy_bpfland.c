/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * policy_bpfland.c — the `bpfland` placement policy: sched_ext's
 * scx_bpfland (sched-ext/scx, scheds/rust/scx_bpfland; main.bpf.c and
 * main.rs read for facts only). Its primary domain (--primary-domain,
 * PR #491) is used until it is saturated — no utilisation threshold:
 * "saturated" means no idle CPU in the primary domain at wake-up — then
 * threads overflow to the other CPUs. Its idle pick (pick_idle_cpu, with
 * --preferred-idle-scan walking CPUs in descending capacity order) tries
 * in turn: the previous CPU if its whole core is idle and it is primary, a
 * wholly idle core in the primary domain, any idle primary CPU, a wholly
 * idle core anywhere, any idle CPU. Here the primary domain is
 * kern.sched.primary when set (performance, efficiency or a CPU list), and
 * otherwise the CPUs of the highest capacity (bpfland's "performance"
 * domain, its big cores); capacity is hmp's (bpfland derives it from
 * sysfs cpu_capacity / frequencies). With no idle CPU the thread goes
 * where ULE's steps put it (bpfland queues it on a shared deadline-ordered
 * queue that every CPU consumes; ULE's balancer and idle stealing stand
 * in for that).
 *
 * Not modelled: the deadline (vruntime) order of its queues and slice
 * lengths, the power-profile-driven `auto` domain, wake-affine toward a
 * faster waker, is_smt_contended() re-dispatch, cpufreq control.
 */
#include <sched/sched_policy.h>
#include <sched/hmp.h>

static int64_t capacity_rank(int cpu)
{
	return hmp_capacity(cpu);
}

/* The primary CPUs of mask into *out: kern.sched.primary's when set, else
 * the CPUs of the highest capacity among the online ones. */
static void primary_of(const struct cpuset *mask, struct cpuset *out)
{
	if (sched_primary_mask(mask, out))
		return;
	int top = 0;
	for (int c = cpuset_first(&sched_online); c >= 0; c = cpuset_next(&sched_online, c))
		if (hmp_capacity(c) > top)
			top = hmp_capacity(c);
	cpuset_zero(out);
	for (int c = cpuset_first(mask); c >= 0; c = cpuset_next(mask, c)) {
		SCHED_COST(cpus, 1);
		if (hmp_capacity(c) == top)
			cpuset_set(out, (unsigned)c);
	}
}

/* The pickcpu operation: bpfland's idle pick in its order, counted in
 * primary_picks / primary_overflows; ULE's steps when no CPU is idle.
 * Lock-free reads. */
static int bpfland_pickcpu(const struct search_mode *m, struct td_sched *ts, struct cpuset *mask, int flags,
			   struct sched_stats *st)
{
	struct cpuset primary;
	int prev = ts->ts_cpu, cpu;
	primary_of(mask, &primary);
	if (cpuset_isset(&primary, (unsigned)prev) && sched_core_idle(prev)) {
		st->primary_picks++;
		st->pick_idle_affinity++;
		return prev;
	}
	cpu = sched_pick_idle_ranked(ts, &primary, 1, capacity_rank);
	if (cpu < 0)
		cpu = sched_pick_idle_ranked(ts, &primary, 0, capacity_rank);
	if (cpu >= 0) {
		st->primary_picks++;
	} else {
		cpu = sched_pick_idle_ranked(ts, mask, 1, capacity_rank);
		if (cpu < 0)
			cpu = sched_pick_idle_ranked(ts, mask, 0, capacity_rank);
		if (cpu < 0)
			return ule_pickcpu_steps(m, ts, mask, flags, st);
		st->primary_overflows++;
	}
	st->pick_llc_idle++;
	return cpu;
}

const struct sched_policy sched_policy_bpfland = {
	.name = "bpfland",
	.descr = "scx_bpfland: primary domain (fastest CPUs) until no CPU of it is idle, idle whole cores first",
	.pickcpu = bpfland_pickcpu,
};
