/* SPDX-License-Identifier: BSD-2-Clause */
/* stdlib.c — numbers, sorting, error names and the rest (see stdlib.h,
 * mosaic.h). */
#include <stdlib.h>
#include <mosaic.h>

void abort(void)
{
	__asm__ volatile("ud2");   /* a fault: the kernel reports where */
	__builtin_unreachable();
}

int parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	int neg = *s == '-';
	uint64_t v = 0, base = 10;
	s += neg;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		uint64_t d;
		if (*s >= '0' && *s <= '9')
			d = (uint64_t)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (uint64_t)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (uint64_t)(*s - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	int64_t r = neg ? (int64_t)(0 - v) : (int64_t)v;
	if (r < min || r > max)
		return -1;
	*out = r;
	return 0;
}

/* See mosaic.h. One MUL and one DIV: RDX:RAX / c (UINT64_MAX when the
 * quotient would not fit, which DIV would fault on). */
uint64_t muldiv64(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	uint64_t hi = (uint64_t)(p >> 64), lo = (uint64_t)p, q, r;
	if (c == 0 || hi >= c)
		return UINT64_MAX;
	__asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(c));
	(void)r;
	return q;
}

/* See mosaic.h. Shell sort with Ciura's gaps. */
void sort_u64(uint64_t *v, size_t n)
{
	static const size_t gaps[] = { 701, 301, 132, 57, 23, 10, 4, 1 };
	for (size_t g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
		size_t gap = gaps[g];
		for (size_t i = gap; i < n; i++) {
			uint64_t x = v[i];
			size_t j = i;
			for (; j >= gap && v[j - gap] > x; j -= gap)
				v[j] = v[j - gap];
			v[j] = x;
		}
	}
}

const char *strerror(int err)
{
	static const char *const text[] = {
		[-ERR_INVAL] = "ERR_INVAL", [-ERR_FAULT] = "ERR_FAULT", [-ERR_NOSYS] = "ERR_NOSYS",
		[-ERR_NOMEM] = "ERR_NOMEM", [-ERR_PERM] = "ERR_PERM", [-ERR_NOENT] = "ERR_NOENT",
		[-ERR_SRCH] = "ERR_SRCH", [-ERR_CHILD] = "ERR_CHILD", [-ERR_BADH] = "ERR_BADH",
		[-ERR_TIMEOUT] = "ERR_TIMEOUT", [-ERR_DEAD] = "ERR_DEAD", [-ERR_NOSPC] = "ERR_NOSPC",
		[-ERR_EXIST] = "ERR_EXIST", [-ERR_MSGSIZE] = "ERR_MSGSIZE",
		[-ERR_NOREPLY] = "ERR_NOREPLY", [-ERR_TOOBIG] = "ERR_TOOBIG",
		[-ERR_NOEXEC] = "ERR_NOEXEC", [-ERR_BUSY] = "ERR_BUSY", [-ERR_LIMIT] = "ERR_LIMIT",
		[-ERR_QUOTA] = "ERR_QUOTA",
	};
	if (err < 0 && -err < (int)(sizeof(text) / sizeof(text[0])) && text[-err])
		return text[-err];
	return err >= 0 ? "ok" : "unknown error";
}

const char *core_name(uint32_t type)
{
	return type == CORE_P ? "P" : type == CORE_E ? "E" : type == CORE_LPE ? "LP-E" : "-";
}
