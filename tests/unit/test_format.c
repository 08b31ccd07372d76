/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for kvsnprintf (kernel/lib/format.c), compared with the C library. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <kern/printk.h>
#include <string.h>

static void same_as_libc(const char *fmt, ...)
{
	char ours[256], theirs[256];
	va_list a, b;
	va_start(a, fmt);
	va_copy(b, a);
	int n1 = kvsnprintf(ours, sizeof(ours), fmt, a);
	int n2 = vsnprintf(theirs, sizeof(theirs), fmt, b);
	va_end(a);
	va_end(b);
	assert_string_equal(ours, theirs);
	assert_int_equal(n1, n2);
}

static void test_integers(void **state)
{
	(void)state;
	same_as_libc("%d %i %u", -42, 17, 4000000000u);
	same_as_libc("%ld %lu %lld", -9223372036854775807L - 1, 18446744073709551615UL, 123LL);
	same_as_libc("%x %X %lx", 0xdeadbeefu, 0xabcu, 0x123456789abcdefUL);
	same_as_libc("%5d|%-5d|%05d|%08lx", 42, 42, -42, 0xbeefUL);
	same_as_libc("%zu %zx", (size_t)12345, (size_t)0xfff);
	same_as_libc("%hd %hhu", (short)-3, (unsigned char)250);
	same_as_libc("%d", 0);
}

static void test_strings_and_chars(void **state)
{
	(void)state;
	same_as_libc("%s|%10s|%-10s|%.3s", "abc", "right", "left", "truncate");
	same_as_libc("%c%c%c", 'm', 'o', 's');
	same_as_libc("100%%");
	same_as_libc("%*d|%-*d", 6, 7, 6, 7);
}

static void test_pointer(void **state)
{
	(void)state;
	char buf[64];
	ksnprintf(buf, sizeof(buf), "%p", (void *)0xffffffff80001234ULL);
	assert_string_equal(buf, "0xffffffff80001234");
	ksnprintf(buf, sizeof(buf), "%p", (void *)0x10);
	assert_string_equal(buf, "0x0000000000000010");
}

static void test_truncation_keeps_full_length(void **state)
{
	(void)state;
	char buf[8];
	memset(buf, 'Z', sizeof(buf));
	int n = ksnprintf(buf, sizeof(buf), "hello %s", "world");
	assert_int_equal(n, 11);
	assert_string_equal(buf, "hello w");
	assert_int_equal(ksnprintf(buf, 0, "abc"), 3);
	assert_int_equal(buf[0], 'h');   /* size 0 writes nothing */
	assert_int_equal(ksnprintf(buf, 1, "abc"), 3);
	assert_string_equal(buf, "");
}

static void test_null_string_and_unknown_conversion(void **state)
{
	(void)state;
	char buf[32];
	const char *volatile null_string = NULL;
	ksnprintf(buf, sizeof(buf), "%s", null_string);
	assert_string_equal(buf, "(null)");
	const char *volatile unknown = "a%qb", *volatile dangling = "tail%";
	ksnprintf(buf, sizeof(buf), unknown);
	assert_string_equal(buf, "a%qb");
	ksnprintf(buf, sizeof(buf), dangling);
	assert_string_equal(buf, "tail%");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_strings_and_chars),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_truncation_keeps_full_length),
		cmocka_unit_test(test_null_string_and_unknown_conversion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
