/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_rt_kernel.c — the benchmark runtime of bench_rt.h in the kernel:
 * workload threads are joinable kernel threads (timeshare, nice 0, every
 * CPU), work is work(W) (the work clock on emulated machines), time is
 * guest time, channels are a mutex and two condition variables.
 *
 * Stopping: brt_kernel_stop() sets the flag, then takes every live
 * channel's mutex and wakes its waiters; a waiter tests the flag under
 * that mutex before it sleeps, so none sleeps through a stop. Sleeps are
 * cut into steps of BRT_SLEEP_STEP_NS and work into steps of
 * BRT_WORK_STEP_NS, each followed by a look at the flag.
 *
 * Locks: each channel's mutex; brt_list_lock (a mutex) over the list of
 * channels, taken before a channel's mutex, never after.
 */
#include <stdint.h>
#include <thread/thread.h>
#include <sync/mutex.h>
#include <mm/mm.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/clock/time.h>
#include <bench/work.h>
#include <lib/itd_class.h>
#include <emul/emul_workclock_model.h>
#include <emul/emul_workclock.h>
#include <bench/bench_rt.h>
#include <bench/bench_rt_kernel.h>
#include <bench/bench_wl.h>

#define BRT_THREADS_MAX   BENCH_WL_THREADS_MAX
#define BRT_SLEEP_STEP_NS 50000000ull   /* a sleep looks at the stop flag this often */
#define BRT_WORK_STEP_NS  1000000ull    /* and work after this much work */
#define BRT_CHAN_MAX      4096u

struct brt_thread {
	struct thread *td;
	void (*fn)(void *);
	void *arg;
	uint64_t credit;    /* work done beyond what was asked (work-clock units), owed back */
};

struct brt_chan {
	struct mutex m;
	struct waitq not_empty, not_full;
	uint64_t *buf;
	unsigned cap, head, count;
	int closed;
	struct brt_chan *next, *prev;   /* live channels (brt_list_lock) */
};

static int brt_stop;     /* 1: the run should end (atomic) */
static int brt_live;     /* threads spawned and not joined (atomic) */
static uint64_t brt_rng = 0x6d6f736169632d72ull;
static struct mutex brt_list_lock = MUTEX_INIT(brt_list_lock, "brt channels");
static struct brt_chan *brt_chans;

/* ---- threads ---- */

/* Entry of every workload thread: its function, then the thread exits. */
static void brt_trampoline(void *arg)
{
	struct brt_thread *bt = arg;
	bt->fn(bt->arg);
}

/* The calling thread's brt_thread, or NULL for another kernel thread. */
static struct brt_thread *brt_self(void)
{
	struct thread *td = thread_current();
	return td && td->fn == brt_trampoline ? td->arg : NULL;
}

/* See bench_rt.h. */
struct brt_thread *brt_spawn(const char *name, void (*fn)(void *), void *arg)
{
	if (__atomic_add_fetch(&brt_live, 1, __ATOMIC_RELAXED) > BRT_THREADS_MAX)
		goto refused;
	struct brt_thread *bt = kzalloc(sizeof(*bt));
	if (!bt)
		goto refused;
	bt->fn = fn;
	bt->arg = arg;
	bt->td = thread_create(name, brt_trampoline, bt, NULL);
	if (bt->td)
		return bt;
	kfree(bt);
refused:
	__atomic_sub_fetch(&brt_live, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* See bench_rt.h. The scheduler's figures are final once the thread is
 * DEAD and its CPU has switched away from it (on_cpu 0). */
void brt_join(struct brt_thread *t, struct brt_thread_stats *st)
{
	struct thread *td = t->td;
	uint64_t flags = spin_lock_irqsave(&td->exit_wq.lock);
	while (__atomic_load_n(&td->state, __ATOMIC_ACQUIRE) != TD_DEAD)
		waitq_sleep_locked(&td->exit_wq);
	spin_unlock_irqrestore(&td->exit_wq.lock, flags);
	while (__atomic_load_n(&td->on_cpu, __ATOMIC_ACQUIRE))
		cpu_pause();
	if (st) {
		const struct td_sched *ts = &td->ts;
		uint64_t work;
		st->run_ns = ts->ts_run_ns;
		st->work_ns = emul_workclock_read(td, &work) == 0 ? work / WC_WORK_PER_NS : ts->ts_run_ns;
		for (int i = 0; i < 4; i++)
			st->run_ns_type[i] = ts->ts_run_ns_type[i];
		st->run_ns_shared = ts->ts_run_ns_shared;
		st->migrations = ts->ts_migrations;
		st->last_cpu = td->cpu;
	}
	thread_join(td);
	kfree(t);
	__atomic_sub_fetch(&brt_live, 1, __ATOMIC_RELAXED);
}

/* ---- time and work ---- */

/* See bench_rt.h. */
uint64_t brt_now(void)
{
	return time_ns();
}

/* See bench_rt.h. */
int brt_stopping(void)
{
	return __atomic_load_n(&brt_stop, __ATOMIC_ACQUIRE);
}

/* See bench_rt.h. work() under the work clock does whole chunks of a few
 * microseconds, so it may do more than asked: a workload thread keeps the
 * surplus as credit and the next call does that much less, so many small
 * calls add up to what they asked. */
void brt_work(uint64_t ns)
{
	brt_work_class(ns, ITD_SCALAR);
}

/* See bench_rt.h. brt_work()'s steps, each work_class(). */
void brt_work_class(uint64_t ns, unsigned cls)
{
	struct brt_thread *bt = brt_self();
	uint64_t want = ns * WC_WORK_PER_NS, before, after;
	if (bt) {
		uint64_t use = bt->credit < want ? bt->credit : want;
		bt->credit -= use;
		want -= use;
	}
	int clocked = emul_workclock_self(&before) == 0;
	while (want && !brt_stopping()) {
		uint64_t step = want < BRT_WORK_STEP_NS * WC_WORK_PER_NS ? want : BRT_WORK_STEP_NS * WC_WORK_PER_NS;
		uint64_t step_ns = (step + WC_WORK_PER_NS - 1) / WC_WORK_PER_NS, done;
		work_class(step_ns, cls);
		if (clocked && emul_workclock_self(&after) == 0) {
			done = after - before;
			before = after;
		} else {
			done = step_ns * WC_WORK_PER_NS;
		}
		if (done >= want) {
			if (bt)
				bt->credit += done - want;
			want = 0;
		} else {
			want -= done;
		}
	}
}

/* See bench_rt.h. */
void brt_sleep(uint64_t ns)
{
	uint64_t end = time_ns() + ns;
	for (uint64_t now = time_ns(); now < end && !brt_stopping(); now = time_ns()) {
		uint64_t step = end - now;
		thread_sleep_ns(step < BRT_SLEEP_STEP_NS ? step : BRT_SLEEP_STEP_NS);
	}
}

/* See bench_rt.h: splitmix64 over one shared counter. */
uint64_t brt_random(void)
{
	uint64_t z = __atomic_add_fetch(&brt_rng, 0x9e3779b97f4a7c15ull, __ATOMIC_RELAXED);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ---- channels ---- */

/* See bench_rt.h. */
struct brt_chan *brt_chan_new(unsigned capacity)
{
	if (capacity < 1 || capacity > BRT_CHAN_MAX)
		return NULL;
	struct brt_chan *c = kzalloc(sizeof(*c));
	uint64_t *buf = kcalloc(capacity, sizeof(*buf));
	if (!c || !buf) {
		kfree(c);
		kfree(buf);
		return NULL;
	}
	mutex_init(&c->m, "brt channel");
	waitq_init(&c->not_empty, "brt not empty");
	waitq_init(&c->not_full, "brt not full");
	c->buf = buf;
	c->cap = capacity;
	mutex_lock(&brt_list_lock);
	c->next = brt_chans;
	if (brt_chans)
		brt_chans->prev = c;
	brt_chans = c;
	mutex_unlock(&brt_list_lock);
	return c;
}

/* See bench_rt.h. */
int brt_chan_send(struct brt_chan *c, uint64_t msg)
{
	mutex_lock(&c->m);
	while (c->count == c->cap && !c->closed && !brt_stopping())
		cv_wait(&c->not_full, &c->m);
	if (c->closed || brt_stopping()) {
		mutex_unlock(&c->m);
		return -1;
	}
	c->buf[(c->head + c->count) % c->cap] = msg;
	c->count++;
	cv_signal(&c->not_empty);
	mutex_unlock(&c->m);
	return 0;
}

/* See bench_rt.h. */
int brt_chan_recv(struct brt_chan *c, uint64_t *msg)
{
	mutex_lock(&c->m);
	while (c->count == 0 && !c->closed && !brt_stopping())
		cv_wait(&c->not_empty, &c->m);
	if (c->count == 0 || brt_stopping()) {
		mutex_unlock(&c->m);
		return -1;
	}
	*msg = c->buf[c->head];
	c->head = (c->head + 1) % c->cap;
	c->count--;
	cv_signal(&c->not_full);
	mutex_unlock(&c->m);
	return 0;
}

/* Wakes every thread waiting on c. */
static void brt_chan_wake_all(struct brt_chan *c)
{
	mutex_lock(&c->m);
	cv_broadcast(&c->not_empty);
	cv_broadcast(&c->not_full);
	mutex_unlock(&c->m);
}

/* See bench_rt.h. */
void brt_chan_close(struct brt_chan *c)
{
	mutex_lock(&c->m);
	c->closed = 1;
	cv_broadcast(&c->not_empty);
	cv_broadcast(&c->not_full);
	mutex_unlock(&c->m);
}

/* See bench_rt.h. */
void brt_chan_free(struct brt_chan *c)
{
	mutex_lock(&brt_list_lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		brt_chans = c->next;
	if (c->next)
		c->next->prev = c->prev;
	mutex_unlock(&brt_list_lock);
	kfree(c->buf);
	kfree(c);
}

/* ---- memory ---- */

/* See bench_rt.h. */
void *brt_calloc(size_t count, size_t size)
{
	return kcalloc(count, size);
}

/* See bench_rt.h. */
void brt_free(void *p)
{
	kfree(p);
}

/* ---- the command's side ---- */

/* See bench_rt_kernel.h. */
void brt_kernel_begin(void)
{
	__atomic_store_n(&brt_stop, 0, __ATOMIC_RELEASE);
}

/* See bench_rt_kernel.h. */
void brt_kernel_stop(void)
{
	__atomic_store_n(&brt_stop, 1, __ATOMIC_RELEASE);
	mutex_lock(&brt_list_lock);
	for (struct brt_chan *c = brt_chans; c; c = c->next)
		brt_chan_wake_all(c);
	mutex_unlock(&brt_list_lock);
}

/* See bench_rt_kernel.h. */
int brt_kernel_live(void)
{
	return __atomic_load_n(&brt_live, __ATOMIC_RELAXED);
}
