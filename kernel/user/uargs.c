/* SPDX-License-Identifier: BSD-2-Clause */
/* uargs.c — a new program's arguments (see uargs.h). */
#include <user/uargs.h>
#include <user/ucheck.h>

/* See uargs.h. */
void uargs_init(struct uargs *a)
{
	a->argc = 0;
	a->bytes = 0;
}

/* See uargs.h. */
int uargs_add(struct uargs *a, const char *s)
{
	uint64_t n = 0;
	while (n < SPAWN_ARG_MAX && s[n])
		n++;
	if (a->argc == SPAWN_ARGC_MAX || n >= SPAWN_ARG_MAX || n + 1 > SPAWN_ARGS_TOTAL - a->bytes)
		return ERR_TOOBIG;
	for (uint64_t i = 0; i <= n; i++)
		a->buf[a->bytes + i] = s[i];
	a->bytes += (uint32_t)n + 1;
	a->argc++;
	return 0;
}

/* See uargs.h. The pointer array is read whole first, then each string
 * into the room left, so nothing is written beyond buf. */
int uargs_collect(struct uargs *a, uint64_t uargv, uint32_t argc, const struct uargs_reader *rd)
{
	uint64_t ptrs[SPAWN_ARGC_MAX];
	uargs_init(a);
	if (argc == 0)
		return ERR_INVAL;
	if (argc > SPAWN_ARGC_MAX)
		return ERR_TOOBIG;
	if (ucheck_range(uargv, argc * 8ull) || rd->read(rd->ctx, ptrs, uargv, argc * 8ull))
		return ERR_FAULT;
	for (uint32_t i = 0; i < argc; i++) {
		uint64_t room = SPAWN_ARGS_TOTAL - a->bytes;
		uint64_t max = room < SPAWN_ARG_MAX ? room : SPAWN_ARG_MAX;
		if (ucheck_range(ptrs[i], 1))
			return ERR_FAULT;
		int64_t n = rd->read_str(rd->ctx, a->buf + a->bytes, ptrs[i], max);
		if (n < 0)
			return (int)n;
		if ((uint64_t)n >= max)   /* a reader that overstates: treat as too long */
			return ERR_TOOBIG;
		a->bytes += (uint32_t)n + 1;
		a->argc++;
	}
	return 0;
}

/* Offset of the argv array below top: the strings, then down to 16. */
static uint64_t uargs_array_off(const struct uargs *a)
{
	return (a->bytes + 8ull * (a->argc + 1) + 15) & ~15ull;
}

/* See uargs.h. */
uint64_t uargs_stack_bytes(const struct uargs *a)
{
	return uargs_array_off(a);
}

/* Stores a 64-bit little-endian value at p (img may be unaligned). */
static void uargs_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* See uargs.h. */
int uargs_layout(const struct uargs *a, uint64_t top, uint8_t *img, uint64_t img_size,
		 uint64_t *rsp, uint64_t *argv)
{
	uint64_t need = uargs_stack_bytes(a);
	if (top % 16)
		return ERR_INVAL;
	if (img_size < need || top < need)
		return ERR_TOOBIG;
	uint8_t *end = img + img_size;   /* stands for top */
	uint64_t str = top - a->bytes, arr = top - need;
	for (uint32_t i = 0; i < a->bytes; i++)
		end[-(int64_t)a->bytes + i] = (uint8_t)a->buf[i];
	for (uint64_t i = top - need + 8ull * (a->argc + 1); i < str; i++)
		end[-(int64_t)(top - i)] = 0;   /* padding */
	uint64_t s = str;
	for (uint32_t i = 0; i < a->argc; i++) {
		uargs_put64(end - (top - arr) + 8ull * i, s);
		while (a->buf[s - str])
			s++;
		s++;
	}
	uargs_put64(end - (top - arr) + 8ull * a->argc, 0);
	*rsp = arr;
	*argv = arr;
	return 0;
}
