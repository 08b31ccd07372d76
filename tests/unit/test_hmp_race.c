/* SPDX-License-Identifier: BSD-2-Clause */
/* Race test of hmp's lock-free publication (kernel/sched/hmp.c) on host
 * threads under ThreadSanitizer: two writers keep changing every CPU's
 * capacity and scores (each record kept self-consistent: capacity = perf
 * = ee on CPUs 1..n-1) while two readers check that every record they read
 * is whole (never half old, half new) and that generations never go
 * backwards. The test also proves the race took place: each reader must
 * have seen records change under it while the writers wrote (writers go
 * on past ROUNDS, up to 50 times as long, until both readers have). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <cmocka.h>
#include <sched/hmp.h>
#include <tests/unit/sched_plat_mt.h>

const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1";
}

#define NCPU 8
#define ROUNDS 20000
#define CHANGES_WANTED 100     /* changes each reader must see during writes */
static int stop;
static int writers_active;     /* writers still in their loop (atomic) */
static long torn, backwards;   /* what the readers saw wrong (atomic) */
static long changes_seen[2];   /* per reader: new generations read while writers wrote */

/* The fewer changes either reader has seen so far. Lock-free. */
static long fewest_changes_seen(void)
{
	long a = __atomic_load_n(&changes_seen[0], __ATOMIC_RELAXED);
	long b = __atomic_load_n(&changes_seen[1], __ATOMIC_RELAXED);
	return a < b ? a : b;
}

/* CPU 0 stays at 1024 (so no rescaling); CPUs 1.. get 4 * v for all three,
 * 64..1020 (capacities below HMP_CAPACITY_MIN would be raised). */
static void *writer(void *arg)
{
	uint64_t v = (uint64_t)(intptr_t)arg;
	mt_self = 0;
	for (int i = 0; i < ROUNDS || (fewest_changes_seen() < CHANGES_WANTED && i < 50 * ROUNDS);
	     i++) {
		v = (v * 1103515245 + 12345) & 0xffff;
		int val = 4 * (int)(16 + v % 240);
		hmp_provide(HMP_PROV_MANUAL, 0, HMP_CAPACITY, 1024, 0, 0);
		for (int c = 1; c < NCPU; c++)
			hmp_provide(HMP_PROV_MANUAL, c, HMP_CAPACITY | HMP_PERF | HMP_EE, val, val, val);
		hmp_publish();
	}
	__atomic_fetch_sub(&writers_active, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *reader(void *arg)
{
	long *changes = arg;
	uint64_t last[NCPU] = { 0 };
	long reads = 0;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE) || reads < 1000) {
		for (int c = 1; c < NCPU; c++) {
			struct hmp_cpu r;
			int during_writes = __atomic_load_n(&writers_active, __ATOMIC_ACQUIRE) > 0;
			hmp_read(c, &r);
			if (r.capacity_from == HMP_PROV_MANUAL && (r.capacity != r.perf || r.perf != r.ee))
				__atomic_fetch_add(&torn, 1, __ATOMIC_RELAXED);
			if (r.generation < last[c])
				__atomic_fetch_add(&backwards, 1, __ATOMIC_RELAXED);
			if (during_writes && last[c] && r.generation != last[c])
				__atomic_fetch_add(changes, 1, __ATOMIC_RELAXED);
			last[c] = r.generation;
			reads++;
		}
	}
	return NULL;
}

static void test_readers_see_whole_records(void **state)
{
	(void)state;
	mt_self = 0;
	mt_reset(NCPU, NULL);
	hmp_init(NCPU);
	pthread_t w[2], r[2];
	writers_active = 2;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pthread_create(&r[i], NULL, reader, &changes_seen[i]), 0);
		assert_int_equal(pthread_create(&w[i], NULL, writer, (void *)(intptr_t)(i + 1)), 0);
	}
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(w[i], NULL), 0);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(r[i], NULL), 0);
	assert_int_equal(torn, 0);
	assert_int_equal(backwards, 0);
	assert_true(changes_seen[0] >= CHANGES_WANTED);
	assert_true(changes_seen[1] >= CHANGES_WANTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readers_see_whole_records),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
