/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the CPU lists people type (kernel/lib/cpulist.c: `spawn
 * … cpus=` sets and `pin=` sequences, `sysctl kern.sched.primary=`): lists
 * built from numbers near the machine's CPU count, ranges, commas, masks
 * and stray bytes, sometimes mutated, for a random CPU count. Both parsers
 * must give a reference model's verdict and CPUs (the set every CPU
 * named, the sequence them in order), write nothing past out[max-1], and
 * leave a message when they refuse. */
#include <inttypes.h>
#include <tests/fuzz/fuzz.h>
#include <lib/cpulist.h>

#define TEXT_MAX 200
#define SEQ_MAX 64
#define ITEM_MAX 24   /* cpulist.c's longest number item */

/* The model of one decimal CPU number s[0..len): 0 and *out, or -1. */
static int model_number(const char *s, size_t len, unsigned ncpu, uint64_t *out)
{
	if (len == 0 || len > ITEM_MAX)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v >= ncpu)
		return -1;
	*out = v;
	return 0;
}

/* The model of a "0x" mask: 0 with the set, or -1. */
static int model_mask(const char *s, unsigned ncpu, struct cpuset *set)
{
	const char *d = s + 2;
	if (!*d)
		return -1;
	while (d[0] == '0' && d[1])   /* leading zeros do not count towards 64 bits */
		d++;
	if (strlen(d) > 16)
		return -1;
	uint64_t v = 0;
	for (; *d; d++) {
		int x = *d >= '0' && *d <= '9' ? *d - '0' : *d >= 'a' && *d <= 'f' ? *d - 'a' + 10
			: *d >= 'A' && *d <= 'F' ? *d - 'A' + 10 : -1;
		if (x < 0)
			return -1;
		v = v << 4 | (uint64_t)x;
	}
	for (unsigned c = 0; c < 64; c++) {
		if ((v >> c) & 1) {
			if (c >= ncpu)
				return -1;
			cpuset_set(set, c);
		}
	}
	return 0;
}

/* The model of both parsers: -1, or the CPUs in order into seq (count in
 * *n, -1 past max) and into set. */
static int model(const char *s, unsigned ncpu, unsigned max, unsigned *seq, int *n,
		 struct cpuset *set, int *mask)
{
	cpuset_zero(set);
	*n = 0;
	*mask = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (ncpu == 0 || ncpu > TOPO_MAXCPU)
		return -1;
	if (*mask)
		return model_mask(s, ncpu, set);
	for (const char *item = s;;) {
		const char *comma = strchr(item, ',');
		size_t len = comma ? (size_t)(comma - item) : strlen(item);
		const char *dash = memchr(item, '-', len);
		size_t lo_len = dash ? (size_t)(dash - item) : len;
		uint64_t lo, hi;
		if (len == 0 || model_number(item, lo_len, ncpu, &lo))
			return -1;
		hi = lo;
		if (dash && model_number(dash + 1, len - lo_len - 1, ncpu, &hi))
			return -1;
		if (hi < lo)
			return -1;
		for (uint64_t c = lo; c <= hi; c++) {
			cpuset_set(set, (unsigned)c);
			if (*n >= 0 && (unsigned)*n < max)
				seq[(*n)++] = (unsigned)c;
			else
				*n = -1;
		}
		if (!comma)
			return 0;
		item = comma + 1;
	}
}

/* A list of random pieces into buf (NUL-terminated, at most cap-1 bytes). */
static void random_list(struct fuzz *f, unsigned ncpu, char *buf, size_t cap)
{
	static const char *const pieces[] = { ",", "-", "0x", "0X", "0", "00", "ff", " ", "a",
		"18446744073709551616", "0000000000000000000000001" };
	size_t len = 0, count = 1 + fuzz_below(f, 12);
	for (size_t k = 0; k < count; k++) {
		char num[32];
		const char *p;
		if (fuzz_below(f, 3)) {   /* a CPU number, mostly near the machine's */
			uint64_t v = fuzz_below(f, 4) ? fuzz_below(f, ncpu + 3) : fuzz_u64(f) >> fuzz_below(f, 64);
			snprintf(num, sizeof(num), "%" PRIu64, v);
			p = num;
		} else {
			p = fuzz_pick(f, pieces, sizeof(pieces) / sizeof(pieces[0]));
		}
		if (!fuzz_append(buf, &len, cap, p))
			break;
	}
	if (fuzz_below(f, 4) == 0)
		fuzz_mutate(f, (unsigned char *)buf, &len, cap - 1);
	buf[len] = 0;   /* a mutation may have put a NUL inside: the list ends there */
}

static void fuzz_one(struct fuzz *f)
{
	char text[TEXT_MAX + 1], err[128];
	unsigned ncpu = fuzz_below(f, 8) == 0 ? (unsigned)fuzz_below(f, TOPO_MAXCPU + 2)
					      : 1 + (unsigned)fuzz_below(f, 24);
	unsigned max = 1 + (unsigned)fuzz_below(f, SEQ_MAX), want_seq[SEQ_MAX], got_seq[SEQ_MAX + 1];
	struct cpuset want_set, got_set;
	int want_n, mask;
	random_list(f, ncpu, text, sizeof(text));
	int want = model(text, ncpu, max, want_seq, &want_n, &want_set, &mask);

	err[0] = 0;
	int got = cpulist_parse(text, ncpu, &got_set, err, sizeof(err));
	if (got != want)
		fuzz_fail(f, "cpulist_parse('%s', %u) = %d, model %d (%s)", text, ncpu, got, want, err);
	if (got == 0 && memcmp(&got_set, &want_set, sizeof(got_set)))
		fuzz_fail(f, "cpulist_parse('%s', %u) gives another set than the model", text, ncpu);
	if (got && (!err[0] || !memchr(err, 0, sizeof(err))))
		fuzz_fail(f, "cpulist_parse('%s', %u) refused without a message", text, ncpu);

	int seq_ok = want == 0 && !mask && want_n > 0;
	err[0] = 0;
	got_seq[max] = 0xdeadbeef;
	int n = cpulist_parse_seq(text, ncpu, got_seq, max, err, sizeof(err));
	if (got_seq[max] != 0xdeadbeef)
		fuzz_fail(f, "cpulist_parse_seq('%s', %u, max %u) wrote past out[max-1]", text, ncpu, max);
	if ((n > 0) != seq_ok || (seq_ok && n != want_n))
		fuzz_fail(f, "cpulist_parse_seq('%s', %u, max %u) = %d, model %d", text, ncpu, max, n,
			  seq_ok ? want_n : -1);
	if (seq_ok && memcmp(got_seq, want_seq, (size_t)n * sizeof(got_seq[0])))
		fuzz_fail(f, "cpulist_parse_seq('%s', %u) gives another sequence than the model", text, ncpu);
	if (n < 0 && (!err[0] || !memchr(err, 0, sizeof(err))))
		fuzz_fail(f, "cpulist_parse_seq('%s', %u) refused without a message", text, ncpu);
}

FUZZ_MAIN("cpulist")
