/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_rt.c — kernel/bench/bench_rt.h for simulated threads: spawn (at a
 * cost to the creator) and join, work at the CPU's modelled speed, sleeps
 * on the CPU's tick (as the kernel's timers fire), channels with blocking,
 * time, random numbers and memory. Every call runs in a simulated
 * thread's coroutine on the CPU it runs on; blocking goes through
 * sched_sleep() and sched_switch(SLEEP), waking through sched_wakeup()
 * from the waker's CPU, as in the kernel (kernel/thread/thread_switch.c). A
 * SCHED_RESCHED from a call of the thread switches it at the end of that
 * call (its self-IPI).
 */
#include <stdlib.h>
#include <string.h>
#include <sim/sim.h>
#include <sim/sim_policy.h>
#include <sim/sim_wl.h>
#include <bench/bench_rt.h>

struct brt_thread {
	struct sim_thread t;   /* first: a brt_thread is its sim_thread */
};

struct brt_chan {
	struct sim_waitq senders, receivers;
	uint64_t *buf;
	unsigned cap, head, count;
	int closed;
	struct brt_chan *next;   /* every channel of the run (the stop wakes their waiters) */
};

static struct brt_chan *chans;
static void *stack_pool[SIM_MAX_THREADS];   /* stacks of ended runs, for reuse */
static int nstack_pool;

/* A thread stack: one of an earlier run, or a new one (NULL without memory). */
static void *stack_get(void)
{
	return nstack_pool ? stack_pool[--nstack_pool] : malloc(SIM_STACK_SIZE);
}

/* ---- waiting ---- */

/* Appends td to q. */
static void waitq_add(struct sim_waitq *q, struct sim_thread *td)
{
	td->wait_next = NULL;
	if (q->tail)
		q->tail->wait_next = td;
	else
		q->head = td;
	q->tail = td;
}

/* Removes and returns the first thread of q, NULL if empty. */
static struct sim_thread *waitq_take(struct sim_waitq *q)
{
	struct sim_thread *td = q->head;
	if (td) {
		q->head = td->wait_next;
		if (!q->head)
			q->tail = NULL;
	}
	return td;
}

/* Wakes every waiter of q. */
static void waitq_wake_all(struct sim_waitq *q)
{
	struct sim_thread *td;
	while ((td = waitq_take(q)))
		sim_wake(td);
}

/* The calling thread td sleeps (thread_block_locked): sched_sleep, then
 * the switch; returns once it was woken and runs again. */
static void block(struct sim_thread *td, int why)
{
	td->blk = (uint8_t)why;
	td->state = SIM_TD_BLOCKED;
	sched_sleep(&td->ts);
	sim_yield(td, SIM_REQ_SLEEP);
}

/* Code takes no simulated time, so a thread that loops without waiting
 * or working (polling brt_stopping(), or calling brt_work() after the
 * stop) would stop the simulation at one instant for ever: such a thread
 * is named and the simulator stops. Called at every brt_* call of td. */
#define SIM_SPIN_LIMIT 10000000u
static void progress(struct sim_thread *td)
{
	static uint64_t at, calls;
	if (sim.now != at) {
		at = sim.now;
		calls = 0;
	} else if (++calls > SIM_SPIN_LIMIT) {
		sim_fatal("%s: thread %d (%s) made %u runtime calls at %llu ns without time passing "
			  "(a loop that neither works nor waits)", sim.cfg->wl->name, td->id, td->name,
			  SIM_SPIN_LIMIT, (unsigned long long)sim.now);
	}
}

/* End of a call that may have woken a better thread here. */
static void preempt_point(struct sim_thread *td)
{
	if (td->self_ipi)
		sim_yield(td, SIM_REQ_PREEMPT);
}

/* ---- threads ---- */

static void thread_entry(void *arg);

/* A thread set up from the calling CPU (sched_thread_init with parent,
 * NULL for none), not yet runnable; NULL at the thread limit or without
 * memory. */
static struct sim_thread *thread_alloc(const char *name, void (*fn)(void *), void *arg,
				       struct sim_thread *parent, const struct cpuset *mask)
{
	if (sim.nthreads >= SIM_MAX_THREADS)
		return NULL;
	struct brt_thread *bt = calloc(1, sizeof(*bt));
	void *stack = bt ? stack_get() : NULL;
	if (!stack) {
		free(bt);
		return NULL;
	}
	struct sim_thread *td = &bt->t;
	td->stack = stack;
	td->fn = fn;
	td->arg = arg;
	td->id = sim.nthreads++;
	snprintf(td->name, sizeof(td->name), "%s", name ? name : "");
	td->cpu = -1;
	td->state = SIM_TD_READY;
	td->rng = sim.cfg->seed ^ (0x7468726561640000ull + (uint64_t)td->id);
	td->all_next = sim.threads;
	sim.threads = td;
	sim.live++;
	sim_ctx_make(&td->ctx, stack, SIM_STACK_SIZE, thread_entry, td);
	wc_clock_init(&td->wc);
	sched_thread_init(&td->ts, parent ? &parent->ts : NULL, SCHED_CLASS_TIMESHARE, 0, mask);
	return td;
}

/* See sim.h. */
struct sim_thread *sim_thread_new(const char *name, void (*fn)(void *), void *arg,
				  struct sim_thread *parent, const struct cpuset *mask)
{
	struct sim_thread *td = thread_alloc(name, fn, arg, parent, mask);
	if (td && (sched_add(&td->ts, SCHED_ADD_DEFAULT) & SCHED_RESCHED))
		sim_resched_self();
	return td;
}

/* See sim.h. sched_thread_init() gives a thread without a parent the
 * CPU it is set up on as its last one, and a cache affinity that has
 * already expired. */
struct sim_thread *sim_thread_asleep(const char *name, void (*fn)(void *), void *arg, int cpu, int why)
{
	int self = sim.self;
	sim.self = cpu;
	struct sim_thread *td = thread_alloc(name, fn, arg, NULL, NULL);
	sim.self = self;
	if (td) {
		td->state = SIM_TD_BLOCKED;
		td->blk = (uint8_t)why;
	}
	return td;
}

/* See sim.h. */
void sim_spawn_cost(void)
{
	brt_work(sim.cfg->spawn_ns);
}

/* The end of a thread's function: its joiner wakes, it switches out for good. */
static void thread_exit(struct sim_thread *td)
{
	if (td->joiner)
		sim_wake(td->joiner);
	td->state = SIM_TD_EXITED;
	sim_yield(td, SIM_REQ_EXIT);
	sim_fatal("thread %d ran after its exit", td->id);
}

/* First code of every thread: its function, then its exit. */
static void thread_entry(void *arg)
{
	struct sim_thread *td = arg;
	td->fn(td->arg);
	thread_exit(td);
}

/* See sim.h. */
void sim_rt_reset(void)
{
	while (sim.threads) {
		struct sim_thread *td = sim.threads;
		sim.threads = td->all_next;
		stack_pool[nstack_pool++] = td->stack;
		free(td);
	}
	while (chans) {
		struct brt_chan *c = chans;
		chans = c->next;
		free(c->buf);
		free(c);
	}
}

/* See sim.h. */
void sim_rt_stop(void)
{
	for (int c = 0; c < sim.ncpu; c++) {
		struct sim_thread *td;
		while ((td = sim.cpu[c].timers)) {
			sim.cpu[c].timers = td->timer_next;
			sim_wake(td);
		}
	}
	for (struct brt_chan *c = chans; c; c = c->next) {
		waitq_wake_all(&c->senders);
		waitq_wake_all(&c->receivers);
	}
}

/* See sim.h. */
void sim_rt_timers(int cpu)
{
	struct sim_cpu *c = &sim.cpu[cpu];
	struct sim_thread *td;
	while ((td = c->timers) && td->deadline <= sim.now) {
		c->timers = td->timer_next;
		sim_wake(td);
	}
}

/* See bench_rt.h. The creation costs the caller its work first
 * (sim_spawn_cost); under the oracle and random policies the k-th thread
 * spawned is pinned (sim_policy.h). */
struct brt_thread *brt_spawn(const char *name, void (*fn)(void *), void *arg)
{
	struct sim_thread *cur = sim_current("brt_spawn");
	sim_spawn_cost();
	struct cpuset pin;
	const struct cpuset *mask = sim_policy_pin(sim.cfg->policy, sim.spawned, &pin);
	struct sim_thread *td = sim_thread_new(name, fn, arg, cur, mask);
	if (td)
		sim.spawned++;
	preempt_point(cur);
	return (struct brt_thread *)td;
}

/* See bench_rt.h. */
void brt_join(struct brt_thread *t, struct brt_thread_stats *st)
{
	struct sim_thread *cur = sim_current("brt_join"), *td = &t->t;
	if (td == cur || td->joiner)
		sim_fatal("brt_join of thread %d by thread %d: joined twice or by itself", td->id, cur->id);
	while (td->state != SIM_TD_EXITED) {
		td->joiner = cur;
		block(cur, SIM_BLK_JOIN);
	}
	td->joiner = cur;   /* joined: a second join is refused */
	if (st) {
		memset(st, 0, sizeof(*st));
		st->run_ns = td->ts.ts_run_ns;
		st->work_ns = td->wc.work / WC_WORK_PER_NS;
		for (int i = 0; i < 4; i++)
			st->run_ns_type[i] = td->ts.ts_run_ns_type[i];
		st->run_ns_shared = td->ts.ts_run_ns_shared;
		st->migrations = td->ts.ts_migrations;
		st->last_cpu = td->ts.ts_lastcpu;
	}
}

/* ---- time and work ---- */

/* See bench_rt.h: simulated ns since the simulated boot. Outside a run
 * (kernel/bench's driver between runs, sim_sweep.c) the plan's simulated
 * time: the sum of the runs' lengths so far. */
uint64_t brt_now(void)
{
	if (!sim.cur)
		return sim_plan_ns;
	progress(sim_current("brt_now"));
	return sim.now;
}

/* See bench_rt.h. W ns of lone P-core work are W × WC_WORK_PER_NS units
 * of the work clock; when nothing else happens before the work ends, time
 * simply moves there (the engine would do the same in two switches). */
void brt_work(uint64_t ns)
{
	brt_work_class(ns, 0);
}

/* See bench_rt.h: the class goes on the thread's clock (an event of the
 * work clock when it changes: the machine's class-speed lines set its
 * rate) and, as the simulator has no Thread Director device, straight to
 * the scheduler (sched_itd_class_set); then the work as brt_work() does
 * it. */
void brt_work_class(uint64_t ns, unsigned cls)
{
	struct sim_thread *td = sim_current("brt_work");
	progress(td);
	wc_set_class(&sim.wc, &td->wc, cls, sim.now);
	sched_itd_class_set(&td->ts, cls);
	if (sim.stopping || ns == 0)
		return;
	if (ns > 600000000000ull)   /* WORK_NS_MAX of the kernel's work() */
		ns = 600000000000ull;
	uint64_t units = ns * WC_WORK_PER_NS;
	td->work_target = wc_read(&sim.wc, &td->wc, sim.now) + units;
	uint32_t rate = wc_cpu_rate(&sim.wc, (unsigned)td->cpu);
	uint64_t end = sim.now + (units + rate - 1) / rate;
	if (end < sim_next_time()) {
		if (sim.w.open && end > sim.now)
			sim_watch_settle();
		sim.now = end;
		sim.nevents++;
		return;
	}
	td->state = SIM_TD_WORK;
	sim_yield(td, SIM_REQ_WORK);
}

/* See bench_rt.h. A timer on the calling CPU, fired by its tick. */
void brt_sleep(uint64_t ns)
{
	struct sim_thread *td = sim_current("brt_sleep");
	progress(td);
	if (sim.stopping)
		return;
	struct sim_cpu *c = &sim.cpu[td->cpu];
	td->deadline = sim.now + ns;
	struct sim_thread **p = &c->timers;
	while (*p && (*p)->deadline <= td->deadline)
		p = &(*p)->timer_next;
	td->timer_next = *p;
	*p = td;
	block(td, SIM_BLK_SLEEP);
}

/* See bench_rt.h: set by the run's stop event. */
int brt_stopping(void)
{
	progress(sim_current("brt_stopping"));
	return sim.stopping;
}

/* See bench_rt.h: the calling thread's own generator, seeded from the run. */
uint64_t brt_random(void)
{
	return sim_mix(&sim_current("brt_random")->rng);
}

/* ---- channels ---- */

/* See bench_rt.h. */
struct brt_chan *brt_chan_new(unsigned capacity)
{
	if (capacity < 1 || capacity > 4096)
		return NULL;
	struct brt_chan *c = calloc(1, sizeof(*c));
	if (!c || !(c->buf = calloc(capacity, sizeof(uint64_t)))) {
		free(c);
		return NULL;
	}
	c->cap = capacity;
	c->next = chans;
	chans = c;
	return c;
}

/* See bench_rt.h. Wakes the first waiting receiver. */
int brt_chan_send(struct brt_chan *c, uint64_t msg)
{
	struct sim_thread *td = sim_current("brt_chan_send");
	progress(td);
	for (;;) {
		if (c->closed || sim.stopping)
			return -1;
		if (c->count < c->cap)
			break;
		waitq_add(&c->senders, td);
		block(td, SIM_BLK_CHAN);
	}
	c->buf[(c->head + c->count++) % c->cap] = msg;
	struct sim_thread *w = waitq_take(&c->receivers);
	if (w)
		sim_wake(w);
	preempt_point(td);
	return 0;
}

/* See bench_rt.h. Wakes the first waiting sender. */
int brt_chan_recv(struct brt_chan *c, uint64_t *msg)
{
	struct sim_thread *td = sim_current("brt_chan_recv");
	progress(td);
	for (;;) {
		if (c->count > 0)
			break;
		if (c->closed || sim.stopping)
			return -1;
		waitq_add(&c->receivers, td);
		block(td, SIM_BLK_CHAN);
	}
	*msg = c->buf[c->head];
	c->head = (c->head + 1) % c->cap;
	c->count--;
	struct sim_thread *w = waitq_take(&c->senders);
	if (w)
		sim_wake(w);
	preempt_point(td);
	return 0;
}

/* See bench_rt.h. */
void brt_chan_close(struct brt_chan *c)
{
	struct sim_thread *td = sim_current("brt_chan_close");
	c->closed = 1;
	waitq_wake_all(&c->senders);
	waitq_wake_all(&c->receivers);
	preempt_point(td);
}

/* See bench_rt.h. */
void brt_chan_free(struct brt_chan *c)
{
	if (!c)
		return;
	for (struct brt_chan **p = &chans; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	free(c->buf);
	free(c);
}

/* ---- memory ---- */

/* See bench_rt.h. */
void *brt_calloc(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return calloc(count ? count : 1, size ? size : 1);
}

/* See bench_rt.h. */
void brt_free(void *p)
{
	free(p);
}
