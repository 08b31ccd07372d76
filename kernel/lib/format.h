/* SPDX-License-Identifier: BSD-2-Clause */
/* format.h — printf-style formatting into a buffer (format.c). Portable C
 * with no kernel dependency: the kernel, the host tests and the user
 * programs' C library (userland/lib/printf.c) all build format.c. */
#ifndef MOSAIC_FORMAT_H
#define MOSAIC_FORMAT_H
#include <stdarg.h>
#include <stddef.h>

/* Like vsnprintf (the subset of printk.h's printk()): always
 * NUL-terminates when size > 0, returns the length the full output would
 * have had. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
