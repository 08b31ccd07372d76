/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_clock.c — the host's monotonic clock, for the "took N s" line on
 * stderr (never for anything the simulation computes).
 */
#include <time.h>
#include <sim/sim_clock.h>

/* See sim_clock.h. */
double sim_host_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
