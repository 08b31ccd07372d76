/* SPDX-License-Identifier: BSD-2-Clause */
/* strbuf.c — bounded string builder (see strbuf.h). */
#include <lib/strbuf.h>
#include <kern/printk.h>

void strbuf_init(struct strbuf *sb, char *buf, size_t size)
{
	sb->buf = buf;
	sb->size = size;
	sb->len = 0;
	sb->full = size == 0;
	if (size)
		buf[0] = 0;
}

/* Room for n more characters and the NUL after them. */
static int has_room(const struct strbuf *sb, size_t n)
{
	return sb->size > 0 && n < sb->size - sb->len;
}

int strbuf_putc(struct strbuf *sb, char c)
{
	return strbuf_put(sb, &c, 1);
}

int strbuf_put(struct strbuf *sb, const char *s, size_t n)
{
	if (!has_room(sb, n)) {
		sb->full = 1;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sb->buf[sb->len + i] = s[i];
	sb->len += n;
	sb->buf[sb->len] = 0;
	return 0;
}

int strbuf_puts(struct strbuf *sb, const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return strbuf_put(sb, s, n);
}

int strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	if (sb->size == 0) {
		sb->full = 1;
		return -1;
	}
	va_start(ap, fmt);
	int n = kvsnprintf(sb->buf + sb->len, sb->size - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0 || !has_room(sb, (size_t)n)) {
		sb->buf[sb->len] = 0;   /* drop the partial output */
		sb->full = 1;
		return -1;
	}
	sb->len += (size_t)n;
	return 0;
}

int strbuf_ok(const struct strbuf *sb)
{
	return !sb->full;
}
