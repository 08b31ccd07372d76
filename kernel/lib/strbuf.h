/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * strbuf.h — a bounded string builder for parsers of outside input.
 *
 * Every append checks room for the byte and for the terminating NUL
 * before writing, so the buffer always holds a terminated string and never
 * a byte past its end. An append that does not fit writes nothing of
 * itself and marks the builder full; the caller checks strbuf_ok() once at
 * the end and reports the input as too long (never silently truncated).
 * Portable C, no locks (a builder belongs to one caller).
 */
#ifndef MOSAIC_STRBUF_H
#define MOSAIC_STRBUF_H
#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t size;   /* bytes of buf, including room for the NUL */
	size_t len;    /* characters before the NUL */
	int full;      /* an append did not fit */
};

/* Starts an empty string in buf[size]; size 0 makes every append fail. */
void strbuf_init(struct strbuf *sb, char *buf, size_t size);
/* Appends one byte; 0, or -1 (nothing written, builder full). */
int strbuf_putc(struct strbuf *sb, char c);
/* Appends n bytes of s, all or nothing; 0 or -1. */
int strbuf_put(struct strbuf *sb, const char *s, size_t n);
/* Appends the NUL-terminated s, all or nothing; 0 or -1. */
int strbuf_puts(struct strbuf *sb, const char *s);
/* Appends formatted text (printk's format subset), all or nothing. */
int strbuf_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 while every append so far fitted. */
int strbuf_ok(const struct strbuf *sb);

#endif
