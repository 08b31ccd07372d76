/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_tunables.c — the tick rate ULE's tunables were derived from and the
 * values derived from them. The tunables themselves (FreeBSD's kern.sched.*
 * names and defaults) are lines of sched_vars.def. hz here is both
 * FreeBSD's hz and its stathz.
 */
#include <sched/ule.h>
#include <sched/sched_vars.h>

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

/* See ule.h. Boot only. */
void sched_tunables_init(int hz)
{
	tunables_hz = hz > 0 ? hz : 100;
	sched_vars_follow_hz(tunables_hz);
}
