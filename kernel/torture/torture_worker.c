/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_worker.c — the kernel-thread stressor: one worker per CPU doing
 * random operations until the pass stops — children created and joined,
 * timed sleeps (the wake-up delay measured), a ring of semaphore wake-ups
 * between the workers, yields, nice changes, pinning to one CPU and back —
 * and, with the user and bench stressors, short user processes and bench
 * runs.
 */
#include <thread/thread.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <sched/topo_cpuset.h>
#include <torture/torture_int.h>

#define SLEEP_MAX_NS 3000000ull   /* a worker's sleep: 0.1..3 ms (rounded up to ticks) */
#define SPIN_MAX_NS  200000ull    /* a child's or worker's busy stretch */

/* Busy for up to max_ns (random), without sleeping. */
static void spin_for(uint64_t *rng, uint64_t max_ns)
{
	uint64_t end = time_ns() + torture_rand(rng) % max_ns;
	while (time_ns() < end)
		__asm__ volatile("pause");
}

/* A child: a few random steps of spinning, yielding and sleeping, then
 * return (which exits it). arg is its seed. */
static void child_main(void *arg)
{
	uint64_t rng = (uint64_t)(uintptr_t)arg | 1;
	for (int steps = (int)(torture_rand(&rng) % 4); steps >= 0; steps--) {
		switch (torture_rand(&rng) % 3) {
		case 0:
			spin_for(&rng, SPIN_MAX_NS);
			break;
		case 1:
			thread_yield();
			break;
		default:
			thread_sleep_ns(torture_rand(&rng) % SLEEP_MAX_NS);
			break;
		}
	}
}

/* Joins w's oldest child. */
static void join_oldest(struct torture_worker *w)
{
	struct thread *td = w->child[0];
	for (unsigned i = 1; i < w->nchild; i++)
		w->child[i - 1] = w->child[i];
	w->nchild--;
	thread_join(td);
	__atomic_add_fetch(&w->pass->joined, 1, __ATOMIC_RELAXED);
	torture_count(w->pass, TOP_JOIN, 0);
}

/* A new joinable child with a random nice value (the oldest joined first
 * when w has TORTURE_CHILDREN). Out of memory is no failure: counted. */
static void worker_create(struct torture_worker *w)
{
	if (w->nchild == TORTURE_CHILDREN)
		join_oldest(w);
	struct thread_attr attr = { .nice = (int)(torture_rand(&w->rng) % 41) - 20 };
	struct thread *td = thread_create("torture-child", child_main,
					  (void *)(uintptr_t)torture_rand(&w->rng), &attr);
	if (!td) {
		torture_count(w->pass, TOP_CREATE, -1);
		return;
	}
	w->child[w->nchild++] = td;
	__atomic_add_fetch(&w->pass->created, 1, __ATOMIC_RELAXED);
	torture_count(w->pass, TOP_CREATE, thread_id(td));
}

/* Sleeps a random time and records how late the wake-up came. */
static void worker_sleep(struct torture_worker *w)
{
	uint64_t ns = 100000 + torture_rand(&w->rng) % SLEEP_MAX_NS, t0 = time_ns();
	thread_sleep_ns(ns);
	uint64_t late = time_ns() - t0 - ns, seen = __atomic_load_n(&w->pass->max_wake_ns, __ATOMIC_RELAXED);
	while (late > seen && !__atomic_compare_exchange_n(&w->pass->max_wake_ns, &seen, late, 0,
							   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	torture_count(w->pass, TOP_SLEEP, (int64_t)(ns / 1000));
}

/* The wake ring: every worker's token starts at 1; a worker posts the next
 * worker's token, then takes its own (blocking until the previous worker
 * posts it). Posts and takes pair up, so a worker blocks only while its
 * token is away and some running worker holds one; at the end the
 * controller posts every token once more so nobody waits for a stopped
 * worker. */
static void worker_wake(struct torture_worker *w)
{
	struct torture_pass *p = w->pass;
	sem_post(&p->workers[(w->index + 1) % p->nworkers].token);
	sem_wait(&w->token);
	torture_count(p, TOP_WAKE, (w->index + 1) % p->nworkers);
}

/* Pins the calling worker to one random online CPU, or unpins it. */
static void worker_pin(struct torture_worker *w)
{
	struct cpuset mask;
	cpuset_zero(&mask);
	unsigned n = smp_cpu_count(), cpu = (unsigned)(torture_rand(&w->rng) % n);
	int pin = torture_rand(&w->rng) % 2 && smp_cpu_online(cpu);
	for (unsigned c = 0; c < n; c++)
		if (smp_cpu_online(c) && (!pin || c == cpu))
			cpuset_set(&mask, c);
	thread_set_affinity(thread_current(), &mask);
	torture_count(w->pass, pin ? TOP_PIN : TOP_UNPIN, pin ? (int64_t)cpu : -1);
}

/* One operation outside the thread stressor: a user process or a bench
 * run (whichever stressors are on), else a busy stretch. */
static void worker_outside(struct torture_worker *w)
{
	unsigned on = w->pass->opts.stressors & (TORTURE_USER | TORTURE_BENCH);
	if (on == (TORTURE_USER | TORTURE_BENCH))
		on = torture_rand(&w->rng) % 2 ? TORTURE_USER : TORTURE_BENCH;
	if (on == TORTURE_USER)
		torture_user_op(w->pass, &w->rng);
	else if (on == TORTURE_BENCH)
		torture_bench_op(w->pass, &w->rng);
	else
		spin_for(&w->rng, SPIN_MAX_NS);
}

/* See torture_int.h. */
void torture_worker_main(void *arg)
{
	struct torture_worker *w = arg;
	struct torture_pass *p = w->pass;
	int threads = (p->opts.stressors & TORTURE_THREADS) != 0;
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		if (!threads) {   /* only the outside operations, at a gentle pace */
			worker_outside(w);
			thread_sleep_ns(SLEEP_MAX_NS);
			continue;
		}
		switch (torture_rand(&w->rng) % 10) {
		case 0:
		case 1:
			worker_create(w);
			break;
		case 2:
			worker_sleep(w);
			break;
		case 3:
			worker_wake(w);
			break;
		case 4:
			thread_yield();
			torture_count(p, TOP_YIELD, 0);
			break;
		case 5: {
			int nice = (int)(torture_rand(&w->rng) % 41) - 20;
			thread_set_nice(thread_current(), nice);
			torture_count(p, TOP_NICE, nice);
			break;
		}
		case 6:
			worker_pin(w);
			break;
		case 7:
			worker_outside(w);
			break;
		default:
			spin_for(&w->rng, SPIN_MAX_NS);
			break;
		}
	}
	while (w->nchild)
		join_oldest(w);
	thread_set_nice(thread_current(), 0);
}
