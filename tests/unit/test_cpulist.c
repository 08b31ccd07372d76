/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the CPU-set and CPU-sequence parsers of `spawn … cpus=`
 * and `pin=` (kernel/lib/cpulist.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>
#include <lib/cpulist.h>

static char err[128];

/* The set as a list "0-3,6" (for comparisons). */
static const char *set_text(const struct cpuset *s)
{
	static char buf[1024];
	size_t n = 0;
	buf[0] = 0;
	for (int c = cpuset_first(s); c >= 0;) {
		int last = c;
		while (cpuset_isset(s, (unsigned)last + 1))
			last++;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, n ? ",%d" : "%d", c);
		if (last > c)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "-%d", last);
		c = cpuset_next(s, last);
	}
	return buf;
}

static void expect_set(const char *in, unsigned ncpu, const char *want)
{
	struct cpuset s;
	err[0] = 0;
	assert_int_equal(cpulist_parse(in, ncpu, &s, err, sizeof(err)), 0);
	assert_string_equal(set_text(&s), want);
}

static void expect_error(const char *in, unsigned ncpu, const char *want)
{
	struct cpuset s;
	assert_int_equal(cpulist_parse(in, ncpu, &s, err, sizeof(err)), -1);
	assert_string_equal(err, want);
}

static void test_lists_and_masks(void **state)
{
	(void)state;
	expect_set("0-3,6", 8, "0-3,6");
	expect_set("7", 8, "7");
	expect_set("3,1,2", 8, "1-3");
	expect_set("0xf", 8, "0-3");
	expect_set("0X81", 8, "0,7");
	expect_set("64-99", 100, "64-99");
	expect_set("255", 256, "255");
	expect_set("007", 8, "7");
}

/* A list longer than 63 characters is read whole (it was cut at 63 and the
 * wrong set accepted): the CPU at its end counts, and a bad one at its end
 * is refused. */
static void test_long_lists(void **state)
{
	(void)state;
	char list[512];
	size_t n = 0;
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d", i ? "," : "", i % 4);
	assert_true(n > 63);
	snprintf(list + n, sizeof(list) - n, ",19");
	expect_set(list, 20, "0-3,19");
	snprintf(list + n, sizeof(list) - n, ",25");
	expect_error(list, 20, "cpus: 25 is outside 0..19");
	for (int i = 0; i < 100; i++)   /* about 300 characters */
		n += (size_t)snprintf(list + n, sizeof(list) - n, ",%d", i % 20);
	expect_set(list, 20, "0-19");
}

/* CPUs beyond the machine are refused with the range, never dropped. */
static void test_refusals(void **state)
{
	(void)state;
	expect_error("20", 20, "cpus: 20 is outside 0..19");
	expect_error("0-20", 20, "cpus: 20 is outside 0..19");
	expect_error("0x100", 8, "cpus: mask 0x100 names cpu 8; this machine has cpus 0..7");
	expect_error("0xzz", 8, "cpus: '0xzz' is not a hex mask (0x1..0xff)");
	expect_error("0x10000000000000000", 80,
		     "cpus: '0x10000000000000000' is not a hex mask (0x1..0xffffffffffffffff)");
	expect_error("3-1", 8, "cpus: range 3-1 goes backwards");
	expect_error("1,,2", 8, "cpus: empty item in '1,,2' (a list like 0-3,6)");
	expect_error("1,", 8, "cpus: empty item in '1,' (a list like 0-3,6)");
	expect_error("", 8, "cpus: empty item in '' (a list like 0-3,6)");
	expect_error("1-", 8, "cpus: '' is not a number (0..7)");
	expect_error("-1", 8, "cpus: '' is not a number (0..7)");
	expect_error("a", 8, "cpus: 'a' is not a number (0..7)");
	expect_error("1-2-3", 8, "cpus: '2-3' is not a number (0..7)");
	expect_error("0000000000000000000000000001", 8,
		     "cpus: '000000000000000000000000...' is not a CPU number (0..7)");
	expect_error("1", 0, "cpus: no CPUs to choose from");
}

/* The sequence of in (at most max CPUs) as "2,12,4,5" (for comparisons). */
static const char *seq_text(const char *in, unsigned ncpu, unsigned max)
{
	static char buf[1024];
	unsigned cpus[64];
	size_t n = 0;
	assert_true(max <= 64);
	int count = cpulist_parse_seq(in, ncpu, cpus, max, err, sizeof(err));
	assert_true(count >= 1 && (unsigned)count <= max);
	buf[0] = 0;
	for (int i = 0; i < count; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, i ? ",%u" : "%u", cpus[i]);
	return buf;
}

static void expect_seq_error(const char *in, unsigned ncpu, unsigned max, const char *want)
{
	unsigned cpus[64];
	assert_int_equal(cpulist_parse_seq(in, ncpu, cpus, max, err, sizeof(err)), -1);
	assert_string_equal(err, want);
}

/* A sequence keeps the order and the repeats a set drops; it refuses what a
 * set refuses, masks, and more CPUs than there is room for. */
static void test_sequences(void **state)
{
	(void)state;
	assert_string_equal(seq_text("2,12,4-5,10,10", 20, 6), "2,12,4,5,10,10");
	assert_string_equal(seq_text("3,1,2", 8, 3), "3,1,2");
	assert_string_equal(seq_text("7", 8, 1), "7");
	assert_string_equal(seq_text("0-7", 8, 64), "0,1,2,3,4,5,6,7");
	expect_seq_error("0-7", 8, 7, "cpus: '0-7' names more than 7 CPUs");
	expect_seq_error("1,2,3", 8, 2, "cpus: '1,2,3' names more than 2 CPUs");
	expect_seq_error("0xf", 8, 4, "cpus: '0xf' is not a number (0..7)");
	expect_seq_error("20", 20, 4, "cpus: 20 is outside 0..19");
	expect_seq_error("3-1", 8, 4, "cpus: range 3-1 goes backwards");
	expect_seq_error("1,,2", 8, 4, "cpus: empty item in '1,,2' (a list like 0-3,6)");
	expect_seq_error("", 8, 4, "cpus: empty item in '' (a list like 0-3,6)");
	expect_seq_error("1", 0, 4, "cpus: no CPUs to choose from");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_and_masks),
		cmocka_unit_test(test_long_lists),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_sequences),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
