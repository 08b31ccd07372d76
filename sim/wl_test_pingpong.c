/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_test_pingpong.c — schedsim's test workload "test-pingpong": N/2
 * pairs of threads (at least one pair) pass a token over two channels;
 * each side does 20 us of CPU work per message. The sample is round trips
 * per second of all pairs, two decimals. Written against
 * kernel/bench/bench_rt.h only; it exercises blocking, wake-ups across
 * CPUs and the stop waking channel waiters.
 */
#include <bench/bench_rt.h>
#include <sim/sim_wl.h>

#define TEST_PP_WORK_NS 20000ull
#define TEST_PP_MAX_PAIRS 2048

struct test_pp_pair {
	struct brt_chan *ping, *pong;
	struct brt_thread *a, *b;
	uint64_t trips;
};

/* One side of a pair: work, send, wait for the answer; counts round trips. */
static void test_pp_ping(void *arg)
{
	struct test_pp_pair *p = arg;
	uint64_t msg = 0;
	while (!brt_stopping()) {
		brt_work(TEST_PP_WORK_NS);
		if (brt_chan_send(p->ping, msg) || brt_chan_recv(p->pong, &msg))
			break;
		p->trips++;
	}
	brt_chan_close(p->ping);
}

/* The other side: answer every message after its work. */
static void test_pp_pong(void *arg)
{
	struct test_pp_pair *p = arg;
	uint64_t msg;
	while (brt_chan_recv(p->ping, &msg) == 0) {
		brt_work(TEST_PP_WORK_NS);
		if (brt_chan_send(p->pong, msg + 1))
			break;
	}
}

/* Round trips per second x100; -1 without memory. */
static int64_t test_pp_run(const struct sim_workload *wl, const struct sim_wl_args *a)
{
	(void)wl;
	int n = a->threads / 2 > 0 ? a->threads / 2 : 1, ok = 1;
	n = n < TEST_PP_MAX_PAIRS ? n : TEST_PP_MAX_PAIRS;
	struct test_pp_pair *p = brt_calloc((size_t)n, sizeof(*p));
	if (!p)
		return -1;
	for (int i = 0; i < n; i++) {
		p[i].ping = brt_chan_new(1);
		p[i].pong = brt_chan_new(1);
		p[i].a = p[i].ping && p[i].pong ? brt_spawn("ping", test_pp_ping, &p[i]) : 0;
		p[i].b = p[i].a ? brt_spawn("pong", test_pp_pong, &p[i]) : 0;
		ok &= p[i].b != 0;
	}
	uint64_t trips = 0;
	for (int i = 0; i < n; i++) {
		if (p[i].a)
			brt_join(p[i].a, 0);
		if (p[i].b)
			brt_join(p[i].b, 0);
		trips += p[i].trips;
		brt_chan_free(p[i].ping);
		brt_chan_free(p[i].pong);
	}
	brt_free(p);
	return ok ? (int64_t)(trips * 100ull * 1000000000ull / a->duration_ns) : -1;
}

const struct sim_workload sim_wl_test_pingpong = {
	.name = "test-pingpong",
	.unit = "round trips/s",
	.decimals = 2,
	.what = "TEST workload: N/2 thread pairs passing a token over channels, 20 us work per message",
	.run = test_pp_run,
};
