/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_workloads.c — the workloads schedsim knows: every benchmark workload
 * of kernel/bench (cpu, make, pgbench, hackbench, schbench, frames: the
 * registry of bench_wl.c, their sources compiled unchanged against this
 * simulator's bench_rt.h, sim_rt.c), then the simulator's test workloads
 * (sim/wl_test_*.c). A benchmark workload runs once per sample in
 * the bench main thread, exactly as the kernel's `bench` runs it; a run
 * whose check fails or that the stop cut short gives no sample.
 */
#include <stdio.h>
#include <string.h>
#include <bench/bench_wl.h>
#include <sim/sim_wl.h>

extern const struct sim_workload sim_wl_test_cpu, sim_wl_test_pingpong;

const struct sim_workload *const sim_test_workloads[] = {
	&sim_wl_test_cpu,
	&sim_wl_test_pingpong,
	NULL,
};

#define SIM_BENCH_WL_MAX 16
static struct sim_workload bench_entries[SIM_BENCH_WL_MAX];
static int nbench = -1;   /* -1 until the registry is read */
static struct bench_result last;   /* the last run's result (one run at a time) */
static int last_done;              /* last is complete */

/* One run of the kernel/bench workload behind w: its value, or -1 after a
 * line on stderr (check failed, cut short by the stop). */
static int64_t bench_entry_run(const struct sim_workload *w, const struct sim_wl_args *a)
{
	const struct bench_wl *bw = w->ctx;
	struct bench_result *res = &last;
	memset(res, 0, sizeof(*res));
	last_done = 0;
	bw->run(a->opt, a->threads, res);
	last_done = 1;
	if (res->aborted) {
		fprintf(stderr, "schedsim: %s at %d threads: cut short by --duration-ms\n", bw->name, a->threads);
		return -1;
	}
	if (!res->check_ok) {
		fprintf(stderr, "schedsim: %s at %d threads: check failed: %s\n", bw->name, a->threads, res->check);
		return -1;
	}
	return res->value;
}

/* See sim_wl.h. */
const struct bench_result *sim_workload_result(void)
{
	return last_done ? &last : NULL;
}

/* See sim_wl.h. */
void sim_workload_result_clear(void)
{
	last_done = 0;
}

/* Fills bench_entries[] from kernel/bench's registry (once). */
static void bench_entries_init(void)
{
	if (nbench >= 0)
		return;
	nbench = 0;
	for (int i = 0; i < bench_wl_count() && nbench < SIM_BENCH_WL_MAX; i++) {
		const struct bench_wl *bw = bench_wl_at(i);
		bench_entries[nbench++] = (struct sim_workload){ .name = bw->name, .unit = bw->unit,
			.decimals = bw->decimals, .what = bw->descr, .run = bench_entry_run, .ctx = bw };
	}
}

/* See sim_wl.h. */
int sim_workload_count(void)
{
	int n = 0;
	bench_entries_init();
	while (sim_test_workloads[n])
		n++;
	return nbench + n;
}

/* See sim_wl.h. */
const struct sim_workload *sim_workload_at(int i)
{
	bench_entries_init();
	return i < nbench ? &bench_entries[i] : sim_test_workloads[i - nbench];
}

/* See sim_wl.h. */
const struct sim_workload *sim_workload_find(const char *name)
{
	for (int i = 0; i < sim_workload_count(); i++)
		if (!strcmp(sim_workload_at(i)->name, name))
			return sim_workload_at(i);
	return NULL;
}

/* See sim_wl.h. */
const struct bench_wl *sim_workload_bench(const struct sim_workload *w)
{
	return w->run == bench_entry_run ? w->ctx : NULL;
}
