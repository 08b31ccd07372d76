/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for sysctl lookup, listing, formatting and writing (kernel/lib/sysctl.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <lib/sysctl.h>
#include <kern/printk.h>
#include <string.h>
#include <lib/parse.h>

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

/* A family of three: "cpu.#.speed", values 10 * index + offset. */
static int64_t speed_offset;
static int three(void) { return 3; }
static void speed_get(int i, char *buf, size_t len) { ksnprintf(buf, len, "%lld", (long long)(10 * i + speed_offset)); }
static int speed_set(int i, const char *v, char *err, size_t len)
{
	int64_t x;
	if (parse_i64_range(v, 0, 99, &x, "speed", err, len))
		return -1;
	speed_offset = x - 10 * i;
	return 0;
}

static const struct sysctl_oid oids[] = {
	{ .name = "cpu.#.speed", .descr = "family", .type = SYSCTL_TYPE_HANDLER, .writable = 1,
	  .count = three, .get = speed_get, .set = speed_set },
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
	  .ptr = &gated, .min = 0, .max = 10, .int_set = gated_set },
};
static const struct sysctl_set set = { oids, oids + sizeof(oids) / sizeof(oids[0]) };

/* The variable called name (the test fails if there is none). */
static struct sysctl_ref ref(const char *name)
{
	struct sysctl_ref r;
	assert_int_equal(sysctl_find(&set, name, &r), 0);
	return r;
}

static int write(const char *name, const char *value, char *err, size_t len)
{
	struct sysctl_ref r = ref(name);
	return sysctl_write(&r, value, err, len);
}

static void test_find_and_format(void **state)
{
	(void)state;
	char buf[32];
	struct sysctl_ref r;
	assert_int_equal(sysctl_find(&set, "kern", &r), -1);
	assert_int_equal(sysctl_find(&set, "kern.hz.x", &r), -1);
	assert_int_equal(sysctl_find(&set, "cpu.#.speed", &r), -1);   /* the template is no name */
	assert_int_equal(sysctl_find(&set, "cpu.3.speed", &r), -1);   /* beyond the family */
	r = ref("kern.hz");
	sysctl_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "100");
	r = ref("kern.name");
	sysctl_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "abc");
	r = ref("hw.answer");
	sysctl_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "42");
	r = ref("cpu.2.speed");
	assert_int_equal(r.index, 2);
	sysctl_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "20");
}

static void test_listing_is_sorted_and_prefix_exact(void **state)
{
	(void)state;
	const char *expect_all[] = { "cpu.0.speed", "cpu.1.speed", "cpu.2.speed", "debug.any",
				     "debug.gated", "debug.level", "hw.answer", "kern.hz", "kern.name",
				     "kernel.other" };
	struct sysctl_ref r = { NULL, -1 };
	char name[SYSCTL_NAME_MAX];
	size_t i = 0;
	while (sysctl_next(&set, &r, "") == 0) {
		sysctl_name(&r, name, sizeof(name));
		assert_string_equal(name, expect_all[i++]);
	}
	assert_int_equal(i, 10);
	r = (struct sysctl_ref){ NULL, -1 };
	assert_int_equal(sysctl_next(&set, &r, "kern"), 0);
	assert_string_equal(r.oid->name, "kern.hz");
	assert_int_equal(sysctl_next(&set, &r, "kern"), 0);
	assert_string_equal(r.oid->name, "kern.name");
	assert_int_equal(sysctl_next(&set, &r, "kern"), -1);   /* not kernel.other */
	r = (struct sysctl_ref){ NULL, -1 };
	assert_int_equal(sysctl_next(&set, &r, "kern.hz"), 0);
	assert_string_equal(r.oid->name, "kern.hz");
	r = (struct sysctl_ref){ NULL, -1 };
	assert_int_equal(sysctl_next(&set, &r, "ker"), -1);
	r = (struct sysctl_ref){ NULL, -1 };
	assert_int_equal(sysctl_next(&set, &r, "cpu.1"), 0);   /* one member of a family */
	assert_int_equal(r.index, 1);
	assert_int_equal(sysctl_next(&set, &r, "cpu.1"), -1);
}

/* Numbers in names order by value: cpu.2 before cpu.10, as FreeBSD lists them. */
static void test_numeric_name_order(void **state)
{
	(void)state;
	assert_true(sysctl_name_cmp("kern.hmp.cpu.2.capacity", "kern.hmp.cpu.10.capacity") < 0);
	assert_true(sysctl_name_cmp("kern.hmp.cpu.10", "kern.hmp.cpu.9") > 0);
	assert_true(sysctl_name_cmp("a.07", "a.7") > 0);   /* equal values: the shorter first */
	assert_true(sysctl_name_cmp("a.7", "a.7") == 0);
	assert_true(sysctl_name_cmp("a.7b", "a.7a") > 0);
	assert_true(sysctl_name_cmp("a.b", "a.b.c") < 0);
	assert_true(sysctl_name_cmp("a.9", "a.b") < 0);   /* a digit before a letter, as bytes */
	assert_true(sysctl_name_cmp("x99999999999999999999999", "x100000000000000000000000") < 0);
}

static int twelve(void) { return 12; }
static void id_get(int i, char *buf, size_t len) { ksnprintf(buf, len, "%d", i); }
static const struct sysctl_oid many[] = {
	{ .name = "hw.cpu.#.id", .descr = "twelve", .type = SYSCTL_TYPE_HANDLER, .count = twelve,
	  .get = id_get },
	{ .name = "hw.cpu2", .descr = "after the family", .type = SYSCTL_TYPE_INT, .ptr = &hz },
};

static void test_family_lists_in_numeric_order(void **state)
{
	(void)state;
	const struct sysctl_set s12 = { many, many + 2 };
	struct sysctl_ref r = { NULL, -1 };
	char name[SYSCTL_NAME_MAX], want[SYSCTL_NAME_MAX];
	for (int i = 0; i < 12; i++) {
		assert_int_equal(sysctl_next(&s12, &r, "hw"), 0);
		sysctl_name(&r, name, sizeof(name));
		ksnprintf(want, sizeof(want), "hw.cpu.%d.id", i);
		assert_string_equal(name, want);
	}
	assert_int_equal(sysctl_next(&s12, &r, "hw"), 0);
	assert_string_equal(r.oid->name, "hw.cpu2");
	assert_int_equal(sysctl_next(&s12, &r, "hw"), -1);
}

static void test_writes(void **state)
{
	(void)state;
	char err[96];
	assert_int_equal(write("debug.level", "7", err, sizeof(err)), 0);
	assert_int_equal(level, 7);
	assert_int_equal(write("debug.level", "0x9", err, sizeof(err)), 0);
	assert_int_equal(level, 9);
	assert_int_equal(write("debug.any", "-9223372036854775808", err,
				      sizeof(err)), 0);
	assert_int_equal(free_int, INT64_MIN);
	assert_int_equal(write("kern.name", "xyz1234", err, sizeof(err)), 0);
	assert_string_equal(name_buf, "xyz1234");
}

static void test_family_writes(void **state)
{
	(void)state;
	char err[96], buf[32];
	speed_offset = 0;
	assert_int_equal(write("cpu.1.speed", "15", err, sizeof(err)), 0);
	struct sysctl_ref r = ref("cpu.1.speed");
	sysctl_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "15");
	assert_int_equal(write("cpu.1.speed", "100", err, sizeof(err)), -1);
	assert_string_equal(err, "speed: 100 is outside 0..99");
	sysctl_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "15");
}

static void test_bad_writes_change_nothing(void **state)
{
	(void)state;
	char err[96];
	level = 5;
	assert_int_equal(write("kern.hz", "1000", err, sizeof(err)), -1);
	assert_string_equal(err, "kern.hz is read-only");
	assert_int_equal(hz, 100);
	assert_int_equal(write("debug.level", "10", err, sizeof(err)), -1);
	assert_string_equal(err, "debug.level: 10 is outside 0..9");
	assert_int_equal(write("debug.level", "4x", err, sizeof(err)), -1);
	assert_string_equal(err, "debug.level: '4x' is not a number (0..9)");
	assert_int_equal(write("debug.level", "", err, sizeof(err)), -1);
	assert_int_equal(write("debug.level", "-", err, sizeof(err)), -1);
	assert_int_equal(write("debug.any", "9223372036854775808", err,
				      sizeof(err)), -1);
	assert_int_equal(write("debug.any", "99999999999999999999", err,
				      sizeof(err)), -1);
	assert_int_equal(level, 5);
	strcpy(name_buf, "abc");
	assert_int_equal(write("kern.name", "12345678", err, sizeof(err)), -1);
	assert_string_equal(err, "kern.name: value longer than 7 characters");
	assert_string_equal(name_buf, "abc");
	assert_int_equal(write("hw.answer", "1", err, sizeof(err)), -1);
}

/* A write hook sees only values inside the range, and decides itself. */
static void test_write_hook(void **state)
{
	(void)state;
	char err[96];
	gated = 0;
	gated_calls = 0;
	assert_int_equal(write("debug.gated", "4", err, sizeof(err)), 0);
	assert_int_equal(gated, 4);
	assert_int_equal(write("debug.gated", "5", err, sizeof(err)), -1);
	assert_string_equal(err, "debug.gated: 5 is odd");
	assert_int_equal(write("debug.gated", "12", err, sizeof(err)), -1);
	assert_string_equal(err, "debug.gated: 12 is outside 0..10");
	assert_int_equal(gated, 4);
	assert_int_equal(gated_calls, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_and_format),
		cmocka_unit_test(test_listing_is_sorted_and_prefix_exact),
		cmocka_unit_test(test_numeric_name_order),
		cmocka_unit_test(test_family_lists_in_numeric_order),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_family_writes),
		cmocka_unit_test(test_bad_writes_change_nothing),
		cmocka_unit_test(test_write_hook),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
