/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_bench.c — the bench stressor: short runs of the `bench`
 * workloads (kernel/bench/bench_wl.h: cpu, make, pgbench, hackbench,
 * schbench, frames) with 2..4 threads and about a second of work each, one
 * at a time (the benchmark runtime has one run's state), called directly,
 * without the `bench` command's policy switching (the knobs stressor owns
 * the switches). A run whose own check fails is a violation.
 */
#include <kern/printk.h>
#include <bench/bench_wl.h>
#include <bench/bench_rt_kernel.h>
#include <torture/torture_int.h>

struct bench_case {
	const char *workload;
	const char *opt[3][2];   /* NAME, VALUE; NULL name: no more */
};

static const struct bench_case cases[] = {
	{ "cpu", { { "time", "1" }, { "max-prime", "2000" } } },
	{ "make", { { "jobs", "8" }, { "job-ms", "5" }, { "link-ms", "5" } } },
	{ "pgbench", { { "time", "1" } } },
	{ "hackbench", { { "fds", "4" }, { "loops", "5" } } },
	{ "schbench", { { "time", "1" } } },
	{ "frames", { { "time", "1" } } },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static int running;   /* 1 while a run is on (atomic) */

/* See torture_int.h. */
void torture_bench_op(struct torture_pass *p, uint64_t *rng)
{
	int free = 0;
	if (!__atomic_compare_exchange_n(&running, &free, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	unsigned k = (unsigned)(torture_rand(rng) % NCASES);
	const struct bench_case *c = &cases[k];
	const struct bench_wl *wl = bench_wl_find(c->workload);
	uint64_t opt[BENCH_WL_OPT_MAX];
	char err[128];
	int threads = 2 + (int)(torture_rand(rng) % 3);
	if (!wl) {
		torture_fail(p, "a bench workload is missing (case)", (long)k, 0);
		goto out;
	}
	bench_wl_defaults(wl, opt);
	for (int i = 0; i < 3 && c->opt[i][0]; i++)
		if (bench_wl_set_opt(wl, opt, c->opt[i][0], c->opt[i][1], err, sizeof(err))) {
			printk("torture: bench %s: %s\n", c->workload, err);
			torture_fail(p, "a bench case's options were refused (case)", (long)k, 0);
			goto out;
		}
	if (bench_wl_check_threads(wl, threads, err, sizeof(err)) ||
	    (wl->check && wl->check(opt, threads, err, sizeof(err)))) {
		torture_count(p, TOP_BENCH, -1);   /* this shape is not allowed: nothing runs */
		goto out;
	}
	static struct bench_result res;
	res = (struct bench_result){ 0 };
	brt_kernel_begin();
	wl->run(opt, threads, &res);
	if (!res.aborted && !res.check_ok) {
		printk("torture: bench %s with %d threads: check failed: %s\n", c->workload, threads, res.check);
		torture_fail(p, "a bench run's check failed (case, threads)", (long)k, threads);
	}
	if (brt_kernel_live())
		torture_fail(p, "a bench run left threads (case, live)", (long)k, brt_kernel_live());
	torture_count(p, TOP_BENCH, (int64_t)k);
out:
	__atomic_store_n(&running, 0, __ATOMIC_RELEASE);
}
