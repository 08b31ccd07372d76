/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_sweep.c — running a sweep: one run (its seed, its sample, cost and
 * trace), schedsim's own loop, and the same plan through kernel/bench's
 * driver (bench_drv.c) with the simulator as its platform, so that a
 * benchmark workload prints what the kernel's `bench sweep` prints.
 */
#include <stdlib.h>
#include <string.h>
#include <bench/bench_drv.h>
#include <sim/sim_report.h>

/* See sim_report.h. */
uint64_t sim_run_seed(uint64_t seed, int threads, int r)
{
	uint64_t s = seed ^ ((uint64_t)threads << 32) ^ (uint64_t)r;
	sim_mix(&s);
	return sim_mix(&s);
}

/* See sim_report.h. */
int sim_sweep_one(struct sim_sweep *sw, int p, int c, int r)
{
	struct sim_config cfg = sw->base;
	cfg.policy = &sw->pol[p];
	cfg.threads = sw->threads[c];
	cfg.seed = sim_run_seed(sw->seed, sw->threads[c], r);
	cfg.trace = sw->trace != NULL;
	struct sim_result res;
	int rc = 0;
	if (sim_run(&cfg, &res) || res.value < 0 || res.value > BENCH_VALUE_MAX) {
		fprintf(stderr, "schedsim: policy %s, %d threads, run %d: no sample\n", sw->pol[p].name,
			sw->threads[c], r + 1);
		rc = -1;
	}
	*sim_sample(sw, p, c, r) = res.value < 0 ? 0 : res.value;
	for (int k = 0; k < SIM_COST_KINDS; k++) {
		uint64_t *to = &sw->cost[p][c][k].calls;
		const uint64_t *from = &res.cost[k].calls;
		for (size_t i = 0; i < sizeof(res.cost[k]) / sizeof(uint64_t); i++)
			to[i] += from[i];
	}
	sw->events += res.events;
	if (sw->trace && sw->trace_json)
		sim_trace_json_run(sw->trace, sw, p, c, r, &res, sw->trace_runs++ == 0);
	else if (sw->trace)
		sim_trace_write(sw->trace, sw, p, c, r, &res);
	free(res.seg);
	free(res.hfi);
	return rc;
}

/* See sim_report.h. */
int sim_sweep_own(struct sim_sweep *sw)
{
	int failed = 0;
	for (int r = 0; r < sw->runs; r++)
		for (int c = 0; c < sw->ncols; c++)
			for (int p = 0; p < sw->npol; p++)
				failed |= sim_sweep_one(sw, p, c, r) != 0;
	if (failed)
		return 1;
	return sim_report_tables(sw) ? 1 : 0;
}

/* ---- kernel/bench's driver on the simulator ---- */

/* The platform's state: the plan, the run index, the policy applied. */
struct drv_state {
	struct sim_sweep *sw;
	const struct bench_plan *pl;
	int next;          /* index of the next run, in the driver's order */
	int pol;           /* the policy apply() chose */
	int64_t hfi;       /* HFI publications of all runs so far */
};

/* bench_out callback: to stdout. */
static void out_vprintf(void *arg, const char *fmt, va_list ap)
{
	vfprintf(arg, fmt, ap);
}

/* bench_plat.apply: the policy is set by each run's boot (sim_run); here
 * only which one. */
static int drv_apply(void *arg, const char *name, char *err, size_t len)
{
	struct drv_state *st = arg;
	for (int p = 0; p < st->sw->npol; p++)
		if (!strcmp(st->sw->pol[p].name, name)) {
			st->pol = p;
			return 0;
		}
	snprintf(err, len, "unknown policy '%s'", name);
	return -1;
}

/* bench_plat.restore: every run boots with the kernel's defaults. */
static int drv_restore(void *arg, char *err, size_t len)
{
	(void)arg, (void)err, (void)len;
	return 0;
}

/* bench_plat.run: run number st->next of the plan, simulated; res is
 * what the workload filled in the simulation, with the machine's energy
 * over the run from its power model (emul_workclock_model.h, "Energy").
 * 1 (stop) when the run did not end. */
static int drv_run(void *arg, const struct bench_wl *wl, const uint64_t *opt, int threads,
		   struct bench_result *res)
{
	struct drv_state *st = arg;
	int sample, col, pol;
	(void)wl, (void)opt, (void)threads;
	bench_drv_run_pos(st->pl, st->next++, &sample, &col, &pol);
	sim_workload_result_clear();
	sim_sweep_one(st->sw, st->pol, col, sample);
	st->hfi += sim.publications;
	if (!sim_workload_result())
		return 1;
	*res = *sim_workload_result();
	res->elapsed_ns = sim.now - sim.t0;
	res->energy_uj = -1;
	if (sim.m->power.line) {   /* the model's energy, counted from the run's start */
		res->energy_uj = 0;
		for (unsigned p = 0; p < wc_packages(&sim.wc); p++)
			res->energy_uj += (int64_t)wc_energy_uj(&sim.wc, p, 0, sim.now);
	}
	return 0;
}

/* bench_plat.cpu_type: the core type the machine gives cpu. */
static int drv_cpu_type(void *arg, int cpu)
{
	struct drv_state *st = arg;
	return cpu < (int)st->sw->sm->m.cpu_count ? st->sw->sm->desc[cpu].core_type : 0;
}

/* bench_plat.hfi_updates: publications so far, -1 without HFI. */
static int64_t drv_hfi_updates(void *arg)
{
	struct drv_state *st = arg;
	return st->sw->sm->m.hfi_rows ? st->hfi : -1;
}

/* bench_plan_parse's question: is name a policy of the sweep? */
static int drv_known(void *arg, const char *name)
{
	struct sim_sweep *sw = arg;
	for (int p = 0; p < sw->npol; p++)
		if (!strcmp(sw->pol[p].name, name))
			return 1;
	return 0;
}

/* See sim_report.h. */
int sim_sweep_bench(struct sim_sweep *sw, int nwords, char *const *words)
{
	static struct bench_plan pl;
	static struct bench_data d;
	char err[200];
	if (bench_plan_parse(&pl, 1, nwords, words, drv_known, sw, err, sizeof(err))) {
		fprintf(stderr, "schedsim: %s\n", err);
		return 2;
	}
	if (bench_data_init(&d, &pl)) {
		fprintf(stderr, "schedsim: no memory\n");
		return 1;
	}
	struct drv_state st = { .sw = sw, .pl = &pl };
	struct bench_plat pf = { .arg = &st, .apply = drv_apply, .restore = drv_restore, .run = drv_run,
				 .cpu_type = drv_cpu_type, .hfi_updates = drv_hfi_updates, .work_clock = 1,
				 .simulated = 1 };
	struct bench_out o = { out_vprintf, stdout };
	bench_drv_run(&pl, &pf, &o, &d);
	bench_drv_report(&pl, &pf, &o, &d, 1);
	int rc = d.failed || d.stopped || d.done < d.total;
	bench_data_free(&d);
	return rc;
}
