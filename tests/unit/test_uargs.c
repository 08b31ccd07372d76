/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests for a new program's arguments (kernel/user/uargs.c): argv
 * collected from a fake user address space (tests/unit/user_mem.h), every
 * bad pointer, count and length refused with its own code, and the stack
 * layout the program starts with.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <tests/unit/user_mem.h>

static uint8_t mem[16384];
static struct user_mem um = { mem, sizeof(mem) };
static const struct uargs_reader rd = { &um, user_mem_read, user_mem_read_str };
static struct uargs a;

/* Puts the strings at 0x1000.. and their pointers at 0; returns argv's address. */
static uint64_t put_argv(const char *const *argv, int argc)
{
	uint64_t s = USER_MEM_BASE + 0x1000;
	memset(mem, 0, sizeof(mem));
	for (int i = 0; i < argc; i++) {
		memcpy(mem + 8 * i, &s, 8);
		memcpy(mem + (s - USER_MEM_BASE), argv[i], strlen(argv[i]) + 1);
		s += strlen(argv[i]) + 1;
	}
	return USER_MEM_BASE;
}

static void test_collect(void **state)
{
	(void)state;
	const char *argv[] = { "sysbench", "--threads", "4" };
	assert_int_equal(uargs_collect(&a, put_argv(argv, 3), 3, &rd), 0);
	assert_int_equal(a.argc, 3);
	assert_int_equal(a.bytes, 9 + 10 + 2);
	assert_memory_equal(a.buf, "sysbench\0--threads\0004", 21);
}

static void test_collect_refusals(void **state)
{
	(void)state;
	const char *argv[] = { "a", "b" };
	uint64_t base = put_argv(argv, 2);
	assert_int_equal(uargs_collect(&a, base, 0, &rd), ERR_INVAL);
	assert_int_equal(uargs_collect(&a, base, SPAWN_ARGC_MAX + 1, &rd), ERR_TOOBIG);
	assert_int_equal(uargs_collect(&a, 0, 2, &rd), ERR_FAULT);                  /* null argv */
	assert_int_equal(uargs_collect(&a, 0xffff800000000000ull, 1, &rd), ERR_FAULT);   /* kernel */
	assert_int_equal(uargs_collect(&a, USER_MEM_BASE + sizeof(mem) - 8, 2, &rd), ERR_FAULT);
	uint64_t bad = 0x20;   /* argv[1] points below the user half */
	memcpy(mem + 8, &bad, 8);
	assert_int_equal(uargs_collect(&a, base, 2, &rd), ERR_FAULT);
	bad = USER_MEM_BASE + sizeof(mem) - 2;   /* a string that runs off the mapped memory */
	memset(mem + sizeof(mem) - 2, 'x', 2);
	memcpy(mem + 8, &bad, 8);
	assert_int_equal(uargs_collect(&a, base, 2, &rd), ERR_FAULT);
}

static void test_lengths(void **state)
{
	(void)state;
	static char longest[SPAWN_ARG_MAX], too_long[SPAWN_ARG_MAX + 1];
	memset(longest, 'l', sizeof(longest) - 1);
	memset(too_long, 't', sizeof(too_long) - 1);
	const char *ok[] = { longest };
	assert_int_equal(uargs_collect(&a, put_argv(ok, 1), 1, &rd), 0);
	assert_int_equal(a.bytes, SPAWN_ARG_MAX);
	const char *bad[] = { "x", too_long };
	assert_int_equal(uargs_collect(&a, put_argv(bad, 2), 2, &rd), ERR_TOOBIG);
	/* 17 arguments of 255 characters: 17 * 256 > SPAWN_ARGS_TOTAL. */
	const char *many[17];
	for (int i = 0; i < 17; i++)
		many[i] = longest;
	uint64_t base = put_argv(many, 16);
	assert_int_equal(uargs_collect(&a, base, 16, &rd), 0);
	assert_int_equal(a.bytes, SPAWN_ARGS_TOTAL);
	memcpy(mem + 8 * 16, mem, 8);   /* a 17th pointer to the first string */
	assert_int_equal(uargs_collect(&a, base, 17, &rd), ERR_TOOBIG);
	/* The same limits for the kernel's own uargs_add(). */
	uargs_init(&a);
	assert_int_equal(uargs_add(&a, too_long), ERR_TOOBIG);
	for (int i = 0; i < 16; i++)
		assert_int_equal(uargs_add(&a, longest), 0);
	assert_int_equal(uargs_add(&a, ""), ERR_TOOBIG);
	uargs_init(&a);
	for (int i = 0; i < SPAWN_ARGC_MAX; i++)
		assert_int_equal(uargs_add(&a, "x"), 0);
	assert_int_equal(uargs_add(&a, "x"), ERR_TOOBIG);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static void test_layout(void **state)
{
	(void)state;
	uint8_t img[256];
	uint64_t top = 0x7fff0000, rsp, argv;
	uargs_init(&a);
	assert_int_equal(uargs_add(&a, "hello"), 0);
	assert_int_equal(uargs_add(&a, "world!"), 0);
	uint64_t need = uargs_stack_bytes(&a);
	assert_int_equal(need, 48);   /* 13 string bytes + 3 pointers = 37, up to 48 */
	assert_int_equal(uargs_layout(&a, top, img, need - 1, &rsp, &argv), ERR_TOOBIG);
	assert_int_equal(uargs_layout(&a, top + 8, img, sizeof(img), &rsp, &argv), ERR_INVAL);
	memset(img, 0xee, sizeof(img));
	assert_int_equal(uargs_layout(&a, top, img, sizeof(img), &rsp, &argv), 0);
	assert_int_equal(rsp, top - 48);
	assert_int_equal(argv, rsp);
	assert_int_equal(rsp % 16, 0);
	const uint8_t *at = img + sizeof(img) - (top - argv);
	assert_int_equal(get64(at), top - 13);
	assert_int_equal(get64(at + 8), top - 7);
	assert_int_equal(get64(at + 16), 0);
	assert_string_equal((const char *)img + sizeof(img) - 13, "hello");
	assert_string_equal((const char *)img + sizeof(img) - 7, "world!");
	for (int i = 24; i < 48 - 13; i++)
		assert_int_equal(at[i], 0);   /* the padding is zero */
	assert_int_equal(img[sizeof(img) - 49], 0xee);   /* nothing below rsp */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_collect_refusals),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
