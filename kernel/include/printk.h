/* printk.h — formatted kernel output and string formatting. */
#ifndef MOSAIC_PRINTK_H
#define MOSAIC_PRINTK_H

#include <stdarg.h>
#include <stddef.h>

/* Format (subset of C printf: %d %i %u %x %X %p %s %c %%, flags '-', '0',
 * width, precision for %s, length h hh l ll z) to all consoles. */
void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vprintk(const char *fmt, va_list ap);

/* Like vsnprintf: always NUL-terminates when size > 0, returns the length
 * the full output would have had. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
