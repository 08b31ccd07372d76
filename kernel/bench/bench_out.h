/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_out.h — where benchmark reports go, and how their fixed-point
 * numbers are written.
 *
 * A report is written through a printf-like callback (printk's format
 * subset), so that the kernel can send it to the console and the host tools
 * and tests to a file or a buffer. Portable C, no locks.
 */
#ifndef MOSAIC_BENCH_OUT_H
#define MOSAIC_BENCH_OUT_H
#include <stdarg.h>
#include <stdint.h>
#include <lib/strbuf.h>

struct bench_out {
	void (*vprintf)(void *arg, const char *fmt, va_list ap);
	void *arg;
};

/* Formats through o's callback. */
void bench_printf(const struct bench_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends v / 10^decimals with exactly `decimals` digits after the point
 * (none and no point for 0), e.g. 2925690874, 2 -> "29256908.74";
 * decimals 0..18. 0, or -1 (nothing appended; strbuf full or bad decimals). */
int bench_put_fixed(struct strbuf *sb, int64_t v, int decimals);
/* Appends a value in 0.01 % as "114.76%", or "-" for BENCH_NA. */
int bench_put_pct(struct strbuf *sb, int64_t v);
/* Appends a p-value in units of 10^-12 with 4 decimals ("0.0312"), or
 * "<0.0001" when it rounds to 0. */
int bench_put_p4(struct strbuf *sb, uint64_t p);

#endif
