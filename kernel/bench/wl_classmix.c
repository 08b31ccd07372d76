/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_classmix.c — `classmix`: CPU-bound threads of two Thread Director
 * classes at once (kernel/lib/itd_class.h): the even-numbered half
 * vector-heavy (ITD_VECTOR: on an E-core it runs further below a P-core
 * than scalar code does), the others scalar (ITD_SCALAR). With more
 * threads than P-cores somebody runs on E-cores; which class does decides
 * the throughput (hmp's kern.sched.hmp.itd; docs/hmp.md).
 *
 * Each thread does batches of --batch µs of its class's work (as long as
 * that on a lone P-core: brt_work_class) back to back until --time; an
 * event is one batch. The result: events per second over every thread,
 * from the start barrier (every thread started) to the last thread's end;
 * extras: the vector and scalar threads' events per second, and the share
 * of the vector threads' run time on P-cores against the scalar threads'.
 * Check: the events summed per thread equal the shared counter.
 */
#include <bench/bench_wl.h>
#include <bench/bench_barrier.h>
#include <bench/bench_stats.h>
#include <lib/itd_class.h>

enum { O_TIME, O_BATCH, O_N };

static const struct bench_wl_opt classmix_opts[O_N] = {
	[O_TIME] = { "time", "s", 1, 3600, 10, "run time" },
	[O_BATCH] = { "batch", "us", 10, 100000, 1000, "one event: this much P-core work of the thread's class" },
};

enum { X_VECTOR, X_SCALAR, X_VECTOR_P, X_SCALAR_P, X_N };

static const struct bench_wl_extra classmix_extras[X_N] = {
	[X_VECTOR] = { "vector", "events/s", 2, BENCH_BASIS_WORK },
	[X_SCALAR] = { "scalar", "events/s", 2, BENCH_BASIS_WORK },
	[X_VECTOR_P] = { "vector on P", "%", 1, BENCH_BASIS_WORK },
	[X_SCALAR_P] = { "scalar on P", "%", 1, BENCH_BASIS_WORK },
};

struct classmix_run;

struct classmix_thread {
	struct classmix_run *r;
	struct brt_thread *t;
	unsigned cls;
	uint64_t events;
};

struct classmix_run {
	uint64_t batch_ns, time_ns;
	uint64_t start_ns, end_ns;    /* the clock: set by the barrier's last party */
	uint64_t counted;             /* events of every thread (atomic) */
	struct bench_barrier start;
	struct classmix_thread th[];
};

/* The start barrier's last party: the clock starts. */
static void classmix_started(void *arg)
{
	struct classmix_run *r = arg;
	r->start_ns = brt_now();
	r->end_ns = r->start_ns + r->time_ns;
}

/* One thread: the barrier, then batches of its class's work until the end. */
static void classmix_thread_main(void *arg)
{
	struct classmix_thread *th = arg;
	struct classmix_run *r = th->r;
	if (bench_barrier_wait(&r->start))
		return;
	while (!brt_stopping() && brt_now() < r->end_ns) {
		brt_work_class(r->batch_ns, th->cls);
		if (brt_stopping())
			break;   /* cut short: not counted */
		th->events++;
		__atomic_fetch_add(&r->counted, 1, __ATOMIC_RELAXED);
	}
}

/* Adds st's run time on P-cores to *p and its run time to *run. */
static void p_share(const struct brt_thread_stats *st, uint64_t *p, uint64_t *run)
{
	*p += st->run_ns_type[1];   /* enum cpu_core_type: P */
	*run += st->run_ns;
}

/* See bench_wl.h. */
static void classmix_run(const uint64_t *opt, int threads, struct bench_result *res)
{
	struct classmix_run *r = brt_calloc(1, sizeof(*r) + (size_t)threads * sizeof(r->th[0]));
	if (!r) {
		bench_check(res, 0, "no memory for %d threads", threads);
		return;
	}
	r->batch_ns = opt[O_BATCH] * 1000;
	r->time_ns = opt[O_TIME] * 1000000000ull;
	if (bench_barrier_init(&r->start, (unsigned)threads + 1, classmix_started, r)) {
		bench_check(res, 0, "no memory for the start barrier");
		brt_free(r);
		return;
	}
	r->start_ns = brt_now();
	int started = 0;
	for (; started < threads; started++) {
		struct classmix_thread *th = &r->th[started];
		th->r = r;
		th->cls = started % 2 == 0 ? ITD_VECTOR : ITD_SCALAR;
		th->t = brt_spawn(th->cls == ITD_VECTOR ? "vector" : "scalar", classmix_thread_main, th);
		if (!th->t) {
			bench_barrier_cancel(&r->start);
			break;
		}
	}
	if (started == threads)
		bench_barrier_wait(&r->start);
	uint64_t sum = 0, by[2] = { 0 }, p[2] = { 0 }, run[2] = { 0 };
	for (int i = 0; i < started; i++) {
		struct brt_thread_stats st;
		int v = r->th[i].cls == ITD_VECTOR;
		brt_join(r->th[i].t, &st);
		bench_place_add(&res->place, &st);
		p_share(&st, &p[v], &run[v]);
		sum += r->th[i].events;
		by[v] += r->th[i].events;
	}
	uint64_t elapsed = brt_now() - r->start_ns;
	res->aborted = brt_stopping();
	uint64_t counted = __atomic_load_n(&r->counted, __ATOMIC_RELAXED);
	res->value = elapsed ? bench_muldiv(counted, 100ull * 1000000000ull, elapsed) : 0;
	res->extra[X_VECTOR] = elapsed ? bench_muldiv(by[1], 100ull * 1000000000ull, elapsed) : 0;
	res->extra[X_SCALAR] = elapsed ? bench_muldiv(by[0], 100ull * 1000000000ull, elapsed) : 0;
	res->extra[X_VECTOR_P] = run[1] ? bench_muldiv(p[1], 1000, run[1]) : BENCH_NA;
	res->extra[X_SCALAR_P] = run[0] ? bench_muldiv(p[0], 1000, run[0]) : BENCH_NA;
	if (started < threads)
		bench_check(res, 0, "only %d of %d threads started", started, threads);
	else
		bench_check(res, sum == counted, "events %lu = sum over %d threads %lu", counted, threads,
			    sum);
	bench_barrier_free(&r->start);
	brt_free(r);
}

const struct bench_wl bench_wl_classmix = {
	.name = "classmix",
	.descr = "half vector-heavy, half scalar CPU-bound threads (Thread Director classes 1 and 0)",
	.seed = "issue 22: placement by Thread Director class",
	.unit = "events/s",
	.per_joule = "events/J",
	.decimals = 2,
	.higher_is_better = 1,
	.basis = BENCH_BASIS_WORK,
	.threads_means = "threads (even ones vector, odd ones scalar)",
	.threads_min = 2,
	.threads_max = 256,
	.threads_def = 16,
	.nopts = O_N,
	.opts = classmix_opts,
	.nextra = X_N,
	.extras = classmix_extras,
	.run = classmix_run,
};
