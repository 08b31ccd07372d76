/* printk.h — the one kernel header kernel/lib/format.c includes, for its
 * use in the C library: the formatter's prototypes. The library's
 * vsnprintf() is the kernel's kvsnprintf(), built from the same file. */
#ifndef MOSAIC_LIBC_PRINTK_H
#define MOSAIC_LIBC_PRINTK_H
#include <stdarg.h>
#include <stddef.h>

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
