/* SPDX-License-Identifier: BSD-2-Clause */
/* save_text.c — a growing text on the heap, bounded by a cap (see save.h). */
#include <save/save.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <stdarg.h>
#include <lib/string.h>

#define SAVE_TEXT_FIRST 4096

/* See save.h: 0, or -1 when not even the first block could be had. */
int save_text_init(struct save_text *t, size_t cap)
{
	t->len = 0;
	t->cap = cap;
	t->full = 0;
	t->alloc = cap < SAVE_TEXT_FIRST ? cap : SAVE_TEXT_FIRST;
	t->data = kmalloc(t->alloc);
	return t->data ? 0 : -1;
}

/* See save.h. */
void save_text_free(struct save_text *t)
{
	kfree(t->data);
	t->data = NULL;
	t->len = t->alloc = 0;
}

/* Makes room for n more bytes if it can (doubling the block, at most to
 * the cap); returns how many of them fit. */
static size_t room_for(struct save_text *t, size_t n)
{
	if (!t->data)
		return 0;
	size_t want = t->len + n > t->cap ? t->cap : t->len + n;
	if (want > t->alloc) {
		size_t grown = t->alloc;
		while (grown < want)
			grown *= 2;
		if (grown > t->cap)
			grown = t->cap;
		char *p = kmalloc(grown);
		if (p) {
			memcpy(p, t->data, t->len);
			kfree(t->data);
			t->data = p;
			t->alloc = grown;
		}
	}
	return (want < t->alloc ? want : t->alloc) - t->len;
}

/* See save.h. What does not fit sets full. */
void save_text_put(struct save_text *t, const char *s, size_t n)
{
	size_t k = room_for(t, n);
	if (k > n)
		k = n;
	memcpy(t->data + t->len, s, k);
	t->len += k;
	if (k < n)
		t->full = 1;
}

/* See save.h. One line of at most 512 bytes. */
void save_text_printf(struct save_text *t, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line)) {
		n = sizeof(line) - 1;
		t->full = 1;
	}
	save_text_put(t, line, (size_t)n);
}
