/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the number parsers (kernel/lib/parse.c), checked
 * against a reference model written with the C library. */
#include <errno.h>
#include <inttypes.h>
#include <tests/fuzz/fuzz.h>
#include <lib/parse.h>

/* Reference for parse_u64(s, 0, ...): decimal, or hex after 0x/0X; no
 * sign, no spaces, nothing else, at most 64 bits. */
static int model_u64(const char *s, uint64_t *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = hex ? s + 2 : s;
	if (!*d)
		return -1;
	for (const char *p = d; *p; p++)
		if (!(hex ? ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))
			  : (*p >= '0' && *p <= '9')))
			return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(d, &end, hex ? 16 : 10);
	if (errno == ERANGE || *end)
		return -1;
	*out = v;
	return 0;
}

static const char *const corpus[] = { "0", "1", "42", "0x1f", "0XFF", "18446744073709551615",
	"18446744073709551616", "0xffffffffffffffff", "0x10000000000000000", "-1", "-9223372036854775808",
	"-9223372036854775809", "9223372036854775807", "", "0x", "12a", " 7", "600000", "00000000000000000000001" };

static void fuzz_one(struct fuzz *f)
{
	unsigned char buf[64];
	const char *seed = fuzz_pick(f, corpus, sizeof(corpus) / sizeof(corpus[0]));
	size_t len = strlen(seed);
	memcpy(buf, seed, len);
	fuzz_mutate(f, buf, &len, sizeof(buf) - 1);
	buf[len] = 0;
	const char *s = (const char *)buf;   /* an embedded NUL just ends it early */

	uint64_t got = 0, want = 0;
	int rg = parse_u64(s, 0, &got), rw = model_u64(s, &want);
	if (rg != rw || (rg == 0 && got != want))
		fuzz_fail(f, "parse_u64('%s') = %d/%" PRIu64 ", model %d/%" PRIu64, s, rg, got, rw, want);

	int64_t sg;
	int neg = s[0] == '-';
	int rs = parse_i64(s, &sg);
	int rm = model_u64(s + neg, &want);
	int fits = rm == 0 && want <= (uint64_t)INT64_MAX + (uint64_t)neg;
	if ((rs == 0) != fits || (rs == 0 && (uint64_t)(neg ? -(uint64_t)sg : (uint64_t)sg) != want))
		fuzz_fail(f, "parse_i64('%s') = %d", s, rs);

	char err[48];   /* short on purpose: long inputs must be cut, not overflow */
	uint64_t lo = fuzz_below(f, 1000), hi = lo + fuzz_below(f, 1000000), v = 7;
	int rr = parse_u64_range(s, lo, hi, &v, "value", err, sizeof(err));
	int ok = rw == 0 && want >= lo && want <= hi;
	if ((rr == 0) != ok || (rr == 0 && v != want) || (rr != 0 && (v != 7 || !err[0])))
		fuzz_fail(f, "parse_u64_range('%s', %" PRIu64 ", %" PRIu64 ") = %d", s, lo, hi, rr);
	if (rr != 0 && !memchr(err, 0, sizeof(err)))   /* on success err is not written */
		fuzz_fail(f, "message not terminated");
}

FUZZ_MAIN("parse")
