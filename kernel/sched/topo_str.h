/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_str.h — bounded string building for the topology code, which stays
 * free of printf so it is portable and allocation-free. Internal to
 * kernel/sched/ (topo*.c, hmp_describe.c).
 */
#ifndef MOSAIC_SCHED_TOPO_STR_H
#define MOSAIC_SCHED_TOPO_STR_H
#include <stddef.h>
#include <stdint.h>

struct topo_str {
	char *buf;
	size_t len;     /* size of buf, > 0 */
	size_t pos;     /* characters written; buf[pos] is the NUL */
	int cut;        /* 1 once something did not fit */
};

/* Starts an empty string in buf[len] (len > 0). */
static inline void topo_str_init(struct topo_str *s, char *buf, size_t len)
{
	s->buf = buf;
	s->len = len;
	s->pos = 0;
	s->cut = 0;
	buf[0] = 0;
}

/* Appends text; what does not fit is dropped and s->cut set. */
static inline void topo_str_add(struct topo_str *s, const char *text)
{
	for (; *text; text++) {
		if (s->pos + 1 >= s->len) {
			s->cut = 1;
			break;
		}
		s->buf[s->pos++] = *text;
	}
	s->buf[s->pos] = 0;
}

/* Appends v in base 10 or 16 (16: with "0x"). */
static inline void topo_str_num(struct topo_str *s, uint64_t v, unsigned base)
{
	char out[24];
	int n = (int)sizeof(out) - 1;
	out[n] = 0;
	do {
		out[--n] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (base == 16) {
		out[--n] = 'x';
		out[--n] = '0';
	}
	topo_str_add(s, out + n);
}

#endif
