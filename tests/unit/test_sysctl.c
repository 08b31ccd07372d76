/* Host tests for sysctl lookup, listing, formatting and writing (kernel/lib/sysctl.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sysctl.h>
#include <printk.h>
#include <string.h>

static int64_t hz = 100, level = 3, free_int;
static char name_buf[8] = "abc";
static int64_t gated, gated_calls;

/* A write hook: stores even values, refuses odd ones with a reason. */
static int gated_set(int64_t v, char *err, size_t len)
{
	gated_calls++;
	if (v & 1) {
		ksnprintf(err, len, "debug.gated: %lld is odd", (long long)v);
		return -1;
	}
	gated = v;
	return 0;
}

static void answer_proc(char *buf, size_t len)
{
	ksnprintf(buf, len, "%d", 42);
}

static const struct sysctl_oid oids[] = {
	{ .name = "kern.hz", .descr = "ticks", .type = SYSCTL_TYPE_INT, .ptr = &hz },
	{ .name = "debug.level", .descr = "lvl", .type = SYSCTL_TYPE_INT, .writable = 1,
	  .ptr = &level, .min = 0, .max = 9 },
	{ .name = "debug.any", .descr = "any", .type = SYSCTL_TYPE_INT, .writable = 1,
	  .ptr = &free_int, .min = 1, .max = 0 },
	{ .name = "kern.name", .descr = "str", .type = SYSCTL_TYPE_STRING, .writable = 1,
	  .ptr = name_buf, .size = sizeof(name_buf) },
	{ .name = "hw.answer", .descr = "proc", .type = SYSCTL_TYPE_PROC, .proc = answer_proc },
	{ .name = "kernel.other", .descr = "not under kern", .type = SYSCTL_TYPE_INT, .ptr = &hz },
	{ .name = "debug.gated", .descr = "hook", .type = SYSCTL_TYPE_INT, .writable = 1,
	  .ptr = &gated, .min = 0, .max = 10, .set = gated_set },
};
static const struct sysctl_set set = { oids, oids + sizeof(oids) / sizeof(oids[0]) };

static void test_find_and_format(void **state)
{
	(void)state;
	char buf[32];
	assert_null(sysctl_find(&set, "kern"));
	assert_null(sysctl_find(&set, "kern.hz.x"));
	sysctl_format(sysctl_find(&set, "kern.hz"), buf, sizeof(buf));
	assert_string_equal(buf, "100");
	sysctl_format(sysctl_find(&set, "kern.name"), buf, sizeof(buf));
	assert_string_equal(buf, "abc");
	sysctl_format(sysctl_find(&set, "hw.answer"), buf, sizeof(buf));
	assert_string_equal(buf, "42");
}

static void test_listing_is_sorted_and_prefix_exact(void **state)
{
	(void)state;
	const char *expect_all[] = { "debug.any", "debug.gated", "debug.level", "hw.answer",
				     "kern.hz", "kern.name", "kernel.other" };
	const struct sysctl_oid *o = NULL;
	size_t i = 0;
	while ((o = sysctl_next(&set, o, "")))
		assert_string_equal(o->name, expect_all[i++]);
	assert_int_equal(i, 7);
	o = sysctl_next(&set, NULL, "kern");
	assert_string_equal(o->name, "kern.hz");
	o = sysctl_next(&set, o, "kern");
	assert_string_equal(o->name, "kern.name");
	assert_null(sysctl_next(&set, o, "kern"));   /* not kernel.other */
	o = sysctl_next(&set, NULL, "kern.hz");
	assert_string_equal(o->name, "kern.hz");
	assert_null(sysctl_next(&set, NULL, "ker"));
}

static void test_writes(void **state)
{
	(void)state;
	char err[96];
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.level"), "7", err, sizeof(err)), 0);
	assert_int_equal(level, 7);
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.level"), "0x9", err, sizeof(err)), 0);
	assert_int_equal(level, 9);
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.any"), "-9223372036854775808", err,
				      sizeof(err)), 0);
	assert_int_equal(free_int, INT64_MIN);
	assert_int_equal(sysctl_write(sysctl_find(&set, "kern.name"), "xyz1234", err, sizeof(err)), 0);
	assert_string_equal(name_buf, "xyz1234");
}

static void test_bad_writes_change_nothing(void **state)
{
	(void)state;
	char err[96];
	level = 5;
	assert_int_equal(sysctl_write(sysctl_find(&set, "kern.hz"), "1000", err, sizeof(err)), -1);
	assert_string_equal(err, "kern.hz is read-only");
	assert_int_equal(hz, 100);
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.level"), "10", err, sizeof(err)), -1);
	assert_string_equal(err, "debug.level: 10 is outside 0..9");
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.level"), "4x", err, sizeof(err)), -1);
	assert_string_equal(err, "debug.level: '4x' is not a number (0..9)");
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.level"), "", err, sizeof(err)), -1);
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.level"), "-", err, sizeof(err)), -1);
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.any"), "9223372036854775808", err,
				      sizeof(err)), -1);
	assert_int_equal(sysctl_write(sysctl_find(&set, "debug.any"), "99999999999999999999", err,
				      sizeof(err)), -1);
	assert_int_equal(level, 5);
	strcpy(name_buf, "abc");
	assert_int_equal(sysctl_write(sysctl_find(&set, "kern.name"), "12345678", err, sizeof(err)), -1);
	assert_string_equal(err, "kern.name: value longer than 7 characters");
	assert_string_equal(name_buf, "abc");
	assert_int_equal(sysctl_write(sysctl_find(&set, "hw.answer"), "1", err, sizeof(err)), -1);
}

/* A write hook sees only values inside the range, and decides itself. */
static void test_write_hook(void **state)
{
	(void)state;
	char err[96];
	const struct sysctl_oid *o = sysctl_find(&set, "debug.gated");
	gated = 0;
	gated_calls = 0;
	assert_int_equal(sysctl_write(o, "4", err, sizeof(err)), 0);
	assert_int_equal(gated, 4);
	assert_int_equal(sysctl_write(o, "5", err, sizeof(err)), -1);
	assert_string_equal(err, "debug.gated: 5 is odd");
	assert_int_equal(sysctl_write(o, "12", err, sizeof(err)), -1);
	assert_string_equal(err, "debug.gated: 12 is outside 0..10");
	assert_int_equal(gated, 4);
	assert_int_equal(gated_calls, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_and_format),
		cmocka_unit_test(test_listing_is_sorted_and_prefix_exact),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_bad_writes_change_nothing),
		cmocka_unit_test(test_write_hook),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
