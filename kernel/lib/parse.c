/* SPDX-License-Identifier: BSD-2-Clause */
/* parse.c — numbers from text (see parse.h). */
#include <lib/parse.h>
#include <kern/printk.h>

int parse_u64(const char *s, unsigned base, uint64_t *out)
{
	if (base != 10 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (base == 0) {
		base = 10;
	}
	if (!*s)
		return -1;
	uint64_t v = 0;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int parse_i64(const char *s, int64_t *out)
{
	int neg = *s == '-';
	uint64_t v;
	if (parse_u64(s + neg, 0, &v) || v > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char *what,
		    char *err, size_t err_len)
{
	return parse_u64_range_base(s, 0, min, max, out, what, err, err_len);
}

int parse_u64_range_base(const char *s, unsigned base, uint64_t min, uint64_t max, uint64_t *out,
			 const char *what, char *err, size_t err_len)
{
	uint64_t v;
	unsigned long long lo = min, hi = max;
	if (parse_u64(s, base, &v)) {
		ksnprintf(err, err_len, base == 16 ? "%s: '%.*s' is not a hex number (0x%llx..0x%llx)"
						   : "%s: '%.*s' is not a number (%llu..%llu)",
			  what, PARSE_ECHO_MAX, s, lo, hi);
		return -1;
	}
	if (v < min || v > max) {
		ksnprintf(err, err_len, base == 16 ? "%s: %.*s is outside 0x%llx..0x%llx"
						   : "%s: %.*s is outside %llu..%llu",
			  what, PARSE_ECHO_MAX, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_i64_range(const char *s, int64_t min, int64_t max, int64_t *out, const char *what,
		    char *err, size_t err_len)
{
	int64_t v;
	if (parse_i64(s, &v)) {
		ksnprintf(err, err_len, "%s: '%.*s' is not a number (%lld..%lld)", what, PARSE_ECHO_MAX, s,
			  (long long)min, (long long)max);
		return -1;
	}
	if (v < min || v > max) {
		ksnprintf(err, err_len, "%s: %.*s is outside %lld..%lld", what, PARSE_ECHO_MAX, s,
			  (long long)min, (long long)max);
		return -1;
	}
	*out = v;
	return 0;
}
