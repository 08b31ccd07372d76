/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for number parsing (kernel/lib/parse.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <lib/parse.h>

static void test_bases(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(parse_u64("1234", 10, &v), 0);
	assert_int_equal(v, 1234);
	assert_int_equal(parse_u64("ff", 16, &v), 0);
	assert_int_equal(v, 255);
	assert_int_equal(parse_u64("0x1A", 16, &v), 0);
	assert_int_equal(v, 26);
	assert_int_equal(parse_u64("0x1a", 0, &v), 0);
	assert_int_equal(v, 26);
	assert_int_equal(parse_u64("077", 0, &v), 0);   /* decimal, not octal */
	assert_int_equal(v, 77);
	assert_int_equal(parse_u64("0x10", 10, &v), -1);  /* decimal only */
	assert_int_equal(parse_u64("ff", 0, &v), -1);
	assert_int_equal(parse_u64("ff", 10, &v), -1);
}

static void test_rejects_junk_and_overflow(void **state)
{
	(void)state;
	uint64_t v = 7;
	const char *bad[] = { "", "0x", "12a", " 1", "1 ", "-1", "+1", "18446744073709551616",
			      "0x10000000000000000" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_u64(bad[i], 0, &v), -1);
	assert_int_equal(v, 7);   /* untouched on failure */
	assert_int_equal(parse_u64("18446744073709551615", 0, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_u64("0xffffffffffffffff", 0, &v), 0);
	assert_true(v == UINT64_MAX);
}

static void test_signed(void **state)
{
	(void)state;
	int64_t v;
	assert_int_equal(parse_i64("-42", &v), 0);
	assert_int_equal(v, -42);
	assert_int_equal(parse_i64("-0x10", &v), 0);
	assert_int_equal(v, -16);
	assert_int_equal(parse_i64("9223372036854775807", &v), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(parse_i64("-9223372036854775808", &v), 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(parse_i64("9223372036854775808", &v), -1);
	assert_int_equal(parse_i64("-9223372036854775809", &v), -1);
	assert_int_equal(parse_i64("-", &v), -1);
	assert_int_equal(parse_i64("--1", &v), -1);
}

/* The range parser in a fixed base names the range in that base. */
static void test_range_base(void **state)
{
	(void)state;
	char err[96];
	uint64_t v = 5;
	assert_int_equal(parse_u64_range_base("1f", 16, 0, 0xffffffff, &v, "LEAF", err, sizeof(err)), 0);
	assert_int_equal(v, 0x1f);
	assert_int_equal(parse_u64_range_base("0x80000008", 16, 0, 0xffffffff, &v, "LEAF", err,
					      sizeof(err)), 0);
	assert_int_equal(v, 0x80000008);
	v = 5;
	assert_int_equal(parse_u64_range_base("zz", 16, 0, 0xffffffff, &v, "LEAF", err, sizeof(err)), -1);
	assert_string_equal(err, "LEAF: 'zz' is not a hex number (0x0..0xffffffff)");
	assert_int_equal(parse_u64_range_base("100000000", 16, 0, 0xffffffff, &v, "LEAF", err,
					      sizeof(err)), -1);
	assert_string_equal(err, "LEAF: 100000000 is outside 0x0..0xffffffff");
	assert_int_equal(v, 5);
	assert_int_equal(parse_u64_range_base("0x7f", 10, 0, 127, &v, "status", err, sizeof(err)), -1);
	assert_string_equal(err, "status: '0x7f' is not a number (0..127)");
	assert_int_equal(parse_u64_range_base("127", 10, 0, 127, &v, "status", err, sizeof(err)), 0);
	assert_int_equal(v, 127);
	assert_int_equal(parse_u64_range_base("0x7f", 0, 0, 127, &v, "status", err, sizeof(err)), 0);
	assert_int_equal(v, 127);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bases),
		cmocka_unit_test(test_rejects_junk_and_overflow),
		cmocka_unit_test(test_signed),
		cmocka_unit_test(test_range_base),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
