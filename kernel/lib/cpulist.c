/* SPDX-License-Identifier: BSD-2-Clause */
/* cpulist.c — CPU sets typed by people (`spawn … cpus=`); see cpulist.h.
 * Portable C (host-tested in tests/unit/test_cpulist.c). */
#include <lib/parse.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <lib/cpulist.h>

/* Longest CPU number item copied for parsing; longer ones are refused. */
#define CPULIST_ITEM_MAX 24

/* The number in s[0..len) as a CPU id below ncpu: 0, or -1 with a message
 * naming the item and the range of CPUs. */
static int cpulist_number(const char *s, size_t len, unsigned ncpu, uint64_t *out, char *err,
			  size_t err_len)
{
	char num[CPULIST_ITEM_MAX + 1];
	if (len > CPULIST_ITEM_MAX) {
		ksnprintf(err, err_len, "cpus: '%.*s...' is not a CPU number (0..%u)", CPULIST_ITEM_MAX,
			  s, ncpu - 1);
		return -1;
	}
	memcpy(num, s, len);
	num[len] = 0;
	return parse_u64_range_base(num, 10, 0, ncpu - 1, out, "cpus", err, err_len);
}

/* Characters of s before the first c (or the end). */
static size_t span_until(const char *s, char c)
{
	size_t n = 0;
	while (s[n] && s[n] != c)
		n++;
	return n;
}

/* "0x" mask: every set bit a CPU below ncpu (and below 64). */
static int cpulist_mask(const char *s, unsigned ncpu, struct cpuset *out, char *err,
			size_t err_len)
{
	uint64_t mask;
	if (parse_u64(s, 16, &mask)) {
		ksnprintf(err, err_len, "cpus: '%.*s' is not a hex mask (0x1..0x%llx)", PARSE_ECHO_MAX,
			  s, ncpu >= 64 ? ~0ull : (1ull << ncpu) - 1);
		return -1;
	}
	for (unsigned c = 0; c < 64; c++) {
		if (!((mask >> c) & 1))
			continue;
		if (c >= ncpu) {
			ksnprintf(err, err_len, "cpus: mask %.*s names cpu %u; this machine has cpus 0..%u",
				  PARSE_ECHO_MAX, s, c, ncpu - 1);
			return -1;
		}
		cpuset_set(out, c);
	}
	return 0;
}

/* The item of len chars at item (one CPU "6" or a range "0-3", within the
 * list s named in messages) as lo..hi: 0, or -1 with a message. */
static int cpulist_item(const char *s, const char *item, size_t len, unsigned ncpu, uint64_t *lo,
			uint64_t *hi, char *err, size_t err_len)
{
	size_t dash = span_until(item, '-');
	if (len == 0) {
		ksnprintf(err, err_len, "cpus: empty item in '%.*s' (a list like 0-3,6)", PARSE_ECHO_MAX, s);
		return -1;
	}
	if (dash > len)
		dash = len;
	if (cpulist_number(item, dash, ncpu, lo, err, err_len))
		return -1;
	*hi = *lo;
	if (dash < len && cpulist_number(item + dash + 1, len - dash - 1, ncpu, hi, err, err_len))
		return -1;
	if (*hi < *lo) {
		ksnprintf(err, err_len, "cpus: range %.*s goes backwards",
			  (int)(len < PARSE_ECHO_MAX ? len : PARSE_ECHO_MAX), item);
		return -1;
	}
	return 0;
}

/* 0 when ncpu is a machine's CPU count cpulist can name, else -1 with a
 * message. */
static int cpulist_ncpu_ok(unsigned ncpu, char *err, size_t err_len)
{
	if (ncpu != 0 && ncpu <= TOPO_MAXCPU)
		return 0;
	ksnprintf(err, err_len, "cpus: no CPUs to choose from");
	return -1;
}

/* See cpulist.h. Items are read in place, so the list may be as long
 * as its caller's line. */
int cpulist_parse(const char *s, unsigned ncpu, struct cpuset *out, char *err, size_t err_len)
{
	cpuset_zero(out);
	if (cpulist_ncpu_ok(ncpu, err, err_len))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return cpulist_mask(s, ncpu, out, err, err_len);
	for (const char *item = s;;) {
		size_t len = span_until(item, ',');
		uint64_t lo, hi;
		if (cpulist_item(s, item, len, ncpu, &lo, &hi, err, err_len))
			return -1;
		for (uint64_t c = lo; c <= hi; c++)
			cpuset_set(out, (unsigned)c);
		if (!item[len])
			return 0;
		item += len + 1;
	}
}

/* See cpulist.h. */
int cpulist_parse_seq(const char *s, unsigned ncpu, unsigned *out, unsigned max, char *err,
		      size_t err_len)
{
	unsigned n = 0;
	if (cpulist_ncpu_ok(ncpu, err, err_len))
		return -1;
	for (const char *item = s;;) {
		size_t len = span_until(item, ',');
		uint64_t lo, hi;
		if (cpulist_item(s, item, len, ncpu, &lo, &hi, err, err_len))
			return -1;
		if (hi - lo >= max - n) {
			ksnprintf(err, err_len, "cpus: '%.*s' names more than %u CPUs", PARSE_ECHO_MAX, s, max);
			return -1;
		}
		for (uint64_t c = lo; c <= hi; c++)
			out[n++] = (unsigned)c;
		if (!item[len])
			return (int)n;
		item += len + 1;
	}
}
