/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the bounded string builder (kernel/lib/strbuf.c) and the
 * range-checked number parsers (kernel/lib/parse.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <lib/strbuf.h>
#include <lib/parse.h>

/* Fills a 4-byte buffer (3 characters + NUL); the 4th character is refused
 * whole and the guard byte after the buffer is never touched. */
static void test_room_before_every_byte(void **state)
{
	(void)state;
	char mem[5];
	memset(mem, 'G', sizeof(mem));
	struct strbuf sb;
	strbuf_init(&sb, mem, 4);
	assert_int_equal(strbuf_putc(&sb, 'a'), 0);
	assert_int_equal(strbuf_puts(&sb, "bc"), 0);
	assert_true(strbuf_ok(&sb));
	assert_int_equal(strbuf_putc(&sb, 'd'), -1);
	assert_false(strbuf_ok(&sb));
	assert_string_equal(mem, "abc");
	assert_int_equal(mem[4], 'G');
}

static void test_all_or_nothing(void **state)
{
	(void)state;
	char mem[8];
	struct strbuf sb;
	strbuf_init(&sb, mem, sizeof(mem));
	assert_int_equal(strbuf_puts(&sb, "abcd"), 0);
	assert_int_equal(strbuf_puts(&sb, "efgh"), -1);   /* 4 + 4 + NUL > 8 */
	assert_string_equal(mem, "abcd");
	assert_int_equal(strbuf_printf(&sb, "%d", 12345), -1);
	assert_string_equal(mem, "abcd");
	assert_int_equal(sb.len, 4);
	strbuf_init(&sb, mem, sizeof(mem));
	assert_int_equal(strbuf_printf(&sb, "%s=%d", "k", 42), 0);
	assert_string_equal(mem, "k=42");
	assert_int_equal(strbuf_put(&sb, "xyz", 3), 0);   /* exactly fills: 7 + NUL */
	assert_string_equal(mem, "k=42xyz");
	assert_true(strbuf_ok(&sb));
}

static void test_zero_size(void **state)
{
	(void)state;
	struct strbuf sb;
	strbuf_init(&sb, NULL, 0);
	assert_false(strbuf_ok(&sb));
	assert_int_equal(strbuf_putc(&sb, 'x'), -1);
	assert_int_equal(strbuf_printf(&sb, "x"), -1);
}

static void test_u64_range_messages(void **state)
{
	(void)state;
	char err[96];
	uint64_t v = 9;
	assert_int_equal(parse_u64_range("250", 1, 512, &v, "threads", err, sizeof(err)), 0);
	assert_int_equal(v, 250);
	assert_int_equal(parse_u64_range("513", 1, 512, &v, "threads", err, sizeof(err)), -1);
	assert_string_equal(err, "threads: 513 is outside 1..512");
	assert_int_equal(parse_u64_range("0", 1, 512, &v, "threads", err, sizeof(err)), -1);
	assert_int_equal(parse_u64_range("x1", 1, 512, &v, "threads", err, sizeof(err)), -1);
	assert_string_equal(err, "threads: 'x1' is not a number (1..512)");
	assert_int_equal(parse_u64_range("99999999999999999999", 0, UINT64_MAX, &v, "n", err, sizeof(err)), -1);
	assert_int_equal(v, 250);
	/* a long input is echoed cut, never overflowing err */
	char longin[200];
	memset(longin, 'z', sizeof(longin) - 1);
	longin[sizeof(longin) - 1] = 0;
	assert_int_equal(parse_u64_range(longin, 0, 1, &v, "n", err, sizeof(err)), -1);
	assert_true(strlen(err) < sizeof(err));
}

static void test_i64_range(void **state)
{
	(void)state;
	char err[96];
	int64_t v = 0;
	assert_int_equal(parse_i64_range("-20", -20, 20, &v, "nice", err, sizeof(err)), 0);
	assert_int_equal(v, -20);
	assert_int_equal(parse_i64_range("-21", -20, 20, &v, "nice", err, sizeof(err)), -1);
	assert_string_equal(err, "nice: -21 is outside -20..20");
	assert_int_equal(parse_i64_range("--1", -20, 20, &v, "nice", err, sizeof(err)), -1);
	assert_int_equal(v, -20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_room_before_every_byte),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_zero_size),
		cmocka_unit_test(test_u64_range_messages),
		cmocka_unit_test(test_i64_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
