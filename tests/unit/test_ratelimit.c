/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of kernel/lib/ratelimit.c: a burst passes per window, the
 * rest is held back and counted, the count is handed to the first event
 * that passes again, and a zero rate lets everything through. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <lib/ratelimit.h>

#define MS 1000000ull

/* Events at times t[0..n): how many passed; *held_sum adds up every
 * held_before reported. */
static int run(struct ratelimit *rl, const uint64_t *t, int n, uint64_t interval, uint32_t burst,
	       uint32_t *held_sum)
{
	int passed = 0;
	for (int i = 0; i < n; i++) {
		uint32_t held;
		int p = ratelimit_pass(rl, t[i], interval, burst, &held);
		if (!p)
			assert_int_equal(held, 0);
		passed += p;
		*held_sum += held;
	}
	return passed;
}

static void test_a_burst_passes_then_the_rest_is_counted(void **state)
{
	(void)state;
	struct ratelimit rl = { 0 };
	uint64_t t[100];
	for (int i = 0; i < 100; i++)
		t[i] = 1000 * MS + (uint64_t)i * MS;   /* 100 events in 100 ms */
	uint32_t held = 0;
	assert_int_equal(run(&rl, t, 100, 5000 * MS, 10, &held), 10);
	assert_int_equal(held, 0);
	assert_int_equal(rl.held, 90);
	uint32_t before;
	assert_int_equal(ratelimit_pass(&rl, 1000 * MS + 4999 * MS, 5000 * MS, 10, &before), 0);
	assert_int_equal(ratelimit_pass(&rl, 1000 * MS + 5000 * MS, 5000 * MS, 10, &before), 1);
	assert_int_equal(before, 91);   /* the next window's first event says how many */
	assert_int_equal(rl.held, 0);
	assert_int_equal(ratelimit_pass(&rl, 1000 * MS + 5001 * MS, 5000 * MS, 10, &before), 1);
	assert_int_equal(before, 0);
}

static void test_a_steady_flood_passes_a_burst_per_window(void **state)
{
	(void)state;
	struct ratelimit rl = { 0 };
	static uint64_t t[10000];
	for (int i = 0; i < 10000; i++)
		t[i] = (uint64_t)(i + 1) * MS;   /* 1000 per second for 10 s */
	uint32_t held = 0;
	int passed = run(&rl, t, 10000, 5000 * MS, 10, &held);
	assert_int_equal(passed, 20);   /* windows [1 ms, 5001 ms) and [5001 ms, 10001 ms) */
	assert_int_equal(held + rl.held, 10000 - 20);
	assert_int_equal(held, 4990);   /* told with the second window's first event */
}

static void test_quiet_sources_are_never_held(void **state)
{
	(void)state;
	struct ratelimit rl = { 0 };
	uint64_t t[50];
	for (int i = 0; i < 50; i++)
		t[i] = (uint64_t)i * 1000 * MS;   /* one a second: 5 per 5 s window */
	uint32_t held = 0;
	assert_int_equal(run(&rl, t, 50, 5000 * MS, 10, &held), 50);
	assert_int_equal(held, 0);
}

static void test_zero_rate_lets_all_through(void **state)
{
	(void)state;
	struct ratelimit rl = { 0 };
	uint64_t t[30] = { 0 };
	uint32_t held = 0;
	assert_int_equal(run(&rl, t, 30, 0, 10, &held), 30);
	assert_int_equal(run(&rl, t, 30, 5000 * MS, 0, &held), 30);
	assert_int_equal(held, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_burst_passes_then_the_rest_is_counted),
		cmocka_unit_test(test_a_steady_flood_passes_a_burst_per_window),
		cmocka_unit_test(test_quiet_sources_are_never_held),
		cmocka_unit_test(test_zero_rate_lets_all_through),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
