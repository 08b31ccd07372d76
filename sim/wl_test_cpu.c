/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_test_cpu.c — schedsim's test workload "test-cpu", a stand-in for the
 * benchmark cpu workload (sysbench cpu: N threads each doing fixed-size
 * events of CPU work until the time is up; the sample is events per
 * second, two decimals). Written against kernel/bench/bench_rt.h only.
 * Each event is 1 ms of lone P-core work (brt_work); an event cut short
 * by the stop is not counted.
 */
#include <bench/bench_rt.h>
#include <sim/sim_wl.h>

#define TEST_CPU_EVENT_NS 1000000ull
#define TEST_CPU_MAX 4096

struct test_cpu_worker {
	struct brt_thread *t;
	uint64_t events;
};

/* One worker: 1 ms events until the stop; counts the whole ones. */
static void test_cpu_worker(void *arg)
{
	struct test_cpu_worker *w = arg;
	while (!brt_stopping()) {
		brt_work(TEST_CPU_EVENT_NS);
		if (brt_stopping())
			break;
		w->events++;
	}
}

/* Events per second of all workers over the run, x100; -1 without memory. */
static int64_t test_cpu_run(const struct sim_workload *wl, const struct sim_wl_args *a)
{
	(void)wl;
	int n = a->threads < TEST_CPU_MAX ? a->threads : TEST_CPU_MAX;
	struct test_cpu_worker *w = brt_calloc((size_t)n, sizeof(*w));
	if (!w)
		return -1;
	int started = 0;
	for (int i = 0; i < n; i++) {
		w[i].t = brt_spawn("cpu", test_cpu_worker, &w[i]);
		started += w[i].t != 0;
	}
	uint64_t events = 0;
	for (int i = 0; i < n; i++)
		if (w[i].t) {
			brt_join(w[i].t, 0);
			events += w[i].events;
		}
	brt_free(w);
	if (started < n)
		return -1;
	return (int64_t)(events * 100ull * 1000000000ull / a->duration_ns);
}

const struct sim_workload sim_wl_test_cpu = {
	.name = "test-cpu",
	.unit = "events/s",
	.decimals = 2,
	.what = "TEST workload: N threads of 1 ms CPU events (sysbench cpu-like)",
	.run = test_cpu_run,
};
