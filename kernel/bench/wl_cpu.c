/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_cpu.c — `cpu`: sysbench's CPU test, the workload of the seed report's
 * tables ("Integration Strategy for hmp(4) & sched_ule(4) / Performance
 * Improvement Report for intelhfi(4) Usage", sysbench 1.0.20 cpu at 4..20
 * threads).
 *
 * sysbench's event is one pass of trial division over 3..max-prime (for
 * every c, divide by 2, 3, ... up to sqrt(c) until a divisor is found).
 * Here an event is brt_work(W) with W proportional to the number of trial
 * divisions that pass does (117526 for max-prime 10000; the count and the
 * anchor are in include/mosaic/sysbench_cost.h, shared with user sysbench),
 * anchored so that one thread alone on a P-core does the report's rate:
 * its hmp kernel's median at 4 threads on the i7-1370P, 32763675.47
 * events/s, is 8190918.87 per thread, so W(10000) = 10^9 / 8190918.87 ns
 * = 122.086 ns. (The report does not give its --cpu-max-prime; 117526
 * divisions cannot take 122 ns on any CPU, so the anchor gives the report's
 * scale, not a claim about one instruction's cost.)
 *
 * It starts as sysbench starts: the workload's main thread (sysbench's,
 * created by the shell) creates the threads one by one; each, once it
 * runs, waits at a start barrier of threads + 1 parties, the main thread
 * the last party once it has created them all; the last to arrive starts
 * the clock and every thread goes at once.
 * Threads run events back to back until --time passes or --events are
 * done, whichever comes first. Events are done in batches of about 1 ms
 * of work (brt_work() has a granularity of a few microseconds); only
 * whole batches count. The result is sysbench's "events per second":
 * events / (the last thread's end - the start at the barrier).
 * Check: the events summed over the threads equal the shared counter (and
 * --events when that limit ended the run).
 */
#include <bench/bench_wl.h>
#include <bench/bench_stats.h>
#include <bench/bench_barrier.h>
#include <mosaic/sysbench_cost.h>

enum { O_MAX_PRIME, O_TIME, O_EVENTS, O_N };

static const struct bench_wl_opt cpu_opts[O_N] = {
	[O_MAX_PRIME] = { "max-prime", "", 100, 100000, 10000,
			  "primes are verified up to this number (sysbench --cpu-max-prime)" },
	[O_TIME] = { "time", "s", 0, 3600, 10, "run time limit (0: none)" },
	[O_EVENTS] = { "events", "", 0, 1000000000000ull, 0, "event limit (0: none)" },
};

enum { X_PER_THREAD, X_EVENTS, X_N };

static const struct bench_wl_extra cpu_extras[X_N] = {
	[X_PER_THREAD] = { "per thread", "events/s", 2, BENCH_BASIS_WORK },
	[X_EVENTS] = { "events", "events", 0, BENCH_BASIS_WORK },
};

struct cpu_run;

struct cpu_thread {
	struct cpu_run *r;
	struct brt_thread *t;
	uint64_t events;      /* whole batches done (this thread's count) */
	uint64_t end_ns;      /* when it stopped */
};

struct cpu_run {
	uint64_t cost_ps;     /* one event's work, picoseconds of P-core work */
	uint64_t batch;       /* events per brt_work() call */
	uint64_t time_ns;     /* --time (0: none) */
	uint64_t start_ns;    /* the clock's start: every thread has started */
	uint64_t end_ns;      /* time limit (0: none), set with start_ns */
	uint64_t limit;       /* event limit (0: none) */
	uint64_t claimed;     /* events handed out under the limit (atomic) */
	uint64_t counted;     /* events done, all threads (atomic): the shared count */
	struct bench_barrier start;   /* threads + 1 parties: the threads and the main thread */
	struct cpu_thread th[];
};

/* The start barrier's last party: the clock starts. */
static void cpu_started(void *arg)
{
	struct cpu_run *r = arg;
	r->start_ns = brt_now();
	r->end_ns = r->time_ns ? r->start_ns + r->time_ns : 0;
}

/* One sysbench thread: the start barrier, then batches of events until a
 * limit or a stop (none when a thread could not start). */
static void cpu_thread_main(void *arg)
{
	struct cpu_thread *th = arg;
	struct cpu_run *r = th->r;
	uint64_t owed_ps = 0;
	if (bench_barrier_wait(&r->start)) {
		th->end_ns = brt_now();
		return;
	}
	for (;;) {
		if (brt_stopping())
			break;
		if (r->end_ns && brt_now() >= r->end_ns)
			break;
		uint64_t n = r->batch;
		if (r->limit) {
			uint64_t first = __atomic_fetch_add(&r->claimed, r->batch, __ATOMIC_RELAXED);
			if (first >= r->limit)
				break;
			if (r->limit - first < n)
				n = r->limit - first;
		}
		owed_ps += n * r->cost_ps;
		brt_work(owed_ps / 1000);
		owed_ps %= 1000;
		if (brt_stopping())
			break;   /* the batch may be cut short: not counted */
		th->events += n;
		__atomic_fetch_add(&r->counted, n, __ATOMIC_RELAXED);
	}
	th->end_ns = brt_now();
}

/* See bench_wl.h. */
static int cpu_check(const uint64_t *opt, int threads, char *err, size_t len)
{
	(void)threads;
	if (opt[O_TIME] == 0 && opt[O_EVENTS] == 0) {
		bench_errf(err, len, "cpu: --time 0 and --events 0: the run would never end");
		return -1;
	}
	return 0;
}

/* See bench_wl.h. */
static void cpu_run(const uint64_t *opt, int threads, struct bench_result *res)
{
	struct cpu_run *r = brt_calloc(1, sizeof(*r) + (size_t)threads * sizeof(r->th[0]));
	if (!r) {
		bench_check(res, 0, "no memory for %d threads", threads);
		return;
	}
	r->cost_ps = (uint64_t)bench_muldiv(100000000000000ull, sysbench_divisions(opt[O_MAX_PRIME]),
					    SYSBENCH_ANCHOR_RATE_X100 * SYSBENCH_ANCHOR_DIVS);
	r->batch = SYSBENCH_BATCH_PS / r->cost_ps;
	if (r->batch < 1)
		r->batch = 1;
	r->limit = opt[O_EVENTS];
	r->time_ns = opt[O_TIME] * 1000000000ull;
	if (bench_barrier_init(&r->start, (unsigned)threads + 1, cpu_started, r)) {
		bench_check(res, 0, "no memory for the start barrier");
		brt_free(r);
		return;
	}
	r->start_ns = brt_now();   /* the clock, unless every thread starts */
	int started = 0;
	for (; started < threads; started++) {
		r->th[started].r = r;
		r->th[started].t = brt_spawn("cpu", cpu_thread_main, &r->th[started]);
		if (!r->th[started].t) {
			bench_barrier_cancel(&r->start);
			break;
		}
	}
	if (started == threads)
		bench_barrier_wait(&r->start);
	uint64_t sum = 0, end = 0;
	for (int i = 0; i < started; i++) {
		bench_join(r->th[i].t, res);
		sum += r->th[i].events;
		if (r->th[i].end_ns > end)
			end = r->th[i].end_ns;
	}
	uint64_t start = r->start_ns;   /* read once every thread is joined */
	if (end < start)
		end = start;
	res->aborted = brt_stopping();
	uint64_t counted = __atomic_load_n(&r->counted, __ATOMIC_RELAXED);
	uint64_t elapsed = end - start;
	res->value = elapsed ? bench_muldiv(counted, 100ull * 1000000000ull, elapsed) : 0;
	res->extra[X_PER_THREAD] = res->value / threads;
	res->extra[X_EVENTS] = (int64_t)counted;
	if (started < threads)
		bench_check(res, 0, "only %d of %d threads started", started, threads);
	else if (r->limit && !res->aborted && counted != r->limit)
		bench_check(res, 0, "events %lu, limit %lu", counted, r->limit);
	else
		bench_check(res, sum == counted, "events %lu = sum over %d threads %lu", counted,
			    threads, sum);
	bench_barrier_free(&r->start);
	brt_free(r);
}

const struct bench_wl bench_wl_cpu = {
	.name = "cpu",
	.descr = "sysbench cpu: prime verification events back to back, per thread",
	.seed = "the seed report's sysbench cpu tables (i7-1370P, Core Ultra 7 155H)",
	.unit = "events/s",
	.per_joule = "events/J",
	.decimals = 2,
	.higher_is_better = 1,
	.basis = BENCH_BASIS_WORK,
	.threads_means = "threads",
	.threads_min = 1,
	.threads_max = 256,
	.threads_def = 4,
	.nopts = O_N,
	.opts = cpu_opts,
	.nextra = X_N,
	.extras = cpu_extras,
	.check = cpu_check,
	.run = cpu_run,
};
