/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format.c — printf-style formatting into a buffer (kvsnprintf).
 * Portable C, no kernel dependencies: also built into the host unit tests.
 */
#include <lib/format.h>
#include <stdint.h>
#include <stdbool.h>

struct out {
	char *buf;
	size_t size;
	size_t len;   /* length the full output would have */
};

static void out_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_repeat(struct out *o, char c, int n)
{
	while (n-- > 0)
		out_char(o, c);
}

struct spec {
	bool left;      /* '-' */
	bool zero;      /* '0' */
	int width;
	int precision;  /* -1: none */
};

/* Emit digits of v in base with padding per spec; neg adds a '-'. */
static void out_number(struct out *o, uint64_t v, unsigned base, bool upper, bool neg,
		       const struct spec *sp, const char *prefix)
{
	char digits[24];
	const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = 0;
	do {
		digits[n++] = set[v % base];
		v /= base;
	} while (v);
	int plen = 0;
	while (prefix && prefix[plen])
		plen++;
	int body = n + (neg ? 1 : 0) + plen;
	int pad = sp->width > body ? sp->width - body : 0;
	if (!sp->left && !sp->zero)
		out_repeat(o, ' ', pad);
	if (neg)
		out_char(o, '-');
	for (int i = 0; i < plen; i++)
		out_char(o, prefix[i]);
	if (!sp->left && sp->zero)
		out_repeat(o, '0', pad);
	while (n)
		out_char(o, digits[--n]);
	if (sp->left)
		out_repeat(o, ' ', pad);
}

static void out_string(struct out *o, const char *s, const struct spec *sp)
{
	if (!s)
		s = "(null)";
	int n = 0;
	while (s[n] && (sp->precision < 0 || n < sp->precision))
		n++;
	int pad = sp->width > n ? sp->width - n : 0;
	if (!sp->left)
		out_repeat(o, ' ', pad);
	for (int i = 0; i < n; i++)
		out_char(o, s[i]);
	if (sp->left)
		out_repeat(o, ' ', pad);
}

/* Formats like vsnprintf for the conversions listed in printk.h; an
 * unknown conversion is copied through literally. No locks. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	while (*fmt) {
		if (*fmt != '%') {
			out_char(&o, *fmt++);
			continue;
		}
		const char *start = fmt++;
		struct spec sp = { false, false, 0, -1 };
		for (;; fmt++) {
			if (*fmt == '-')
				sp.left = true;
			else if (*fmt == '0')
				sp.zero = true;
			else
				break;
		}
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = true;
				sp.width = -sp.width;
			}
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			sp.width = sp.width * 10 + (*fmt++ - '0');
		if (*fmt == '.') {
			fmt++;
			sp.precision = 0;
			if (*fmt == '*') {
				sp.precision = va_arg(ap, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				sp.precision = sp.precision * 10 + (*fmt++ - '0');
		}
		int lng = 0;   /* 0 int, 1 long, 2 long long, 3 size_t, -1 short, -2 char */
		if (*fmt == 'l') {
			lng = 1;
			if (*++fmt == 'l') {
				lng = 2;
				fmt++;
			}
		} else if (*fmt == 'z') {
			lng = 3;
			fmt++;
		} else if (*fmt == 'h') {
			lng = -1;
			if (*++fmt == 'h') {
				lng = -2;
				fmt++;
			}
		}
		char conv = *fmt;
		if (conv)
			fmt++;
		switch (conv) {
		case 'd':
		case 'i': {
			int64_t v;
			if (lng == 1) v = va_arg(ap, long);
			else if (lng == 2) v = va_arg(ap, long long);
			else if (lng == 3) v = (int64_t)va_arg(ap, size_t);
			else if (lng == -1) v = (short)va_arg(ap, int);
			else if (lng == -2) v = (signed char)va_arg(ap, int);
			else v = va_arg(ap, int);
			uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			out_number(&o, mag, 10, false, v < 0, &sp, NULL);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v;
			if (lng == 1) v = va_arg(ap, unsigned long);
			else if (lng == 2) v = va_arg(ap, unsigned long long);
			else if (lng == 3) v = va_arg(ap, size_t);
			else if (lng == -1) v = (unsigned short)va_arg(ap, unsigned);
			else if (lng == -2) v = (unsigned char)va_arg(ap, unsigned);
			else v = va_arg(ap, unsigned);
			out_number(&o, v, conv == 'u' ? 10 : 16, conv == 'X', false, &sp, NULL);
			break;
		}
		case 'p': {
			struct spec ps = sp;
			ps.zero = true;
			if (ps.width == 0)
				ps.width = 18;
			out_number(&o, (uint64_t)(uintptr_t)va_arg(ap, void *), 16, false, false, &ps, "0x");
			break;
		}
		case 's':
			out_string(&o, va_arg(ap, const char *), &sp);
			break;
		case 'c': {
			char c[2] = { (char)va_arg(ap, int), 0 };
			struct spec cs = sp;
			cs.precision = 1;
			if (c[0] == 0) {   /* a NUL char still counts as one byte */
				out_repeat(&o, ' ', sp.left ? 0 : sp.width - 1);
				out_char(&o, 0);
				out_repeat(&o, ' ', sp.left ? sp.width - 1 : 0);
			} else {
				out_string(&o, c, &cs);
			}
			break;
		}
		case '%':
			out_char(&o, '%');
			break;
		default:   /* unknown or truncated: copy the directive literally */
			while (start < fmt)
				out_char(&o, *start++);
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

/* kvsnprintf with variadic arguments. No locks. */
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
