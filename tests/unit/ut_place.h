/* SPDX-License-Identifier: BSD-2-Clause */
/* ut_place.h — placing CPU-bound threads on a booted test scheduler and
 * driving it tick by tick as the kernel does, for the placement tests.
 * Include after ule_test_util.h; one test file at a time. */
#ifndef MOSAIC_UT_PLACE_H
#define MOSAIC_UT_PLACE_H

#define NT 64
static struct td_sched th[NT];

/* Every CPU's random stream from seed. */
static inline void seed_all(int seed)
{
	for (int c = 0; c < spt.ncpu; c++)
		tdq_cpu(c)->tdq_rand = (uint32_t)(seed * 7919 + c * 104729 + 1);
}

/* A new CPU-bound thread i of Thread Director class cls allowed on mask
 * (NULL: all), added from CPU 0 and, if its CPU was idle, made that CPU's
 * running thread; returns the CPU it went to. */
static inline int place_on_class(int i, unsigned cls, const struct cpuset *mask)
{
	spt.self = 0;
	sched_thread_init(&th[i], NULL, SCHED_CLASS_TIMESHARE, 0, mask);
	sched_itd_class_set(&th[i], cls);
	th[i].ts_runtime = 500u << SCHED_TICK_SHIFT;
	sched_add(&th[i], 0);
	int cpu = th[i].ts_cpu;
	if (!sched_cpu_curthread(cpu)) {
		spt.self = cpu;
		assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &th[i]);
		spt.self = 0;
	}
	return cpu;
}

/* place_on() for a thread of Thread Director class 0 (scalar). */
static inline int place_on(int i, const struct cpuset *mask)
{
	return place_on_class(i, 0, mask);
}

static inline int place(int i)
{
	return place_on(i, NULL);
}

/* One tick of every CPU as the kernel drives them: pending IPIs, the
 * tick (CPU 0 also balances), the switch it asks for, and the idle loop of
 * idle CPUs. */
static inline void run_round(void)
{
	spt_advance(1);
	for (int c = 0; c < spt.ncpu; c++) {
		spt.self = c;
		struct td_sched *cur = tdq_cpu(c)->tdq_curthread;
		int sw = sched_clock(c, cur, 1);
		if (spt.ipis[c]) {
			spt.ipis[c] = 0;
			sw |= sched_ipi(c, cur);
		}
		if (!cur && !sw)
			sw = sched_idle(c);
		if (sw)
			sched_switch(cur, cur ? SCHED_SW_PREEMPT : SCHED_SW_YIELD);
	}
	spt.self = 0;
}

/* Sum of counter field off over all CPUs. */
static inline uint64_t stat_sum(size_t off)
{
	uint64_t n = 0;
	for (int c = 0; c < spt.ncpu; c++)
		n += *(const uint64_t *)((const char *)&tdq_cpu(c)->tdq_stats + off);
	return n;
}
#define STAT(field) stat_sum(offsetof(struct sched_stats, field))

#endif
