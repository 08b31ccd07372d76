/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_schedtest.c — `schedtest storm|pingpong|pin|latency`: self-checks of
 * the thread layer and the scheduler that print counts for the QEMU tests
 * (tests/integration/test_sched.py) to check. Each prints one result line
 * starting with the test's name and ending in "ok" or "FAILED". */
#include <shell/shell.h>
#include <thread/thread.h>
#include <sync/mutex.h>
#include <sync/sem.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <mm/mm.h>
#include <bench/work.h>
#include <shell/cmd_thread.h>

#define MS 1000000ull

/* Adds the calling CPU to a set shared between threads. */
static void seen_add(struct cpuset *s)
{
	unsigned c = cpu_current();
	__atomic_or_fetch(&s->bits[c / 64], 1ull << (c % 64), __ATOMIC_RELAXED);
}

/* Next value of a small per-thread LCG. */
static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* ---- storm ---- */

struct storm {
	uint64_t end_ns;
	uint64_t started, finished, locked, sleeps, yields;
	struct mutex m;
	uint64_t counter;       /* under m */
	struct sem sem;
	struct cpuset seen;
};

/* One storm thread: until its own end time, randomly sleeps, yields,
 * works (work(), 200 us), or takes the mutex and the semaphore. */
static void storm_main(void *arg)
{
	struct storm *st = arg;
	uint32_t seed = thread_current()->id * 2654435761u;
	__atomic_add_fetch(&st->started, 1, __ATOMIC_RELAXED);
	uint64_t now = time_ns();
	uint64_t end = now + (lcg(&seed) % 100 + 1) * (st->end_ns > now ? st->end_ns - now : 0) / 100;
	do {
		seen_add(&st->seen);
		switch (lcg(&seed) % 4) {
		case 0:
			__atomic_add_fetch(&st->sleeps, 1, __ATOMIC_RELAXED);
			thread_sleep_ns((lcg(&seed) % 20 + 1) * MS);
			break;
		case 1:
			__atomic_add_fetch(&st->yields, 1, __ATOMIC_RELAXED);
			thread_yield();
			break;
		case 2:
			work(200000);
			break;
		default:
			sem_wait(&st->sem);
			mutex_lock(&st->m);
			st->counter++;
			mutex_unlock(&st->m);
			sem_post(&st->sem);
			__atomic_add_fetch(&st->locked, 1, __ATOMIC_RELAXED);
		}
	} while (time_ns() < end);
	__atomic_add_fetch(&st->finished, 1, __ATOMIC_RELAXED);
}

/* `schedtest storm [N] [MS]`: N threads (default 300) created in waves
 * over MS (default 2000) ms, all joined at the end. */
static int schedtest_storm(uint64_t n, uint64_t ms)
{
	static struct storm st;
	memset(&st, 0, sizeof(st));
	mutex_init(&st.m, "storm");
	sem_init(&st.sem, 3, "storm");
	st.end_ns = time_ns() + ms * MS;
	struct thread **tds = kcalloc(n, sizeof(*tds));
	if (!tds)
		return printk("storm: out of memory\n"), 1;
	uint64_t made = 0;
	for (; made < n; made++) {
		char name[THREAD_NAME_MAX];
		ksnprintf(name, sizeof(name), "storm/%lu", made);
		if (!(tds[made] = thread_create(name, storm_main, &st, NULL)))
			break;
		if (made % 50 == 49)   /* waves: let some finish while more come */
			thread_sleep_ns(ms * MS / (n / 50 + 1));
	}
	for (uint64_t i = 0; i < made; i++)
		thread_join(tds[i]);
	kfree(tds);
	thread_check_queues();
	uint64_t created, exited, freed;
	thread_counts(&created, &exited, &freed);
	int ok = made == n && st.started == n && st.finished == n && st.counter == st.locked;
	printk("storm: created %lu started %lu finished %lu joined %lu; mutex count %lu of %lu; "
	       "sleeps %lu yields %lu; cpus used %d of %u; %s\n", made, st.started, st.finished,
	       made, st.counter, st.locked, st.sleeps, st.yields, cpuset_count(&st.seen),
	       smp_online_count(), ok ? "ok" : "FAILED");
	printk("storm: threads since boot: created %lu exited %lu freed %lu\n", created, exited,
	       freed);
	return !ok;
}

/* ---- ping-pong ---- */

struct pingpong {
	uint64_t rounds;
	struct mutex m;
	struct waitq cv;
	int turn;                        /* under m */
	volatile uint64_t done[2];       /* rounds finished by each side */
	struct sem sem[2];
};

/* Side 0 or 1 of the condition-variable ping-pong: wait for its turn,
 * hand the turn over, rounds times. */
static void pingpong_cv_side(struct pingpong *pp, int side)
{
	for (uint64_t i = 0; i < pp->rounds; i++) {
		mutex_lock(&pp->m);
		while (pp->turn != side)
			cv_wait(&pp->cv, &pp->m);
		pp->turn = !side;
		cv_broadcast(&pp->cv);
		mutex_unlock(&pp->m);
		pp->done[side]++;
	}
}

/* Side of the semaphore ping-pong: side 0 posts first. */
static void pingpong_sem_side(struct pingpong *pp, int side)
{
	for (uint64_t i = 0; i < pp->rounds; i++) {
		if (side)
			sem_wait(&pp->sem[1]);
		sem_post(&pp->sem[!side]);
		if (!side)
			sem_wait(&pp->sem[0]);
		pp->done[side]++;
	}
}

static struct pingpong pp_state;
static int pp_use_sem;

static void pingpong_main0(void *arg)
{
	(void)arg;
	(pp_use_sem ? pingpong_sem_side : pingpong_cv_side)(&pp_state, 0);
}

static void pingpong_main1(void *arg)
{
	(void)arg;
	(pp_use_sem ? pingpong_sem_side : pingpong_cv_side)(&pp_state, 1);
}

/* One ping-pong run; masks NULL: unpinned. Watches progress: 5 s without
 * a round is a lost wakeup. Returns 0 when both sides finished. */
static int pingpong_run(const char *what, const struct cpuset *m0, const struct cpuset *m1)
{
	struct pingpong *pp = &pp_state;
	uint64_t rounds = pp->rounds;
	memset(pp, 0, sizeof(*pp));
	pp->rounds = rounds;
	mutex_init(&pp->m, "pingpong");
	waitq_init(&pp->cv, "pingpong");
	sem_init(&pp->sem[0], 0, "ping");
	sem_init(&pp->sem[1], 0, "pong");
	struct thread_attr a0 = { .affinity = m0 }, a1 = { .affinity = m1 };
	struct thread *t0 = thread_create("ping", pingpong_main0, NULL, &a0);
	struct thread *t1 = thread_create("pong", pingpong_main1, NULL, &a1);
	if (!t0 || !t1)
		return printk("pingpong: out of memory\n"), 1;
	uint64_t last = 0, still = 0;
	while (pp->done[0] < rounds || pp->done[1] < rounds) {
		thread_sleep_ns(100 * MS);
		uint64_t now = pp->done[0] + pp->done[1];
		still = now == last ? still + 1 : 0;
		last = now;
		if (still >= 50) {
			printk("pingpong: %s: STALLED at rounds %lu/%lu (lost wakeup); FAILED\n", what,
			       pp->done[0], pp->done[1]);
			return 1;
		}
	}
	thread_join(t0);
	thread_join(t1);
	printk("pingpong: %s: %lu rounds each side; ok\n", what, rounds);
	return 0;
}

/* `schedtest pingpong [ROUNDS]`: condition variable pair unpinned, then a
 * semaphore pair pinned to two different CPUs (every wakeup remote). */
static int schedtest_pingpong(uint64_t rounds)
{
	pp_state.rounds = rounds;
	pp_use_sem = 0;
	if (pingpong_run("cv", NULL, NULL))
		return 1;
	unsigned last = smp_cpu_count() - 1;
	if (last == 0)
		return 0;
	struct cpuset c0, c1;
	cpuset_zero(&c0);
	cpuset_zero(&c1);
	cpuset_set(&c0, 0);
	cpuset_set(&c1, last);
	pp_use_sem = 1;
	pp_state.rounds = rounds;
	return pingpong_run("sem pinned", &c0, &c1);
}

/* ---- pin ---- */

struct pin_run {
	uint64_t end_ns;
	uint64_t samples;
	struct cpuset seen;
};

/* Records its CPU while mixing work(), sleeping and yielding. */
static void pin_main(void *arg)
{
	struct pin_run *pr = arg;
	for (uint32_t i = 0; time_ns() < pr->end_ns; i++) {
		seen_add(&pr->seen);
		pr->samples++;
		if (i % 3 == 0)
			work(2 * MS);
		else if (i % 3 == 1)
			thread_sleep_ns(5 * MS);
		else
			thread_yield();
	}
}

/* Body of a hog: work() in 1 ms steps until the time in arg (ns). */
static void hog_main(void *arg)
{
	uint64_t end = (uint64_t)arg;
	while (time_ns() < end)
		work(MS);
}

/* Starts n detached CPU hogs running until end_ns; returns how many. */
static unsigned hogs_start(unsigned n, uint64_t end_ns)
{
	struct thread_attr attr = { .detached = 1 };
	unsigned made = 0;
	for (; made < n; made++)
		if (!thread_create("hog", hog_main, (void *)end_ns, &attr))
			break;
	return made;
}

/* Prints "NAME: cpu C: S samples, ran on: LIST; ok|FAILED". */
static int pin_report(const char *what, unsigned cpu, const struct pin_run *pr)
{
	char list[64];
	topo_cpulist(&pr->seen, list, sizeof(list));
	int ok = pr->samples > 0 && cpuset_count(&pr->seen) == 1 && cpuset_isset(&pr->seen, cpu);
	printk("pin: %s cpu %u: %lu samples, ran on: %s; %s\n", what, cpu, pr->samples, list,
	       ok ? "ok" : "FAILED");
	return !ok;
}

/* `schedtest pin [CPU] [MS]`: a thread pinned to CPU (default the last)
 * among 2 hogs per CPU; halfway it is re-pinned to CPU 0 by
 * thread_set_affinity(), and must move there and stay. */
static int schedtest_pin(uint64_t cpu, uint64_t ms)
{
	if (cpu >= smp_cpu_count() || !smp_cpu_online((unsigned)cpu))
		return printk("pin: no cpu %lu\n", cpu), 1;
	static struct pin_run first, second;
	memset(&first, 0, sizeof(first));
	memset(&second, 0, sizeof(second));
	uint64_t t0 = time_ns();
	hogs_start(2 * smp_online_count(), t0 + ms * MS);
	struct cpuset mask;
	cpuset_zero(&mask);
	cpuset_set(&mask, (unsigned)cpu);
	struct thread_attr attr = { .affinity = &mask };
	first.end_ns = t0 + ms * MS / 2;
	struct thread *td = thread_create("pinned", pin_main, &first, &attr);
	if (!td)
		return printk("pin: out of memory\n"), 1;
	thread_join(td);
	int bad = pin_report("pinned", (unsigned)cpu, &first);
	/* The same thread body again, started on `cpu`, then moved to CPU 0. */
	second.end_ns = t0 + ms * MS;
	td = thread_create("repinned", pin_main, &second, &attr);
	if (!td)
		return printk("pin: out of memory\n"), 1;
	thread_sleep_ns(20 * MS);
	struct cpuset zero;
	cpuset_zero(&zero);
	cpuset_set(&zero, 0);
	uint64_t before = second.samples;
	thread_set_affinity(td, &zero);
	thread_sleep_ns(20 * MS);   /* let it switch at least once */
	memset(&second.seen, 0, sizeof(second.seen));
	second.samples = 0;
	thread_join(td);
	printk("pin: repinned: %lu samples on cpu %lu before the move\n", before, cpu);
	return bad | pin_report("repinned", 0, &second);
}

/* ---- latency ---- */

struct latency {
	uint64_t end_ns;
	uint64_t wakeups, total_ns, max_ns;
	int pri;
};

/* Sleeps 30 ms at a time and measures how late it runs after each timer. */
static void latency_main(void *arg)
{
	struct latency *lt = arg;
	while (time_ns() < lt->end_ns) {
		uint64_t due = time_ns() + 30 * MS;
		thread_sleep_ns(30 * MS);
		uint64_t late = time_ns() - due;
		lt->wakeups++;
		lt->total_ns += late;
		if (late > lt->max_ns)
			lt->max_ns = late;
		work(MS / 2);
	}
	lt->pri = thread_current()->ts.ts_pri;
}

/* `schedtest latency [MS]`: an interactive thread (sleeps 30 ms, runs
 * 0.5 ms) gets 1 s to show its nature, then runs MS more among 2 CPU hogs
 * per CPU; prints its priority, the hogs' worst priority and its
 * wakeup-to-run delay among the hogs in ticks (the timer itself fires on
 * a tick, so up to 1 tick of that is the timer's resolution). */
static int schedtest_latency(uint64_t ms)
{
	static struct latency lt;
	memset(&lt, 0, sizeof(lt));
	lt.end_ns = UINT64_MAX;
	struct thread *td = thread_create("interactive", latency_main, &lt, NULL);
	if (!td)
		return printk("latency: out of memory\n"), 1;
	thread_sleep_ns(1000 * MS);
	lt.end_ns = time_ns() + ms * MS;
	lt.wakeups = lt.total_ns = lt.max_ns = 0;
	unsigned hogs = hogs_start(2 * smp_online_count(), lt.end_ns + 200 * MS);
	thread_sleep_ns(ms * MS / 2);
	int hog_pri = 0;
	size_t n;
	struct thread_info *ti = kcalloc(1024, sizeof(*ti));
	if (ti) {
		n = thread_snapshot(ti, 1024);
		for (size_t i = 0; i < n; i++)
			if (strcmp(ti[i].name, "hog") == 0 && ti[i].pri > hog_pri)
				hog_pri = ti[i].pri;
		kfree(ti);
	}
	thread_join(td);
	uint64_t tick = 1000000000ull / TIMER_HZ;
	uint64_t avg = lt.wakeups ? lt.total_ns / lt.wakeups : 0;
	printk("latency: %lu wakeups among %u hogs; delay max %lu.%02lu avg %lu.%02lu ticks; "
	       "pri %d (interactive %d..%d), hogs pri %d\n", lt.wakeups, hogs, lt.max_ns / tick,
	       lt.max_ns * 100 / tick % 100, avg / tick, avg * 100 / tick % 100, lt.pri,
	       PRI_MIN_INTERACT, PRI_MAX_INTERACT, hog_pri);
	return 0;
}

#define STORM_MAX 4096
#define PINGPONG_MAX 10000000

/* Argument i (named what) as a number in min..max, or dflt when absent;
 * -1 after printing why. */
static int arg_u64(int argc, char **argv, int i, const char *what, uint64_t min, uint64_t max,
		   uint64_t dflt, uint64_t *out)
{
	*out = dflt;
	return i < argc ? shell_arg_u64("schedtest", what, argv[i], 0, min, max, out) : 0;
}

static int cmd_schedtest(int argc, char **argv)
{
	if (!thread_sched_running())
		return printk("schedtest: the scheduler is off (sched=off)\n"), 1;
	uint64_t a, b;
	const char *t = argv[1];
	if (strcmp(t, "storm") == 0) {
		if (arg_u64(argc, argv, 2, "N", 1, STORM_MAX, 300, &a) ||
		    arg_u64(argc, argv, 3, "MS", 1, SHELL_MS_MAX, 2000, &b))
			return 1;
		return schedtest_storm(a, b);
	}
	if (strcmp(t, "pingpong") == 0) {
		if (argc > 3)
			return shell_usage("schedtest"), 1;
		return arg_u64(argc, argv, 2, "ROUNDS", 1, PINGPONG_MAX, 2000, &a) ? 1
										    : schedtest_pingpong(a);
	}
	if (strcmp(t, "pin") == 0) {
		if (arg_u64(argc, argv, 2, "CPU", 0, smp_cpu_count() - 1, smp_cpu_count() - 1, &a) ||
		    arg_u64(argc, argv, 3, "MS", 1, SHELL_MS_MAX, 2000, &b))
			return 1;
		return schedtest_pin(a, b);
	}
	if (strcmp(t, "latency") == 0) {
		if (argc > 3)
			return shell_usage("schedtest"), 1;
		return arg_u64(argc, argv, 2, "MS", 1, SHELL_MS_MAX, 3000, &a) ? 1 : schedtest_latency(a);
	}
	shell_usage("schedtest");
	return 1;
}
SHELL_COMMAND(schedtest, 1, 3, "storm [N] [MS] | pingpong [ROUNDS] | pin [CPU] [MS] | latency [MS] "
	      "(N 1..4096, MS 1..600000, ROUNDS 1..10000000)",
	      "scheduler self-tests: thread storm, ping-pong wakeups, pinning, interactive "
	      "latency among hogs", cmd_schedtest);
