/* SPDX-License-Identifier: BSD-2-Clause */
/* Race test of the ULE core (kernel/sched/ule_*.c) on real host threads:
 * four pthreads play four CPUs (sched_plat_mt.c) and, for a fixed number
 * of steps each, run, yield, sleep and get preempted, pin and unpin, tick,
 * wake each other's threads, and change nice values and CPU masks of
 * threads in every state — the changes that race with wake-ups and migrations. Run
 * queue invariants are checked after every queue change
 * (kern.sched.debug), ThreadSanitizer reports any access to a thread that
 * its tdq locks do not order, and at the end every thread is in exactly
 * one place: running on one CPU, queued once, or asleep (no lost wake-up). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>
#include <cmocka.h>
#include <sched/ule.h>
#include <sched/hmp.h>
#include <tests/unit/sched_plat_mt.h>
#include <tests/unit/ut_topo.h>

/* A race report ends the test at once (ThreadSanitizer builds). */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1";
}

#define NCPU 4
#define NTHREAD 24
#define STEPS 50000

/* A thread as the thread layer sees it: the core's part, whether it is
 * asleep (set before its sleep switch, cleared by the one waker that wins
 * it), and the CPU whose context it is (-1 once that CPU let go of it). */
struct rt {
	struct td_sched ts;
	int asleep;
	int oncpu;
};
static struct rt thr[NTHREAD];
static struct rt *cur_of[NCPU];   /* each CPU's running thread; its pthread only */

static struct rt *rt_of(struct td_sched *ts)
{
	return (struct rt *)((char *)ts - offsetof(struct rt, ts));
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	return *s;
}

/* Switches the calling CPU away from its current thread (how: SCHED_SW_*)
 * and takes the next one, first waiting until the CPU that ran it last has
 * let go of it (the kernel's on_cpu word, sched.h rule 3). */
static void do_switch(int self, int how)
{
	struct rt *cur = cur_of[self];
	struct td_sched *n = sched_switch(cur ? &cur->ts : NULL, cur ? how : SCHED_SW_YIELD);
	struct rt *next = n ? rt_of(n) : NULL;
	if (next == cur)
		return;
	if (cur)
		__atomic_store_n(&cur->oncpu, -1, __ATOMIC_RELEASE);
	if (next) {
		int free_cpu = -1;
		while (!__atomic_compare_exchange_n(&next->oncpu, &free_cpu, self, 0, __ATOMIC_ACQUIRE,
						    __ATOMIC_RELAXED)) {
			free_cpu = -1;
			sched_yield();
		}
	}
	cur_of[self] = next;
}

/* A random non-empty set of the CPUs. */
static struct cpuset random_mask(uint64_t *seed)
{
	struct cpuset m;
	cpuset_zero(&m);
	unsigned bits = (unsigned)(rnd(seed) % ((1u << NCPU) - 1)) + 1;
	for (int c = 0; c < NCPU; c++)
		if (bits & (1u << c))
			cpuset_set(&m, (unsigned)c);
	return m;
}

/* One step of CPU self: an event on its own thread, a tick, or a change
 * to a random thread anywhere. */
static void cpu_step(int self, uint64_t *seed)
{
	struct rt *cur = cur_of[self];
	struct rt *t = &thr[rnd(seed) % NTHREAD];
	unsigned a = (unsigned)(rnd(seed) % 100);
	int resched = 0;
	if (!cur && a < 30) {
		if (sched_idle(self))
			do_switch(self, SCHED_SW_YIELD);
	} else if (a < 12) {
		sched_sleep(&cur->ts);
		__atomic_store_n(&cur->asleep, 1, __ATOMIC_RELEASE);
		do_switch(self, SCHED_SW_SLEEP);
	} else if (a < 20) {
		do_switch(self, SCHED_SW_YIELD);
	} else if (a < 27) {
		do_switch(self, SCHED_SW_PREEMPT);
	} else if (a < 30) {
		if (cur->ts.ts_pinned)
			sched_unpin(&cur->ts);
		else
			sched_pin(&cur->ts);
	} else if (a < 40) {
		if (self == 0)
			__atomic_fetch_add(&mt.ticks, 1, __ATOMIC_RELAXED);
		if (sched_clock(self, cur ? &cur->ts : NULL, 1))
			do_switch(self, SCHED_SW_PREEMPT);
	} else if (a < 70) {
		int one = 1;
		if (__atomic_compare_exchange_n(&t->asleep, &one, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			resched = sched_wakeup(&t->ts);
	} else if (a < 85) {
		resched = sched_set_nice(&t->ts, (int)(rnd(seed) % 41) - 20);
	} else {
		struct cpuset m = random_mask(seed);
		resched = sched_set_affinity(&t->ts, &m);
	}
	if (resched & SCHED_RESCHED)
		do_switch(self, SCHED_SW_PREEMPT);
}

static void *cpu_main(void *arg)
{
	int self = (int)(intptr_t)arg;
	uint64_t seed = 0x9E3779B97F4A7C15ull * (uint64_t)(self + 1);
	mt_self = self;
	for (int step = 0; step < STEPS; step++) {
		if (__atomic_exchange_n(&mt.ipi_pending[self], 0, __ATOMIC_ACQ_REL)) {
			struct rt *cur = cur_of[self];
			if (sched_ipi(self, cur ? &cur->ts : NULL))
				do_switch(self, SCHED_SW_PREEMPT);
		}
		cpu_step(self, &seed);
	}
	return NULL;
}

/* After the run: the queues are consistent and every thread is in exactly
 * one place. The CPUs have stopped, so plain reads are exact. */
static void check_conservation(void)
{
	int running = 0, queued = 0, asleep = 0, load = 0;
	for (int c = 0; c < NCPU; c++) {
		sched_check_invariants(c);
		load += sched_cpu_load(c);
		if (cur_of[c]) {
			assert_ptr_equal(sched_cpu_curthread(c), &cur_of[c]->ts);
			assert_int_equal(cur_of[c]->ts.ts_cpu, c);
			assert_int_equal(cur_of[c]->oncpu, c);
		} else {
			assert_null(sched_cpu_curthread(c));
		}
	}
	for (int i = 0; i < NTHREAD; i++) {
		struct rt *t = &thr[i];
		assert_int_not_equal(t->ts.ts_lockcpu, SCHED_TS_LOCK_BLOCKED);
		switch (t->ts.ts_state) {
		case SCHED_TS_RUNNING:
			running++;
			assert_ptr_equal(cur_of[t->ts.ts_cpu], t);
			break;
		case SCHED_TS_RUNQ:
			queued++;
			assert_int_equal(t->oncpu, -1);
			break;
		default:
			asleep++;
			assert_int_equal(t->asleep, 1);   /* INACTIVE but not asleep: a lost wake-up */
			assert_int_equal(t->oncpu, -1);
		}
	}
	assert_int_equal(running + queued + asleep, NTHREAD);
	assert_int_equal(load, running + queued);
}

static void test_nice_affinity_race_wakeups(void **state)
{
	(void)state;
	mt_self = 0;
	mt_reset(NCPU, NULL);
	ut_topo_uniform(NCPU, 2, 1, 2);   /* root (L3) → SMT cores {0,1}, {2,3} */
	mt.root = ut_topo.root;
	hmp_init(NCPU);
	sched_init(ut_topo.root, NCPU);
	sched_debug = 1;
	sched_start_smp();
	for (int i = 0; i < NTHREAD; i++) {
		sched_thread_init(&thr[i].ts, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
		thr[i].oncpu = -1;
		sched_add(&thr[i].ts, 0);
	}
	pthread_t cpu[NCPU];
	for (int c = 0; c < NCPU; c++)
		assert_int_equal(pthread_create(&cpu[c], NULL, cpu_main, (void *)(intptr_t)c), 0);
	for (int c = 0; c < NCPU; c++)
		assert_int_equal(pthread_join(cpu[c], NULL), 0);
	mt_self = 0;
	check_conservation();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_affinity_race_wakeups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
