/* SPDX-License-Identifier: BSD-2-Clause */
/* parse.h — parsing numbers typed by people (shell arguments, sysctl
 * values). Portable C; no locks. */
#ifndef MOSAIC_PARSE_H
#define MOSAIC_PARSE_H
#include <stddef.h>
#include <stdint.h>

/* All of s as an unsigned number. base 10: decimal; base 16: hex with an
 * optional 0x; base 0: hex after 0x, else decimal. Returns 0, or -1 for an
 * empty string, a stray character or a value beyond 64 bits. */
int parse_u64(const char *s, unsigned base, uint64_t *out);
/* Like parse_u64 (base 0) with an optional leading '-'; -1 when the value
 * does not fit an int64_t. */
int parse_i64(const char *s, int64_t *out);

/* Input values named in messages are cut to this many characters. */
#define PARSE_ECHO_MAX 40

/* All of s (base 0, as parse_u64) as a number in min..max. Returns 0, or
 * -1 with a one-line message in err naming `what`, the input and the
 * allowed range, e.g. "ms: 'abc' is not a number (0..600000)". *out is
 * untouched on failure. */
int parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char *what,
		    char *err, size_t err_len);
/* Like parse_u64_range in the given base (as parse_u64: 0, 10 or 16);
 * base 16 names the range in hex, e.g. "LEAF: 'zz' is not a hex number
 * (0x0..0xffffffff)". */
int parse_u64_range_base(const char *s, unsigned base, uint64_t min, uint64_t max, uint64_t *out,
			 const char *what, char *err, size_t err_len);
/* Signed counterpart (optional leading '-'). */
int parse_i64_range(const char *s, int64_t min, int64_t max, int64_t *out, const char *what,
		    char *err, size_t err_len);

#endif
