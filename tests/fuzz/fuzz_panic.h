/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_panic.h — panic() for the harnesses that build kernel code with the
 * host machine of tests/unit/uvm_host.h: a panic (a failed KASSERT, a
 * rule of the host machine broken) is a failed check, reported with the
 * seed and iteration of fuzz_current. Include once per harness, after
 * fuzz.h.
 */
#ifndef MOSAIC_FUZZ_PANIC_H
#define MOSAIC_FUZZ_PANIC_H
#include <stdarg.h>
#include <kern/panic.h>

static struct fuzz *fuzz_current;   /* set by fuzz_one() */

void panic(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (fuzz_current)
		fuzz_fail(fuzz_current, "panic: %s", msg);
	fprintf(stderr, "fuzz: panic: %s\n", msg);
	abort();
}

#endif
