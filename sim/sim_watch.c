/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_watch.c — an observer for the property run's P3 (docs/sim.md,
 * "Property run"): how long one CPU stays idle while another CPU has two
 * or more runnable threads. It reads the engine's CPUs (idle: no thread
 * running) and the scheduler's per-CPU load (tdq_load: running plus
 * queued threads) and decides nothing.
 *
 * The window opens when the workload's main thread blocks after its last
 * spawn (from then on every runnable thread is one of the workload's) and
 * closes at the first exit of one of them. CPUs no workload thread may run
 * on, and the CPUs the policy is told not to use while others are
 * possible (hmp_drop_avoided: under hmp, perf 0 as kern.sched.hmp.perf0
 * reads it, as of the opening), never count as idle. A
 * CPU's stretch runs while it is idle and some other CPU is overloaded; one
 * whose condition stops for at most one tick and then holds again goes on
 * (a thread the balancer moves to the idle CPU and the next tick moves back
 * gives it no relief), the tick counted in its length.
 *
 * Cheap: a CPU is looked at again only after its tdq lock was released or
 * its running thread changed (sim_watch_dirty), every CPU only when the
 * number of overloaded CPUs changed; the conditions are settled once per
 * instant, before time moves on, so that the passing states of the events
 * of one instant are not stretches.
 */
#include <string.h>
#include <sim/sim.h>
#include <sched/ule.h>

/* See sim.h. */
void sim_watch_reset(void)
{
	memset(&sim.w, 0, sizeof(sim.w));
}

/* See sim.h. */
void sim_watch_open(void)
{
	struct sim_watch *w = &sim.w;
	if (w->open || w->done)
		return;
	cpuset_zero(&w->eligible);
	for (const struct sim_thread *td = sim.threads; td; td = td->all_next)
		if (sim_workload_thread(td))
			cpuset_or(&w->eligible, &td->ts.ts_mask);
	struct search_mode mode = search_mode_now();
	hmp_drop_avoided(&mode, &w->eligible);
	w->open = 1;
	w->nover_seen = -1;
	sim.res->watch.watched = 1;
	for (int c = 0; c < sim.ncpu; c++)
		sim_watch_dirty(c);
}

/* cpu looked at again: its idle and overloaded flags and the count. */
static void look(int c)
{
	struct sim_watch *w = &sim.w;
	int over = tdq_load_of(c) >= 2;
	w->idle[c] = !sim.cpu[c].cur && cpuset_isset(&w->eligible, (unsigned)c);
	w->nover += over - w->over[c];
	w->over[c] = (uint8_t)over;
}

/* c's stretch, ended at end, kept in the run's result if the longest. */
static void end_stretch(int c, uint64_t end)
{
	struct sim_watch *w = &sim.w;
	struct sim_watch_result *res = &sim.res->watch;
	w->stretch[c] = SIM_WATCH_OFF;
	if (end - w->start[c] > res->longest_ns)
		*res = (struct sim_watch_result){ 1, end - w->start[c], w->start[c] - sim.t0, c, w->busy[c],
						  w->busy_load[c] };
}

/* c's stretch starts at sim.now: an overloaded CPU other than c, its load. */
static void start_stretch(int c)
{
	struct sim_watch *w = &sim.w;
	int busy = 0;
	while (busy < sim.ncpu && (!w->over[busy] || busy == c))
		busy++;
	w->stretch[c] = SIM_WATCH_ON;
	w->start[c] = sim.now;
	w->busy[c] = (int16_t)busy;
	w->busy_load[c] = (int16_t)tdq_load_of(busy);
}

/* c's condition now: a stretch starts, goes on, pauses or ends. */
static void settle_cpu(int c)
{
	struct sim_watch *w = &sim.w;
	int cond = w->idle[c] && w->nover - w->over[c] > 0;
	if (cond && w->stretch[c] == SIM_WATCH_PAUSED && sim.now - w->end[c] <= sim.tick_period) {
		w->stretch[c] = SIM_WATCH_ON;
	} else if (cond && w->stretch[c] != SIM_WATCH_ON) {
		if (w->stretch[c] == SIM_WATCH_PAUSED)
			end_stretch(c, w->end[c]);
		start_stretch(c);
	} else if (!cond && w->stretch[c] == SIM_WATCH_ON) {
		w->stretch[c] = SIM_WATCH_PAUSED;
		w->end[c] = sim.now;
	}
}

/* See sim.h. */
void sim_watch_settle(void)
{
	struct sim_watch *w = &sim.w;
	uint64_t dirty[MACHINE_MAX_CPUS / 64];
	memcpy(dirty, w->dirty, sizeof(dirty));
	memset(w->dirty, 0, sizeof(w->dirty));
	for (int i = 0; i < MACHINE_MAX_CPUS / 64; i++)
		for (uint64_t d = dirty[i]; d; d &= d - 1)
			look(i * 64 + __builtin_ctzll(d));
	if (w->nover != w->nover_seen) {
		w->nover_seen = w->nover;
		for (int c = 0; c < sim.ncpu; c++)
			settle_cpu(c);
		return;
	}
	for (int i = 0; i < MACHINE_MAX_CPUS / 64; i++)
		for (uint64_t d = dirty[i]; d; d &= d - 1)
			settle_cpu(i * 64 + __builtin_ctzll(d));
}

/* See sim.h. */
void sim_watch_close(void)
{
	struct sim_watch *w = &sim.w;
	if (!w->open)
		return;
	sim_watch_settle();
	for (int c = 0; c < sim.ncpu; c++)
		if (w->stretch[c])
			end_stretch(c, w->stretch[c] == SIM_WATCH_ON ? sim.now : w->end[c]);
	w->open = 0;
	w->done = 1;
}
