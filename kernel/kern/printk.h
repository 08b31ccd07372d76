/* SPDX-License-Identifier: BSD-2-Clause */
/* printk.h — formatted kernel output (formatting into a buffer: lib/format.h). */
#ifndef MOSAIC_PRINTK_H
#define MOSAIC_PRINTK_H

#include <stdarg.h>
#include <stddef.h>
#include <lib/format.h>   /* ksnprintf(), kvsnprintf() */

/* Format (subset of C printf: %d %i %u %x %X %p %s %c %%, flags '-', '0',
 * width, precision for %s, length h hh l ll z) to all consoles. */
void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vprintk(const char *fmt, va_list ap);

/* A source of messages that user programs can trigger (a refused program,
 * a fault, a refused charge): printk_rated() lets at most
 * kern.log.rate_burst of its messages through per kern.log.rate_interval_ms
 * and then says how many it held back ("SOURCE: N messages suppressed").
 * Declare one per source: static PRINTK_RATE(name, "source"). */
#include <lib/ratelimit.h>
struct printk_rate {
	struct ratelimit rl;     /* under printk.c's rate lock */
	const char *source;
};
#define PRINTK_RATE(var, src) struct printk_rate var = { .source = (src) }
void printk_rated(struct printk_rate *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
