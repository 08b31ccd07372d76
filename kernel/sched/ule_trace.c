/* SPDX-License-Identifier: BSD-2-Clause */
/* ule_trace.c — the core's trace points, switched by the platform (see sched_trace.h). */
#include <sched/sched_trace.h>
#include <sched/sched_plat.h>

static int points_on;

/* See sched_trace.h. */
void sched_trace_points(int on)
{
	__atomic_store_n(&points_on, on != 0, __ATOMIC_SEQ_CST);
}

/* See sched_trace.h. */
int sched_trace_points_on(void)
{
	return __atomic_load_n(&points_on, __ATOMIC_RELAXED);
}

/* See sched_trace.h. */
void sched_trace_point(uint64_t ns, const struct td_sched *ts, int kind, int why, int from, int to)
{
	if (!__atomic_load_n(&points_on, __ATOMIC_RELAXED))
		return;
	if (!ns)
		ns = sched_plat_time_ns();
	struct sched_trace_point p = { ns, ts, (uint8_t)kind, (uint8_t)why, (int16_t)from, (int16_t)to };
	sched_plat_trace(&p);
}
