/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests for the system calls' stateless argument checks
 * (kernel/user/ucheck.c): user pointer ranges at every edge of the user
 * half, timeouts, service and program names, spawn requests, CPU masks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <user/ucheck.h>
#include <user/ulayout.h>

static void test_range(void **state)
{
	(void)state;
	assert_int_equal(ucheck_range(0x400000, 16), 0);
	assert_int_equal(ucheck_range(USER_PTR_LOW, 0), 0);
	assert_int_equal(ucheck_range(USER_TOP - 8, 8), 0);
	assert_int_equal(ucheck_range(0, 1), ERR_FAULT);                /* null */
	assert_int_equal(ucheck_range(USER_PTR_LOW - 1, 1), ERR_FAULT);
	assert_int_equal(ucheck_range(USER_TOP - 8, 9), ERR_FAULT);     /* runs into the last page */
	assert_int_equal(ucheck_range(USER_TOP, 0), ERR_FAULT);
	assert_int_equal(ucheck_range(0x800000000000ull, 1), ERR_FAULT);  /* non-canonical */
	assert_int_equal(ucheck_range(0xffff800000000000ull, 8), ERR_FAULT);  /* the kernel */
	assert_int_equal(ucheck_range(0x400000, ~0ull), ERR_FAULT);    /* wraps */
	assert_int_equal(ucheck_range(0x400000, ~0ull - 0x3fffff), ERR_FAULT);
}

static void test_timeout(void **state)
{
	(void)state;
	assert_int_equal(ucheck_timeout(0), 0);
	assert_int_equal(ucheck_timeout(TIMEOUT_MAX_NS), 0);
	assert_int_equal(ucheck_timeout(IPC_FOREVER), 0);
	assert_int_equal(ucheck_timeout(TIMEOUT_MAX_NS + 1), ERR_INVAL);
	assert_int_equal(ucheck_timeout(IPC_FOREVER - 1), ERR_INVAL);
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(ucheck_svc_name("kv"), 0);
	assert_int_equal(ucheck_svc_name("log.v2-x_y"), 0);
	assert_int_equal(ucheck_svc_name(""), ERR_INVAL);
	assert_int_equal(ucheck_svc_name("-kv"), ERR_INVAL);
	assert_int_equal(ucheck_svc_name("KV"), ERR_INVAL);
	assert_int_equal(ucheck_svc_name("k v"), ERR_INVAL);
	assert_int_equal(ucheck_svc_name("k\xc3\xa9"), ERR_INVAL);
	char long_name[SVC_NAME_MAX + 1];
	memset(long_name, 'a', sizeof(long_name));
	long_name[SVC_NAME_MAX - 1] = 0;
	assert_int_equal(ucheck_svc_name(long_name), 0);
	long_name[SVC_NAME_MAX - 1] = 'a';
	long_name[SVC_NAME_MAX] = 0;
	assert_int_equal(ucheck_svc_name(long_name), ERR_TOOBIG);
	assert_int_equal(ucheck_program_name("sysbench"), 0);
	assert_int_equal(ucheck_program_name("init.rc"), 0);
	assert_int_equal(ucheck_program_name(".hidden"), ERR_INVAL);
	assert_int_equal(ucheck_program_name("a/b"), ERR_INVAL);
	assert_int_equal(ucheck_program_name(""), ERR_INVAL);
	char prog[PROC_NAME_MAX + 1];
	memset(prog, 'p', sizeof(prog));
	prog[PROC_NAME_MAX] = 0;
	assert_int_equal(ucheck_program_name(prog), ERR_TOOBIG);
}

static void test_spawn_req(void **state)
{
	(void)state;
	struct spawn_req r = { .argc = 1 };
	assert_int_equal(ucheck_spawn_req(&r), 0);
	r.argc = 0;
	assert_int_equal(ucheck_spawn_req(&r), ERR_INVAL);
	r.argc = SPAWN_ARGC_MAX + 1;
	assert_int_equal(ucheck_spawn_req(&r), ERR_TOOBIG);
	r.argc = SPAWN_ARGC_MAX;
	r.nhandles = SPAWN_HANDLES_MAX + 1;
	assert_int_equal(ucheck_spawn_req(&r), ERR_TOOBIG);
	r.nhandles = SPAWN_HANDLES_MAX;
	r.flags = 8;
	assert_int_equal(ucheck_spawn_req(&r), ERR_INVAL);
	r.flags = SPAWN_CAP_NICE;
	assert_int_equal(ucheck_spawn_req(&r), 0);
	r.flags = SPAWN_NEW_JOB | SPAWN_WAIT_READY;
	assert_int_equal(ucheck_spawn_req(&r), 0);
	r.flags = SPAWN_WAIT_READY;
	r.reserved = 1;
	assert_int_equal(ucheck_spawn_req(&r), ERR_INVAL);
	r.reserved = 0;
	r.ready_timeout_ns = TIMEOUT_MAX_NS + 1;
	assert_int_equal(ucheck_spawn_req(&r), ERR_INVAL);
	r.ready_timeout_ns = IPC_FOREVER;
	assert_int_equal(ucheck_spawn_req(&r), 0);
}

static void test_cpumask(void **state)
{
	(void)state;
	uint64_t m[4] = { 0x5, 0, 0, 0 };
	assert_int_equal(ucheck_cpumask(m, 8, 4), 0);
	assert_int_equal(ucheck_cpumask(m, 32, 4), 0);
	assert_int_equal(ucheck_cpumask(m, 0, 4), ERR_INVAL);
	assert_int_equal(ucheck_cpumask(m, 12, 4), ERR_INVAL);
	assert_int_equal(ucheck_cpumask(m, 40, 4), ERR_INVAL);
	assert_int_equal(ucheck_cpumask(m, 8, 2), ERR_INVAL);   /* CPU 2 does not exist */
	m[0] = 0;
	assert_int_equal(ucheck_cpumask(m, 32, 4), ERR_INVAL);  /* empty */
	m[1] = 1;                                              /* CPU 64 */
	assert_int_equal(ucheck_cpumask(m, 16, 65), 0);
	assert_int_equal(ucheck_cpumask(m, 16, 64), ERR_INVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_spawn_req),
		cmocka_unit_test(test_cpumask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
