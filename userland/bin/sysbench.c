/* SPDX-License-Identifier: BSD-2-Clause */
/* sysbench — the CPU test of `bench cpu` (sysbench 1.0.20's cpu test, as
 * the kernel's workload does it) in user mode:
 *   sysbench [--threads N] [--time S] [--events N] [--max-prime N]
 * An event is one pass of trial division over 3..max-prime, done as work(W)
 * with W proportional to the divisions of that pass, anchored so that one
 * thread alone on a P-core does 8190918.87 events/s (the seed report's hmp
 * median at 4 threads on the i7-1370P, per thread). It starts as sysbench
 * starts: the main thread creates the threads one by one; each waits at a
 * start barrier of threads + 1 parties (the main thread the last party once
 * it has created them all); the last to arrive starts the clock and lets
 * the others go. Threads run events in batches of about 1 ms of work until
 * --time passes or --events are done.
 * The report: events per second over the run, per thread, the events, and
 * for each thread where it ran (from SYS_THREAD_STATS): its last CPU, that
 * CPU's core type and core id, and the shares of its run time on P-cores,
 * E-cores and beside a busy SMT sibling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>
#include <mosaic/sysbench_cost.h>

#define THREADS_LIMIT 64            /* THREADS_MAX of a process, the main thread included */

struct worker {
	int tid;
	uint64_t events, end_ns;
	struct thread_stats st;
};

static struct worker workers[THREADS_LIMIT];
static uint64_t cost_ps, batch, secs, start_at, end_at, limit, claimed, counted;

/* The start barrier: threads + 1 parties arrive; all but the last wait to
 * receive on an endpoint, and the last starts the clock and sends to each
 * of them (a send waits until a receiver takes it). */
static int barrier_ep;
static unsigned parties, arrived, cancelled;

/* Waits at the start barrier; 0 to start, -1 when the run was called off
 * (a thread could not be created). */
static int start_barrier(void)
{
	struct ipc_msg m = { 0 };
	if (__atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL) == parties) {
		start_at = time_ns();
		end_at = secs ? start_at + secs * 1000000000ull : 0;
		for (unsigned i = 1; i < parties; i++)
			ipc_send(barrier_ep, &m, IPC_FOREVER);
	} else {
		ipc_recv(barrier_ep, &m, IPC_FOREVER);
	}
	return __atomic_load_n(&cancelled, __ATOMIC_ACQUIRE) ? -1 : 0;
}

/* Calls the run off: each of the n threads that arrive or wait at the
 * barrier is let go (and sees the run called off). */
static void cancel_barrier(unsigned n)
{
	struct ipc_msg m = { 0 };
	__atomic_store_n(&cancelled, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < n; i++)
		ipc_send(barrier_ep, &m, IPC_FOREVER);
}

/* Batches of events until a limit. */
static void run_events(struct worker *w)
{
	int64_t owed_ps = 0;   /* work still owed (> 0) or done ahead (<= 0), ps */
	for (;;) {
		if (end_at && time_ns() >= end_at)
			break;
		uint64_t n = batch;
		if (limit) {
			uint64_t first = __atomic_fetch_add(&claimed, batch, __ATOMIC_RELAXED);
			if (first >= limit)
				break;
			if (limit - first < n)
				n = limit - first;
		}
		owed_ps += (int64_t)(n * cost_ps);
		if (owed_ps > 0) {
			int64_t done = work(((uint64_t)owed_ps + 999) / 1000);
			if (done < 0)
				break;
			owed_ps -= done * 1000;
		}
		w->events += n;
		__atomic_fetch_add(&counted, n, __ATOMIC_RELAXED);
	}
}

/* One thread: the start barrier, then its events (none when the run was
 * called off); its statistics at the end. */
static uint64_t worker_main(void *arg)
{
	struct worker *w = arg;
	if (start_barrier() == 0)
		run_events(w);
	w->end_ns = time_ns();
	thread_stats(0, &w->st);
	return 0;
}

/* Option value s of name in min..max, or exit after saying why. */
static uint64_t option(const char *name, const char *s, int64_t min, int64_t max)
{
	int64_t v;
	if (!s || parse_int(s, min, max, &v)) {
		printf("sysbench: %s: '%s' is not a number in %ld..%ld\n", name, s ? s : "", min, max);
		exit(2);
	}
	return (uint64_t)v;
}

static unsigned pct(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned)muldiv64(part, 10000, whole) : 0;
}

int main(int argc, char **argv)
{
	uint64_t threads = 4, max_prime = 10000;
	secs = 10;
	for (int i = 1; i < argc; i += 2) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(argv[i], "--threads") == 0)
			threads = option("--threads", v, 1, THREADS_LIMIT - 1);
		else if (strcmp(argv[i], "--time") == 0)
			secs = option("--time", v, 0, 3600);
		else if (strcmp(argv[i], "--events") == 0)
			limit = option("--events", v, 0, 1000000000000ll);
		else if (strcmp(argv[i], "--max-prime") == 0)
			max_prime = option("--max-prime", v, 100, 100000);
		else {
			printf("sysbench: unknown option '%s' (--threads N, --time S, --events N, "
			       "--max-prime N)\n", argv[i]);
			return 2;
		}
	}
	if (!secs && !limit) {
		printf("sysbench: --time 0 and --events 0: the run would never end\n");
		return 2;
	}
	cost_ps = muldiv64(100000000000000ull, sysbench_divisions(max_prime),
			   SYSBENCH_ANCHOR_RATE_X100 * SYSBENCH_ANCHOR_DIVS);
	batch = cost_ps ? SYSBENCH_BATCH_PS / cost_ps : 1;
	if (!batch)
		batch = 1;
	barrier_ep = ep_create();
	if (barrier_ep < 0) {
		printf("sysbench: the start barrier: %s\n", strerror(barrier_ep));
		return 1;
	}
	parties = (unsigned)threads + 1;
	uint64_t started = 0;
	for (; started < threads; started++) {
		workers[started].tid = thread_create(worker_main, &workers[started], 0);
		if (workers[started].tid < 0) {
			printf("sysbench: thread %lu: %s\n", started + 1, strerror(workers[started].tid));
			break;
		}
	}
	if (started == threads)
		start_barrier();
	else
		cancel_barrier((unsigned)started);
	uint64_t sum = 0;
	for (uint64_t i = 0; i < started; i++) {
		thread_join(workers[i].tid, NULL, IPC_FOREVER);
		sum += workers[i].events;
	}
	uint64_t start = start_at ? start_at : time_ns(), end = start;
	for (uint64_t i = 0; i < started; i++)
		if (workers[i].end_ns > end)
			end = workers[i].end_ns;
	handle_close(barrier_ep);
	uint64_t rate = end > start ? muldiv64(counted, 100ull * 1000000000ull, end - start) : 0;
	printf("sysbench cpu: %lu threads, max-prime %lu: %lu.%02lu events/s, %lu.%02lu per thread, "
	       "%lu events in %lu ms\n", threads, max_prime, rate / 100, rate % 100,
	       rate / threads / 100, rate / threads % 100, counted, (end - start) / 1000000);
	for (uint64_t i = 0; i < started; i++) {
		const struct thread_stats *s = &workers[i].st;
		struct cpu_info ci = { 0 };
		cpu_info((unsigned)s->last_cpu, &ci);
		uint64_t all = s->run_ns_core[0] + s->run_ns_core[1] + s->run_ns_core[2] +
			       s->run_ns_core[3];
		unsigned p = pct(s->run_ns_core[CORE_P], all), e = pct(s->run_ns_core[CORE_E], all),
			 smt = pct(s->run_ns_smt_busy, all);
		printf("sysbench: thread %d: %lu events, last cpu %d (%s core %u), P %u.%02u%% "
		       "E %u.%02u%% SMT %u.%02u%%, work %lu ms in %lu ms\n", workers[i].tid,
		       workers[i].events, s->last_cpu, core_name(ci.core_type), ci.core_id, p / 100,
		       p % 100, e / 100, e % 100, smt / 100, smt % 100, s->work_ns / 1000000,
		       s->run_ns / 1000000);
	}
	int ok = started == threads && sum == counted && (!limit || counted == limit || end_at);
	printf("sysbench: check %s (events %lu = sum over threads %lu)\n", ok ? "ok" : "FAILED",
	       counted, sum);
	return ok ? 0 : 1;
}
