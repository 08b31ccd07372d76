/* SPDX-License-Identifier: BSD-2-Clause */
/* stdio.h — formatted output of Mosaic's C library: to the console
 * (SYS_CONSOLE_WRITE, one call per printf so lines of different programs
 * do not mix) or to a buffer. Formats: %d %i %u %x %X %p %s %c %%, flags
 * '-' '0', a width, a precision for %s, lengths h hh l ll z. */
#ifndef MOSAIC_LIBC_STDIO_H
#define MOSAIC_LIBC_STDIO_H
#include <stdarg.h>
#include <stddef.h>

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int puts(const char *s);

#endif
