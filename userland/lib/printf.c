/* SPDX-License-Identifier: BSD-2-Clause */
/* printf.c — formatted output (see stdio.h), on the kernel's formatter
 * (kernel/lib/format.c, built into the library). */
#include <stdio.h>
#include <stdlib.h>
#include <mosaic.h>
#include <lib/format.h>   /* the kernel's formatter, built into this library */

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	return kvsnprintf(buf, size, fmt, ap);
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Formats into a stack buffer, or a heap one when longer, and writes it in
 * one system call (at most CONSOLE_WRITE_MAX bytes each). */
int vprintf(const char *fmt, va_list ap)
{
	char small[512];
	va_list again;
	va_copy(again, ap);
	int n = kvsnprintf(small, sizeof(small), fmt, ap);
	char *buf = small;
	if (n >= (int)sizeof(small) && (buf = malloc((size_t)n + 1)))
		kvsnprintf(buf, (size_t)n + 1, fmt, again);
	va_end(again);
	if (!buf) {
		buf = small;
		n = sizeof(small) - 1;
	}
	for (int off = 0; off < n; off += CONSOLE_WRITE_MAX)
		console_write(buf + off, n - off < CONSOLE_WRITE_MAX ? (uint64_t)(n - off) : CONSOLE_WRITE_MAX);
	if (buf != small)
		free(buf);
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

int puts(const char *s)
{
	return printf("%s\n", s);
}
