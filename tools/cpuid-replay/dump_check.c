/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dump_check.c — is a parsed dump whole? AIDA64 / InstLatx64 dumps list
 * the same CPUID leaves for every CPU (not always every leaf below the
 * maximum: a Meteor Lake dump has no leaf 0x1B), every extended leaf up to
 * the maximum leaf 0x80000000 reports, an MSR section for every CPU when
 * they have any, and an "All CPUs" section naming every CPU; a dump cut
 * short (a truncated file, a copy that stopped) breaks one of these. Also
 * sorts each CPU's values so the lookups below are binary searches, and
 * serves them to cpuid_decode().
 */
#include <tools/cpuid-replay/dump.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dump_check(struct dump *d, char *err, size_t errlen);

/* "NAME:LINE: message" into err; returns -1. */
static int fail(const struct dump *d, char *err, size_t errlen, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(const struct dump *d, char *err, size_t errlen, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s:%u: ", d->name, line ? line : 1);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Leaf order: by leaf, lines without "[SL]" first, then by sub-leaf; the
 * file order breaks ties, so the first of repeated lines comes first. */
static int leaf_cmp(const void *a, const void *b)
{
	const struct dump_leaf *x = a, *y = b;
	if (x->leaf != y->leaf)
		return x->leaf < y->leaf ? -1 : 1;
	if (x->has_sub != y->has_sub)
		return x->has_sub - y->has_sub;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* MSR order: by number, the last sample of one MSR first. */
static int msr_cmp(const void *a, const void *b)
{
	const struct dump_msr *x = a, *y = b;
	if (x->msr != y->msr)
		return x->msr < y->msr ? -1 : 1;
	return x->line > y->line ? -1 : x->line < y->line;
}

/* Sorts a CPU's values and keeps one per key: the first CPUID line (a
 * repeated line stands as first given), the last MSR sample. */
static void sort_cpu(struct dump_cpu *c)
{
	size_t k = 0;
	if (c->nleaves > 1)
		qsort(c->leaves, c->nleaves, sizeof(*c->leaves), leaf_cmp);
	for (size_t i = 0; i < c->nleaves; i++) {
		const struct dump_leaf *prev = k ? &c->leaves[k - 1] : NULL, *l = &c->leaves[i];
		if (!prev || prev->leaf != l->leaf || prev->has_sub != l->has_sub || prev->sub != l->sub)
			c->leaves[k++] = *l;
	}
	c->nleaves = k;
	k = 0;
	if (c->nmsrs > 1)
		qsort(c->msrs, c->nmsrs, sizeof(*c->msrs), msr_cmp);
	for (size_t i = 0; i < c->nmsrs; i++)
		if (!k || c->msrs[k - 1].msr != c->msrs[i].msr)
			c->msrs[k++] = c->msrs[i];
	c->nmsrs = k;
}

const struct dump_leaf *dump_find_leaf(const struct dump_cpu *cpu, uint32_t leaf)
{
	size_t lo = 0, hi = cpu->nleaves;
	while (lo < hi) {   /* the first entry with leaf >= the one wanted */
		size_t mid = lo + (hi - lo) / 2;
		if (cpu->leaves[mid].leaf < leaf)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cpu->nleaves && cpu->leaves[lo].leaf == leaf ? &cpu->leaves[lo] : NULL;
}

unsigned dump_last_cpuid_line(const struct dump_cpu *c)
{
	unsigned last = c->cpuid_line;
	for (size_t i = 0; i < c->nleaves; i++)
		if (c->leaves[i].line > last)
			last = c->leaves[i].line;
	return last;
}

/* Distinct leaf numbers a CPU lists (its values sorted). */
static size_t leaf_count(const struct dump_cpu *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nleaves; i++)
		n += i == 0 || c->leaves[i].leaf != c->leaves[i - 1].leaf;
	return n;
}

/* One CPU whole: leaf 0, every leaf the fullest CPU (ref) lists, and every
 * extended leaf up to its maximum. */
static int check_cpu(const struct dump *d, const struct dump_cpu *c, const struct dump_cpu *ref,
		     char *err, size_t errlen)
{
	const struct dump_leaf *e0 = dump_find_leaf(c, 0x80000000u);
	if (!dump_find_leaf(c, 0))
		return fail(d, err, errlen, c->cpuid_line, "logical CPU #%u lists no CPUID leaf 0%s",
			    c->number, c->nleaves ? "" : " (an empty section): truncated?");
	for (size_t i = 0; i < ref->nleaves; i++)
		if (!dump_find_leaf(c, ref->leaves[i].leaf))
			return fail(d, err, errlen, dump_last_cpuid_line(c),
				    "logical CPU #%u lists no CPUID leaf 0x%X, logical CPU #%u does (section from line %u): truncated?",
				    c->number, ref->leaves[i].leaf, ref->number, c->cpuid_line);
	uint32_t max = !e0 ? 0 : e0->regs[0] < DUMP_MAX_EXTENDED ? e0->regs[0] : DUMP_MAX_EXTENDED;
	for (uint32_t l = 0x80000001u; e0 && l <= max; l++)
		if (!dump_find_leaf(c, l))
			return fail(d, err, errlen, dump_last_cpuid_line(c),
				    "logical CPU #%u lists no CPUID leaf 0x%X, below its maximum 0x%X (section from line %u): truncated?",
				    c->number, l, max, c->cpuid_line);
	return 0;
}

int dump_check(struct dump *d, char *err, size_t errlen)
{
	const struct dump_cpu *any_msr = NULL, *ref = NULL;
	d->ncpus = 0;
	for (unsigned i = 0; i < DUMP_MAX_CPUS; i++) {
		struct dump_cpu *c = d->cpu[i];
		if (!c)
			continue;
		if (!c->cpuid_line)
			return fail(d, err, errlen, c->msr_line,
				    "MSR section for logical CPU #%u, which has no CPUID section", i);
		sort_cpu(c);
		d->ncpus++;
		if (c->msr_line && !any_msr)
			any_msr = c;
		if (!ref || leaf_count(c) > leaf_count(ref))
			ref = c;
	}
	if (d->ncpus == 0)
		return fail(d, err, errlen, d->lines, "no CPUID lines (not an InstLatx64 CPUID dump?)");
	for (unsigned i = 0; i < DUMP_MAX_CPUS; i++) {
		const struct dump_cpu *c = d->cpu[i];
		if (!c)
			continue;
		if (check_cpu(d, c, ref, err, errlen))
			return -1;
		if (any_msr && !c->msr_line)
			return fail(d, err, errlen, d->lines,
				    "logical CPU #%u has no MSR section, logical CPU #%u has one: truncated?",
				    i, any_msr->number);
	}
	if (d->all_cpus_line && d->all_cpus != d->ncpus)
		return fail(d, err, errlen, d->all_cpus_line,
			    "the All CPUs section lists %u CPUs, the dump has CPUID sections for %u: truncated?",
			    d->all_cpus, d->ncpus);
	return 0;
}

unsigned dump_package_count(const struct dump_cpu *cpu)
{
	const struct dump_leaf *l0 = dump_find_leaf(cpu, 0), *e0 = dump_find_leaf(cpu, 0x80000000u);
	uint32_t leaves[3] = { 0x80000026u, 0x1F, 0x0B }, regs[4];
	for (int k = 0; k < 3 && l0; k++) {
		unsigned count = 0;
		if (leaves[k] >= 0x80000000u ? !e0 || e0->regs[0] < leaves[k] : l0->regs[0] < leaves[k])
			continue;
		for (uint32_t sub = 0; sub < 8; sub++) {
			if (dump_cpuid((void *)cpu, leaves[k], sub, regs) ||
			    ((regs[2] >> 8) & 0xFF) == 0 || (regs[1] & 0xFFFF) == 0)
				break;
			count = regs[1] & 0xFFFF;
		}
		if (count)
			return count;
	}
	return 0;
}

int dump_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	const struct dump_cpu *cpu = ctx;
	const struct dump_leaf *l = dump_find_leaf(cpu, leaf), *any = NULL;
	const struct dump_leaf *end = cpu->leaves + cpu->nleaves;
	if (!l)
		return -1;
	for (; l < end && l->leaf == leaf; l++) {
		if (!l->has_sub) {
			any = any ? any : l;   /* a line without [SL] answers any sub-leaf */
		} else if (l->sub == sub) {
			memcpy(regs, l->regs, sizeof(l->regs));
			return 0;
		}
	}
	if (any)
		memcpy(regs, any->regs, sizeof(any->regs));
	else   /* listed, but not this sub-leaf: dumps stop before the terminator */
		regs[0] = regs[1] = regs[2] = regs[3] = 0;
	return 0;
}

int dump_msr(void *ctx, uint32_t msr, uint64_t *value)
{
	const struct dump_cpu *cpu = ctx;
	size_t lo = 0, hi = cpu->nmsrs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cpu->msrs[mid].msr == msr) {
			*value = cpu->msrs[mid].value;
			return 0;
		}
		if (cpu->msrs[mid].msr < msr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}
