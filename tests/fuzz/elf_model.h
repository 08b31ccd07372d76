/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * elf_model.h — the model of the fuzz harness of the shared ELF checks
 * (tests/fuzz/fuzz_elf.c): the rules of boot/elf_check.h written out
 * independently of elf_check.c, reading the input itself, with the
 * message elf_check.c gives for the first fault in its order.
 */
#ifndef MOSAIC_FUZZ_ELF_MODEL_H
#define MOSAIC_FUZZ_ELF_MODEL_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <boot/elf.h>
#include <boot/elf_check.h>

#define PAGE  0x1000ull
#define WX    (ELF_PF_W | ELF_PF_X)
#define PHENT sizeof(struct elf64_phdr)

/* The order of the checks: the header; then each non-empty PT_LOAD on its
 * own, the count, against the segments before it; the span; the entry
 * point. Every function takes the rules r and fills want with the message
 * when it refuses. */

/* A segment the model took: its program header, and its number. */
struct mseg {
	struct elf64_phdr ph;
	uint64_t index;   /* its program header number */
};

/* "R-X"-style permissions. */
static const char *perm_text(uint32_t flags, char out[4])
{
	out[0] = flags & 4 ? 'R' : '-';
	out[1] = flags & ELF_PF_W ? 'W' : '-';
	out[2] = flags & ELF_PF_X ? 'X' : '-';
	out[3] = 0;
	return out;
}

/* Whether the ELF header of in[0..len) (copied to *eh) and its program
 * header table pass: 1, or 0 with the message in want. */
static int model_header(const struct elf_rules *r, const unsigned char *in, uint64_t len,
			struct elf64_ehdr *eh, char *want, size_t size)
{
	unsigned long long n = len;
	if (len < sizeof(*eh))
		return snprintf(want, size, "not an ELF file (%llu bytes, no ELF magic)", n), 0;
	memcpy(eh, in, sizeof(*eh));
	if (eh->magic != ELF_MAGIC)
		return snprintf(want, size, "not an ELF file (%llu bytes, no ELF magic)", n), 0;
	if (eh->class != ELF_CLASS_64)
		return snprintf(want, size, "not ELF64 (class %u); the %s must be a 64-bit ELF", eh->class,
				r->what), 0;
	if (eh->data != ELF_DATA_LSB)
		return snprintf(want, size, "not little-endian (ELF data encoding %u)", eh->data), 0;
	if (eh->machine != ELF_MACHINE_X86_64)
		return snprintf(want, size, "built for ELF machine %u, not x86-64 (62)", eh->machine), 0;
	if (eh->type != ELF_TYPE_EXEC)
		return snprintf(want, size, "ELF type %u, not a static executable (ET_EXEC = 2)",
				eh->type), 0;
	if (eh->phentsize != PHENT || eh->phnum == 0)
		return snprintf(want, size, "no usable program headers (%u of %u bytes)", eh->phnum,
				eh->phentsize), 0;
	if (eh->phoff % 8)
		return snprintf(want, size, "program header table at offset %llu is not 8-byte aligned",
				(unsigned long long)eh->phoff), 0;
	if (eh->phoff > len || (uint64_t)eh->phnum * PHENT > len - eh->phoff)
		return snprintf(want, size, "program headers run past the end of the file (%llu bytes); "
				"truncated?", n), 0;
	return 1;
}

/* Non-empty PT_LOAD number i on its own: 1, or 0 with the message. */
static int model_segment(const struct elf_rules *r, const struct elf64_phdr *p,
			 unsigned long long i, uint64_t len, char *want, size_t size)
{
	unsigned long long va = p->vaddr, mem = p->memsz, fsz = p->filesz;
	if (mem == 0)
		return snprintf(want, size, "segment %llu has %llu file bytes but no memory bytes", i,
				fsz), 0;
	if (fsz > mem)
		return snprintf(want, size, "segment %llu has more file bytes (%llu) than memory bytes (%llu)",
				i, fsz, mem), 0;
	if (p->offset > len || fsz > len - p->offset)
		return snprintf(want, size, "segment %llu needs %llu file bytes at offset %llu but the file "
				"has %llu; truncated?", i, fsz, (unsigned long long)p->offset,
				(unsigned long long)len), 0;
	if (va < r->lowest || va >= r->limit || mem > ~0ull - va)
		return snprintf(want, size, "segment %llu at 0x%llX (+0x%llX) is not in %s (%s)", i, va,
				mem, r->region, r->linked), 0;
	if (va + mem > r->limit)
		return snprintf(want, size, "segment %llu %s", i, r->beyond), 0;
	if ((p->flags & WX) == WX)
		return snprintf(want, size, "segment %llu at 0x%llX is writable and executable; the %s is "
				"mapped W^X", i, va, r->what), 0;
	return 1;
}

/* Segment s against the n taken before it: no overlap, no page shared
 * with other write/execute permissions. 1, or 0 with the message. */
static int model_neighbours(const struct mseg *s, const struct mseg *segs, int n, char *want,
			    size_t size)
{
	const struct elf64_phdr *a = &s->ph;
	uint64_t a0 = a->vaddr / PAGE, a1 = (a->vaddr + a->memsz - 1) / PAGE;
	for (int j = 0; j < n; j++) {
		const struct elf64_phdr *b = &segs[j].ph;
		uint64_t b0 = b->vaddr / PAGE, b1 = (b->vaddr + b->memsz - 1) / PAGE;
		char pa[4], pb[4];
		if (a->vaddr < b->vaddr + b->memsz && b->vaddr < a->vaddr + a->memsz)
			return snprintf(want, size, "segment %llu at 0x%llX overlaps segment %llu at 0x%llX",
					(unsigned long long)s->index, (unsigned long long)a->vaddr,
					(unsigned long long)segs[j].index, (unsigned long long)b->vaddr), 0;
		if (a0 <= b1 && b0 <= a1 && ((a->flags ^ b->flags) & WX))
			return snprintf(want, size, "segments %llu (%s) and %llu (%s) share the page at "
					"0x%llX; W^X needs one permission per page",
					(unsigned long long)segs[j].index, perm_text(b->flags, pb),
					(unsigned long long)s->index, perm_text(a->flags, pa),
					(unsigned long long)((a0 > b0 ? a0 : b0) * PAGE)), 0;
	}
	return 1;
}

/* The span and the entry point of the n segments taken: 1, or 0 with the
 * message. */
static int model_span_entry(const struct elf_rules *r, const struct mseg *segs, int n,
			    uint64_t entry, char *want, size_t size)
{
	uint64_t lo = ~0ull, hi = 0;
	for (int j = 0; j < n; j++) {
		lo = segs[j].ph.vaddr < lo ? segs[j].ph.vaddr : lo;
		hi = segs[j].ph.vaddr + segs[j].ph.memsz > hi ? segs[j].ph.vaddr + segs[j].ph.memsz : hi;
	}
	lo &= ~(PAGE - 1);
	hi = (hi + PAGE - 1) & ~(PAGE - 1);
	if (hi - lo > r->span_max)
		return snprintf(want, size, "spans %llu MiB of addresses (0x%llX..0x%llX); at most %llu MiB "
				"is sane", (unsigned long long)((hi - lo + (1u << 20) - 1) >> 20),
				(unsigned long long)lo, (unsigned long long)hi,
				(unsigned long long)(r->span_max >> 20)), 0;
	for (int j = 0; j < n; j++) {
		const struct elf64_phdr *p = &segs[j].ph;
		if (!(p->flags & ELF_PF_X) || entry < p->vaddr || entry - p->vaddr >= p->memsz)
			continue;
		if (entry - p->vaddr < p->filesz)
			return 1;
		return snprintf(want, size, "entry point 0x%llX lies in the zero-filled part of segment %llu "
				"(beyond its %llu file bytes)", (unsigned long long)entry,
				(unsigned long long)segs[j].index, (unsigned long long)p->filesz), 0;
	}
	return snprintf(want, size, "entry point 0x%llX is not inside an executable segment",
			(unsigned long long)entry), 0;
}

/* Whether in[0..len) must be accepted: 1, the non-empty PT_LOADs in
 * segs[0..*nsegs); or 0 with the message in want. */
static int model(const struct elf_rules *r, const unsigned char *in, uint64_t len,
		 struct mseg *segs, int *nsegs, char *want, size_t size)
{
	struct elf64_ehdr eh;
	*nsegs = 0;
	if (!model_header(r, in, len, &eh, want, size))
		return 0;
	for (uint64_t i = 0; i < eh.phnum; i++) {
		struct mseg s = { .index = i };
		memcpy(&s.ph, in + eh.phoff + i * PHENT, PHENT);
		if (s.ph.type != ELF_PT_LOAD || (s.ph.memsz == 0 && s.ph.filesz == 0))
			continue;
		if (!model_segment(r, &s.ph, i, len, want, size))
			return 0;
		if (*nsegs == ELF_SEGMENTS_MAX)
			return snprintf(want, size, "more than %d loadable segments", ELF_SEGMENTS_MAX), 0;
		if (!model_neighbours(&s, segs, *nsegs, want, size))
			return 0;
		segs[(*nsegs)++] = s;
	}
	if (*nsegs == 0)
		return snprintf(want, size, "no loadable (PT_LOAD) segments"), 0;
	return model_span_entry(r, segs, *nsegs, eh.entry, want, size);
}

#endif
