/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * panic_hook.h — a host stand-in for the kernel's panic(): it records the
 * message and jumps back into the test that armed it with EXPECT_PANIC; an
 * unexpected panic aborts the test program. Include once per test program.
 */
#ifndef MOSAIC_TEST_PANIC_HOOK_H
#define MOSAIC_TEST_PANIC_HOOK_H
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static jmp_buf panic_jmp;
static int panic_armed;
static char panic_msg[256];

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	if (!panic_armed) {
		fprintf(stderr, "unexpected panic: %s\n", panic_msg);
		abort();
	}
	panic_armed = 0;
	longjmp(panic_jmp, 1);
}

/* Run stmt, which must panic with a message containing substr. */
#define EXPECT_PANIC(stmt, substr)                                              \
	do {                                                                    \
		panic_msg[0] = 0;                                               \
		panic_armed = 1;                                                \
		if (setjmp(panic_jmp) == 0) {                                   \
			stmt;                                                   \
			panic_armed = 0;                                        \
			fail_msg("no panic from %s", #stmt);                    \
		}                                                               \
		if (!strstr(panic_msg, substr))                                 \
			fail_msg("panic '%s' lacks '%s'", panic_msg, substr);   \
	} while (0)

#endif
