/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests of the benchmark workloads (kernel/bench/wl_*.c, bench_wl.c,
 * bench_hist.c) on the POSIX-thread runtime tests/unit/bench_rt_host.c:
 * the registry's descriptors, option parsing and its refusals, the latency
 * histogram against a sorted-array model, the start barrier (nobody
 * leaves before the last arrives and its function ran; a cancel or a stop
 * lets every party go), every workload run small with its conservation
 * check passing and every thread joined and every byte freed, and a stop
 * in the middle of each ending it cleanly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <cmocka.h>
#include <bench/bench_wl.h>
#include <bench/bench_barrier.h>
#include <bench/bench_hist.h>
#include <bench/bench_stats.h>
#include <tests/unit/bench_rt_host.h>

/* ---- descriptors ---- */

static void test_registry_descriptors(void **state)
{
	(void)state;
	assert_int_equal(bench_wl_count(), 7);
	for (int i = 0; i < bench_wl_count(); i++) {
		const struct bench_wl *wl = bench_wl_at(i);
		uint64_t opt[BENCH_WL_OPT_MAX];
		char err[200];
		assert_non_null(wl->name);
		assert_ptr_equal(bench_wl_find(wl->name), wl);
		for (int k = 0; k < i; k++)
			assert_string_not_equal(bench_wl_at(k)->name, wl->name);
		assert_true(wl->descr && wl->seed && wl->unit && wl->unit[0] && wl->threads_means);
		assert_true(wl->decimals >= 0 && wl->decimals <= 6);
		/* a figure per joule only for rates per second (events/s, fps, tps, ...) */
		assert_true(!wl->per_joule || (strstr(wl->per_joule, "/J") && wl->higher_is_better));
		assert_true(wl->threads_min >= 1 && wl->threads_min <= wl->threads_def &&
			    wl->threads_def <= wl->threads_max && wl->threads_max <= BENCH_WL_THREADS_MAX);
		assert_true(wl->nopts <= BENCH_WL_OPT_MAX && wl->nextra <= BENCH_WL_EXTRA_MAX &&
			    wl->nlat <= BENCH_WL_LAT_MAX);
		assert_non_null(wl->run);
		for (int k = 0; k < wl->nopts; k++) {
			assert_true(wl->opts[k].min <= wl->opts[k].def && wl->opts[k].def <= wl->opts[k].max);
			assert_int_equal(bench_wl_opt_index(wl, wl->opts[k].name), k);
		}
		bench_wl_defaults(wl, opt);
		assert_true(!wl->check || wl->check(opt, wl->threads_def, err, sizeof(err)) == 0);
	}
	assert_null(bench_wl_find("sysbench"));
	assert_null(bench_wl_at(7));
	assert_null(bench_wl_at(-1));
}

static void test_option_refusals(void **state)
{
	(void)state;
	const struct bench_wl *wl = bench_wl_find("cpu");
	uint64_t opt[BENCH_WL_OPT_MAX];
	char err[200];
	bench_wl_defaults(wl, opt);
	assert_int_equal(bench_wl_set_opt(wl, opt, "time", "0", err, sizeof(err)), 0);
	assert_int_equal(opt[1], 0);
	assert_int_equal(bench_wl_set_opt(wl, opt, "time", "3601", err, sizeof(err)), -1);
	assert_string_equal(err, "--time: 3601 is outside 0..3600");
	assert_int_equal(opt[1], 0);   /* untouched */
	assert_int_equal(bench_wl_set_opt(wl, opt, "max-prime", "-5", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--max-prime"));
	assert_non_null(strstr(err, "100..100000"));
	assert_int_equal(bench_wl_set_opt(wl, opt, "max-prime", "99999999999999999999999", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--max-prime"));
	assert_int_equal(bench_wl_set_opt(wl, opt, "max-prime", "", err, sizeof(err)), -1);
	assert_int_equal(bench_wl_set_opt(wl, opt, "primes", "5", err, sizeof(err)), -1);
	assert_string_equal(err, "cpu: no option --primes");
	assert_int_equal(bench_wl_check_threads(wl, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "0 is outside 1..256"));
	assert_int_equal(bench_wl_check_threads(wl, 257, err, sizeof(err)), -1);
	assert_int_equal(bench_wl_check_threads(wl, 256, err, sizeof(err)), 0);
	/* cross-option checks */
	opt[1] = 0;
	opt[2] = 0;
	assert_int_equal(wl->check(opt, 4, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "never end"));
	wl = bench_wl_find("hackbench");
	bench_wl_defaults(wl, opt);
	assert_int_equal(wl->check(opt, 25, err, sizeof(err)), 0);      /* 25 x 2 x 20 = 1000 */
	assert_int_equal(wl->check(opt, 26, err, sizeof(err)), -1);     /* 1040 threads */
	assert_non_null(strstr(err, "1040 threads"));
	wl = bench_wl_find("schbench");
	bench_wl_defaults(wl, opt);
	opt[1] = 4;
	assert_int_equal(wl->check(opt, 3, err, sizeof(err)), -1);
	assert_int_equal(wl->check(opt, 4, err, sizeof(err)), 0);
	wl = bench_wl_find("frames");
	bench_wl_defaults(wl, opt);
	opt[4] = 3;
	assert_int_equal(wl->check(opt, 2, err, sizeof(err)), -1);
	assert_int_equal(wl->check(opt, 3, err, sizeof(err)), 0);
}

/* ---- histogram ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The histogram's percentiles against the exact nearest-rank ones. */
static void test_hist_against_model(void **state)
{
	(void)state;
	static struct bench_hist h, part;
	static uint64_t v[5000];
	uint64_t x = 88172645463325252ull;
	for (int round = 0; round < 20; round++) {
		memset(&h, 0, sizeof(h));
		memset(&part, 0, sizeof(part));
		int n = 1 + round * 250;
		for (int i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			int bits = (int)(x % 40);
			v[i] = (x >> 20) & ((1ull << bits) - 1);
			bench_hist_add(i % 2 ? &part : &h, v[i]);
		}
		bench_hist_merge(&h, &part);
		assert_int_equal(h.n, (uint64_t)n);
		qsort(v, (size_t)n, sizeof(v[0]), cmp_u64);
		static const unsigned pm[] = { 1, 500, 900, 990, 999, 1000 };
		for (size_t k = 0; k < sizeof(pm) / sizeof(pm[0]); k++) {
			uint64_t rank = ((uint64_t)n * pm[k] + 999) / 1000;
			uint64_t want = v[rank - 1];
			int64_t got = bench_hist_pct(&h, pm[k]);
			uint64_t diff = (uint64_t)got > want ? (uint64_t)got - want : want - (uint64_t)got;
			if (want < 32)
				assert_int_equal(got, (int64_t)want);
			else
				assert_true(diff * 64 <= want);
			assert_true((uint64_t)got <= v[n - 1]);
		}
	}
	memset(&h, 0, sizeof(h));
	int64_t p[4];
	bench_hist_pcts(&h, p);
	assert_int_equal(p[0], -1);
	assert_int_equal(p[3], -1);
	bench_hist_add(&h, 1ull << 50);   /* beyond the range: counted as the largest value */
	assert_true((uint64_t)bench_hist_pct(&h, 500) >= ((1ull << 40) - 1) / 64 * 63);
	assert_int_equal(bench_hist_pct(&h, 0), -1);
	assert_int_equal(bench_hist_pct(&h, 1001), -1);
}

/* ---- the start barrier ---- */

struct barrier_party {
	struct bench_barrier *b;
	int *last_ran;        /* set by the barrier's function (atomic) */
	int rc;               /* what its wait returned */
	int saw_last;         /* last_ran was set when its wait returned */
	struct brt_thread *t;
};

static void barrier_last(void *arg)
{
	int *ran = arg;
	struct timespec ts = { 0, 20000000 };   /* 20 ms: a party leaving early would see 0 */
	nanosleep(&ts, NULL);
	__atomic_add_fetch(ran, 1, __ATOMIC_ACQ_REL);
}

static void barrier_party_main(void *arg)
{
	struct barrier_party *p = arg;
	p->rc = bench_barrier_wait(p->b);
	p->saw_last = __atomic_load_n(p->last_ran, __ATOMIC_ACQUIRE);
}

/* Starts n parties of b on the host runtime. */
static void barrier_spawn(struct barrier_party *p, int n, struct bench_barrier *b, int *ran)
{
	for (int i = 0; i < n; i++) {
		p[i] = (struct barrier_party){ .b = b, .last_ran = ran, .rc = 7 };
		p[i].t = brt_spawn("party", barrier_party_main, &p[i]);
		assert_non_null(p[i].t);
	}
}

static void test_barrier_holds_until_the_last(void **state)
{
	(void)state;
	struct bench_barrier b;
	struct barrier_party p[5];
	int ran = 0;
	long bytes = brt_host_bytes();
	brt_host_begin();
	assert_int_equal(bench_barrier_init(&b, 6, barrier_last, &ran), 0);
	barrier_spawn(p, 5, &b, &ran);
	struct timespec ts = { 0, 30000000 };
	nanosleep(&ts, NULL);
	for (int i = 0; i < 5; i++)   /* nobody has left: the sixth party has not come */
		assert_int_equal(__atomic_load_n(&p[i].rc, __ATOMIC_ACQUIRE), 7);
	assert_int_equal(bench_barrier_wait(&b), 0);
	assert_int_equal(ran, 1);
	for (int i = 0; i < 5; i++) {
		brt_join(p[i].t, NULL);
		assert_int_equal(p[i].rc, 0);
		assert_int_equal(p[i].saw_last, 1);   /* the function ran before anyone left */
	}
	bench_barrier_free(&b);
	assert_int_equal(brt_host_channels(), 0);
	assert_int_equal(brt_host_bytes(), bytes);
}

static void test_barrier_cancel_and_stop_release(void **state)
{
	(void)state;
	struct bench_barrier b;
	struct barrier_party p[3];
	int ran = 0;
	brt_host_begin();
	/* a party that will never come: the waiting ones and a later one leave with -1 */
	assert_int_equal(bench_barrier_init(&b, 5, barrier_last, &ran), 0);
	barrier_spawn(p, 3, &b, &ran);
	bench_barrier_cancel(&b);
	for (int i = 0; i < 3; i++) {
		brt_join(p[i].t, NULL);
		assert_int_equal(p[i].rc, -1);
	}
	assert_int_equal(bench_barrier_wait(&b), -1);
	assert_int_equal(ran, 0);
	bench_barrier_free(&b);
	/* a stop of the run wakes the waiters */
	assert_int_equal(bench_barrier_init(&b, 4, barrier_last, &ran), 0);
	barrier_spawn(p, 3, &b, &ran);
	brt_host_stop();
	for (int i = 0; i < 3; i++) {
		brt_join(p[i].t, NULL);
		assert_int_equal(p[i].rc, -1);
	}
	assert_int_equal(ran, 0);
	bench_barrier_free(&b);
	brt_host_begin();
	assert_int_equal(brt_host_channels(), 0);
}

/* ---- running the workloads on the host runtime ---- */

struct run_arg {
	const struct bench_wl *wl;
	uint64_t opt[BENCH_WL_OPT_MAX];
	int threads;
	struct bench_result res;
};

static void *run_thread(void *p)
{
	struct run_arg *a = p;
	a->wl->run(a->opt, a->threads, &a->res);
	return NULL;
}

/* Runs wl with the options "name=value" (NULL-terminated) at threads; a
 * stop after stop_ms (0: none). */
static void run_wl(struct run_arg *a, const char *name, int threads, unsigned stop_ms, ...)
{
	char err[200];
	va_list ap;
	memset(a, 0, sizeof(*a));
	a->wl = bench_wl_find(name);
	assert_non_null(a->wl);
	bench_wl_defaults(a->wl, a->opt);
	va_start(ap, stop_ms);
	for (const char *k; (k = va_arg(ap, const char *));) {
		const char *v = va_arg(ap, const char *);
		assert_int_equal(bench_wl_set_opt(a->wl, a->opt, k, v, err, sizeof(err)), 0);
	}
	va_end(ap);
	a->threads = threads;
	assert_true(!a->wl->check || a->wl->check(a->opt, threads, err, sizeof(err)) == 0);
	long bytes = brt_host_bytes();
	brt_host_begin();
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, run_thread, a), 0);
	if (stop_ms) {
		struct timespec ts = { stop_ms / 1000, (long)(stop_ms % 1000) * 1000000 };
		nanosleep(&ts, NULL);
		brt_host_stop();
	}
	pthread_join(t, NULL);
	brt_host_begin();
	assert_int_equal(brt_host_live(), 0);
	assert_int_equal(brt_host_channels(), 0);
	assert_int_equal(brt_host_bytes(), bytes);
	if (!a->res.check_ok)
		print_message("check: %s\n", a->res.check);
}

/* A completed run: a sample whose check passed, with a positive value. */
static void assert_sample(const struct run_arg *a, unsigned threads)
{
	assert_false(a->res.aborted);
	assert_true(a->res.check_ok);
	assert_true(a->res.value > 0);
	assert_int_equal(a->res.place.nthreads, threads);
}

static void test_cpu_runs(void **state)
{
	(void)state;
	struct run_arg a;
	run_wl(&a, "cpu", 3, 0, "events", "300000", "time", "0", NULL);
	assert_sample(&a, 3);
	assert_int_equal(a.res.extra[1], 300000);
	assert_int_equal(a.res.extra[0], a.res.value / 3);
	run_wl(&a, "cpu", 2, 0, "time", "1", "max-prime", "100", NULL);
	assert_sample(&a, 2);
	/* work: events x cost; cost(100) = 10^14 x 235 / (819091887 x 117526) ps = 244 ps */
	/* (each thread may owe less than 1 ns of its last batch) */
	assert_true(a.res.place.work_ns + 2 >= (uint64_t)a.res.extra[1] * 244 / 1000);
	assert_true(a.res.place.work_ns <= (uint64_t)a.res.extra[1] * 244 / 1000);
}

static void test_make_runs(void **state)
{
	(void)state;
	struct run_arg a;
	run_wl(&a, "make", 3, 0, "jobs", "25", "job-ms", "20", "link-ms", "10", NULL);
	assert_sample(&a, 26);   /* 25 jobs and the link */
	/* serial work: the same every run (seeded lengths) */
	int64_t serial = a.res.extra[1];
	run_wl(&a, "make", 1, 0, "jobs", "25", "job-ms", "20", "link-ms", "10", NULL);
	assert_sample(&a, 26);
	assert_int_equal(a.res.extra[1], serial);
	assert_true(serial >= 25 * 20 / 4 * 10 && serial <= (25 * 20 * 7 / 4 + 10) * 10);
}

static void test_pgbench_runs(void **state)
{
	(void)state;
	struct run_arg a;
	run_wl(&a, "pgbench", 3, 0, "time", "1", NULL);
	assert_sample(&a, 7);   /* 3 clients, a backend for each, the postmaster */
	assert_true(a.res.extra[0] > 0);
	assert_true(a.res.lat[0][0] > 0 && a.res.lat[0][0] <= a.res.lat[0][1] &&
		    a.res.lat[0][1] <= a.res.lat[0][2] && a.res.lat[0][2] <= a.res.lat[0][3]);
}

static void test_hackbench_runs(void **state)
{
	(void)state;
	struct run_arg a;
	run_wl(&a, "hackbench", 2, 0, "fds", "5", "loops", "40", NULL);
	assert_sample(&a, 20);
	assert_int_equal(a.res.extra[0], 2 * 5 * 5 * 40);
}

static void test_schbench_runs(void **state)
{
	(void)state;
	struct run_arg a;
	run_wl(&a, "schbench", 5, 0, "time", "1", "message-threads", "2", NULL);
	assert_sample(&a, 7);
	for (int l = 0; l < 2; l++)
		assert_true(a.res.lat[l][0] >= 0 && a.res.lat[l][0] <= a.res.lat[l][3]);
	/* a request's latency includes its wake-up */
	assert_true(a.res.lat[1][0] >= a.res.lat[0][0]);
}

static void test_frames_runs(void **state)
{
	(void)state;
	struct run_arg a;
	/* 2 renderers, 1 hog; 1 ms of work and 20 ms of wait: about 45 fps each */
	run_wl(&a, "frames", 3, 0, "time", "2", "renderers", "2", "frame-us", "1000", "wait-us", "20000", NULL);
	assert_sample(&a, 4);   /* 2 renderers, the hogs' parent, 1 hog */
	assert_true(a.res.extra[0] <= a.res.value / 100 && a.res.value / 100 <= a.res.extra[1] + 1);
	assert_true(a.res.extra[4] > 0 && a.res.extra[3] <= a.res.extra[4]);
}

/* A stop in the middle ends every workload, joins every thread, frees all. */
static void test_stop_ends_each_workload(void **state)
{
	(void)state;
	struct run_arg a;
	static const char *const names[] = { "cpu", "make", "pgbench", "hackbench", "schbench", "frames" };
	static const int threads[] = { 3, 2, 2, 1, 3, 2 };
	for (int i = 0; i < 6; i++) {
		if (strcmp(names[i], "make") == 0)
			run_wl(&a, names[i], threads[i], 150, "jobs", "4000", "job-ms", "1000", NULL);
		else if (strcmp(names[i], "hackbench") == 0)
			run_wl(&a, names[i], threads[i], 150, "loops", "100000", NULL);
		else
			run_wl(&a, names[i], threads[i], 150, "time", "100", NULL);
		assert_true(a.res.aborted);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_descriptors),
		cmocka_unit_test(test_option_refusals),
		cmocka_unit_test(test_hist_against_model),
		cmocka_unit_test(test_barrier_holds_until_the_last),
		cmocka_unit_test(test_barrier_cancel_and_stop_release),
		cmocka_unit_test(test_cpu_runs),
		cmocka_unit_test(test_make_runs),
		cmocka_unit_test(test_pgbench_runs),
		cmocka_unit_test(test_hackbench_runs),
		cmocka_unit_test(test_schbench_runs),
		cmocka_unit_test(test_frames_runs),
		cmocka_unit_test(test_stop_ends_each_workload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
