/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the shared ELF checks (boot/elf_check.c), with the
 * loader's kernel rules and the kernel's user-program rules
 * (kernel/user/uelf_rules.c), one or the other per iteration.
 *
 * Each input is a random well-formed image in the rules' range: 1..18
 * loadable segments (exactly ELF_SEGMENTS_MAX or one more in half the
 * images) of random permissions, laid out with random gaps, some sharing
 * pages, among other program headers (PT_NULL, PT_NOTE, PT_PHDR,
 * PT_GNU_STACK, empty PT_LOADs), starting at or a few pages above the
 * lowest address allowed (kernels mostly at 0xffffffff80000000). Some sit
 * at the other limits: a span of exactly the rules' span_max or one page
 * more; a last segment ending exactly at the rules' limit or one byte past
 * it; a segment of up to 64 MiB of file bytes; a table of 65535 or 65534
 * program headers (the largest e_phnum), sometimes cut to end at the end
 * of the file or one byte after it. Then the image is damaged: header and
 * program-header fields set to boundary values (the range's edges, the
 * span, the file's end among them), the file cut at a segment's last byte
 * or one before, and raw byte mutations of the small images. The checks
 * read only the ELF header and the program headers, so a large image is
 * written only there, into one buffer allocated at first use and reused.
 *
 * elf_check_rules() must agree with an independent model of the rules
 * (elf_model.h, reading the input itself): the same verdict, and for a
 * refusal the model's message, that of the first fault in the order
 * elf_check.c checks. Whatever it accepts must satisfy the loaders'
 * invariants: segments inside the file and the range, none overlapping,
 * no page both writable and executable, the entry point in the file bytes
 * of an executable segment, a bounded span and segment count, and a layout
 * that lists exactly the non-empty PT_LOAD segments. Every input ends
 * where its buffer ends, so ASan sees any read past it. */
#include <tests/fuzz/fuzz.h>
#include <boot/elf.h>
#include <boot/elf_check.h>
#include <user/uelf_rules.h>
#include <tests/fuzz/elf_model.h>

#define PH_SMALL  24                 /* program headers of the usual images */
#define PH_LIMIT  0xffff             /* the largest e_phnum */
#define SEGS_MAX  (ELF_SEGMENTS_MAX + 2)
#define SMALL_MAX 0x2000             /* images copied whole to an exact-size block */
#define BIG_FILE  (64ull << 20)      /* file bytes of a large segment, at most */
#define WORK_MAX  (64 + PH_LIMIT * PHENT + SMALL_MAX)
#define BIG_CAP   (BIG_FILE + WORK_MAX)

static unsigned char file[WORK_MAX] __attribute__((aligned(8)));   /* the image as built */
static size_t file_len;                 /* its size */
static size_t built;                    /* how much of file[] was written */
static int ph_count;                    /* program headers written at 64 */
static int slot[SEGS_MAX], nslots;      /* the segments' program header numbers */
static const struct elf_rules *rules;   /* this iteration's */
static uint64_t base;                   /* where its images start */

static struct elf64_ehdr *ehdr(void) { return (struct elf64_ehdr *)file; }
static struct elf64_phdr *phdr(int i) { return (struct elf64_phdr *)(file + 64) + i; }

/* ---- building */

/* How many segments: ELF_SEGMENTS_MAX or one more in half the images. */
static int segment_count(struct fuzz *f)
{
	switch (fuzz_below(f, 8)) {
	case 0: case 1: return ELF_SEGMENTS_MAX;
	case 2: case 3: return ELF_SEGMENTS_MAX + 1;
	case 4: return fuzz_below(f, 2) ? ELF_SEGMENTS_MAX - 1 : ELF_SEGMENTS_MAX + 2;
	default: return 1 + (int)fuzz_below(f, 6);
	}
}

/* Picks the n segments' places among ph_count program headers, in order:
 * any of them in a small table, spread over a large one (the last one
 * sometimes last). */
static void place_slots(struct fuzz *f, int n)
{
	nslots = n;
	if (ph_count > PH_SMALL) {
		int step = ph_count / n;
		for (int k = 0; k < n; k++)
			slot[k] = k * step + (int)fuzz_below(f, step);
		if (fuzz_below(f, 2))
			slot[n - 1] = ph_count - 1;
		return;
	}
	for (int i = 0, k = 0; k < n; i++)
		if (n - k == ph_count - i || fuzz_below(f, (uint64_t)(ph_count - i)) < (uint64_t)(n - k))
			slot[k++] = i;
}

/* A program header the checks must skip: another type, or an empty PT_LOAD
 * (any address and permissions). */
static void filler(struct fuzz *f, struct elf64_phdr *ph)
{
	static const uint32_t types[] = { 0, 4, 6, 0x6474e551u, ELF_PT_LOAD };
	*ph = (struct elf64_phdr){ .type = types[fuzz_below(f, 5)], .flags = (uint32_t)fuzz_below(f, 8),
				   .offset = fuzz_below(f, 0x4000), .vaddr = fuzz_u64(f), .align = PAGE };
	if (ph->type != ELF_PT_LOAD) {
		ph->filesz = fuzz_below(f, 0x100);
		ph->memsz = ph->filesz + fuzz_below(f, 0x100);
	}
}

/* The file bytes of the large segment: up to BIG_FILE, often just under. */
static uint64_t big_size(struct fuzz *f)
{
	return fuzz_below(f, 2) ? BIG_FILE - fuzz_below(f, 2) * fuzz_below(f, PAGE)
				: SMALL_MAX + fuzz_below(f, BIG_FILE - SMALL_MAX);
}

/* Writes ph_count program headers at 64: n segments at their slots, the
 * others fillers (in a large table mostly PT_NULL, a few fillers). */
static void write_table(struct fuzz *f)
{
	memset(file, 0, 64 + ph_count * PHENT);
	if (ph_count > PH_SMALL) {
		for (int k = 0; k < 8; k++)
			filler(f, phdr((int)fuzz_below(f, (uint64_t)ph_count)));
		return;
	}
	for (int i = 0; i < ph_count; i++)
		filler(f, phdr(i));
}

/* A valid image: header, program headers at 64, segment bytes after them
 * (those of a large segment and any after it not written). */
static void make_image(struct fuzz *f)
{
	static const uint32_t perms[] = { 4 | ELF_PF_X, 4, 4 | ELF_PF_W, 4 | ELF_PF_X, 4 };
	int n = segment_count(f), big = fuzz_below(f, 8) ? -1 : (int)fuzz_below(f, (uint64_t)n);
	ph_count = fuzz_below(f, 250) ? n + (int)fuzz_below(f, (uint64_t)(PH_SMALL - n + 1))
				       : PH_LIMIT - (int)fuzz_below(f, 2);
	place_slots(f, n);
	write_table(f);
	*ehdr() = (struct elf64_ehdr){ .magic = ELF_MAGIC, .class = ELF_CLASS_64,
				       .data = ELF_DATA_LSB, .version = 1, .type = ELF_TYPE_EXEC,
				       .machine = ELF_MACHINE_X86_64, .version2 = 1, .phoff = 64,
				       .ehsize = 64, .phentsize = PHENT, .phnum = (uint16_t)ph_count };
	uint64_t va = base + PAGE * fuzz_below(f, 4), off = 64 + ph_count * PHENT;
	uint32_t prev = 0;
	built = off;
	for (int k = 0; k < n; k++) {
		uint32_t flags = k == 0 ? perms[0] : perms[fuzz_below(f, 5)];
		uint64_t filesz = k == big ? big_size(f) : fuzz_below(f, 0x80);
		uint64_t memsz = filesz + fuzz_below(f, 3) * fuzz_below(f, 0x3000);
		if (memsz == 0)
			memsz = filesz = 1;
		if (k == 0 && filesz == 0)
			memsz = filesz = 0x10;
		/* Same permissions may share the page; others start a new one. */
		if (k && (flags != prev || fuzz_below(f, 2)))
			va = (va + PAGE - 1) & ~(PAGE - 1);
		*phdr(slot[k]) = (struct elf64_phdr){ .type = ELF_PT_LOAD, .flags = flags, .offset = off,
						      .vaddr = va, .paddr = va, .filesz = filesz,
						      .memsz = memsz, .align = PAGE };
		if (off == built && off + filesz <= WORK_MAX) {
			for (uint64_t b = 0; b < filesz; b++)
				file[off + b] = (unsigned char)fuzz_u64(f);
			built = off + filesz;
		}
		if (k == 0)
			ehdr()->entry = va + (fuzz_below(f, 4) ? fuzz_below(f, filesz) : filesz - 1);
		off += filesz;
		va += memsz + fuzz_below(f, 2) * fuzz_below(f, 0x2000);
		prev = flags;
	}
	file_len = off;
}

/* The last segment grows (more zero-filled bytes) to end at hi, if that
 * keeps its file bytes. */
static void stretch_last(uint64_t hi)
{
	struct elf64_phdr *p = phdr(slot[nslots - 1]);
	if (hi > p->vaddr + p->filesz)
		p->memsz = hi - p->vaddr;
}

/* Moves the image up by whole pages until its last page is the rules'
 * last, then makes the last segment end at limit + d, d in -1..1. */
static void move_to_limit(struct fuzz *f)
{
	const struct elf64_phdr *last = phdr(slot[nslots - 1]);
	uint64_t end = (last->vaddr + last->memsz + PAGE - 1) & ~(PAGE - 1);
	uint64_t by = (rules->limit - end) & ~(PAGE - 1);
	for (int k = 0; k < nslots; k++) {
		phdr(slot[k])->vaddr += by;
		phdr(slot[k])->paddr += by;
	}
	static const uint64_t nudge[] = { 0, 0, 1, -1ull };
	ehdr()->entry += by;
	stretch_last(rules->limit + nudge[fuzz_below(f, 4)]);
}

/* Puts some images at the limits: the span at span_max or one page more,
 * the end at the rules' limit or a byte past it, a large table cut to end
 * at the end of the file or one byte before. */
static void reach_limits(struct fuzz *f)
{
	static const uint64_t nudge[] = { 0, 0, 1, 1, -1ull, 1 - PAGE, PAGE };
	if (fuzz_below(f, 4) == 0)
		stretch_last((phdr(slot[0])->vaddr & ~(PAGE - 1)) + rules->span_max +
			     nudge[fuzz_below(f, sizeof(nudge) / sizeof(nudge[0]))]);
	if (fuzz_below(f, 8) == 0)
		move_to_limit(f);
	if (ph_count > PH_SMALL && fuzz_below(f, 4) == 0)
		file_len = 64 + ph_count * PHENT - fuzz_below(f, 2);
}

/* A program header: mostly a segment's. */
static struct elf64_phdr *some_phdr(struct fuzz *f)
{
	return phdr(fuzz_below(f, 4) ? slot[fuzz_below(f, (uint64_t)nslots)]
				     : (int)fuzz_below(f, (uint64_t)ph_count));
}

/* A boundary value for a field, often related to the image itself. */
static uint64_t boundary(struct fuzz *f)
{
	const struct elf64_phdr *p = some_phdr(f);
	switch (fuzz_below(f, 14)) {
	case 0: return fuzz_below(f, 9);
	case 1: return file_len + fuzz_below(f, 3) - 1;
	case 2: return (fuzz_below(f, 2) ? rules->lowest : rules->limit) - fuzz_below(f, 2);
	case 3: return p->vaddr + fuzz_below(f, 3) - 1;
	case 4: return p->vaddr + p->memsz + fuzz_below(f, 3) - 1;
	case 5: return p->vaddr + p->filesz + fuzz_below(f, 3) - 1;
	case 6: return (p->vaddr & ~(PAGE - 1)) + PAGE * fuzz_below(f, 3) - fuzz_below(f, 2);
	case 7: return ~0ull - fuzz_below(f, 0x2000);
	case 8: return rules->span_max + fuzz_below(f, 3) - 1;
	case 9: return 1ull << fuzz_below(f, 64);
	case 10: return fuzz_below(f, 0x4000);
	case 11: return rules->limit - p->vaddr + fuzz_below(f, 3) - 1;   /* a memsz ending at the limit */
	case 12: return (p->vaddr & ~(PAGE - 1)) + rules->span_max - p->vaddr + fuzz_below(f, 2);
	default: return fuzz_u64(f);
	}
}

/* Sets one header or program-header field to a boundary value, or cuts
 * the file. */
static void mutate_field(struct fuzz *f)
{
	struct elf64_ehdr *eh = ehdr();
	struct elf64_phdr *p = some_phdr(f);
	uint64_t v = boundary(f);
	switch (fuzz_below(f, 15)) {
	case 0: eh->entry = v; break;
	case 1: eh->phoff = fuzz_below(f, 2) ? v : 64 + fuzz_below(f, 16); break;
	case 2:
		eh->phnum = (uint16_t)(fuzz_below(f, 2) ? fuzz_below(f, (uint64_t)ph_count + 2)
					  : fuzz_below(f, 2) ? PH_LIMIT : v);
		break;
	case 3: eh->phentsize = (uint16_t)v; break;
	case 4: p->type = (uint32_t)fuzz_below(f, 4); break;
	case 5: p->flags = (uint32_t)fuzz_below(f, 8); break;
	case 6: p->offset = v; break;
	case 7: p->vaddr = v; break;
	case 8: p->filesz = v; break;
	case 9: p->memsz = v; break;
	case 10: p->memsz = p->filesz + fuzz_below(f, 2); break;
	case 11: eh->entry = p->vaddr + fuzz_below(f, p->memsz < 0x10000 ? p->memsz + 2 : 0x10000); break;
	case 12: file_len = fuzz_below(f, file_len + 1); break;
	case 13:   /* the file ends with this segment's bytes, or one before */
		if (p->offset + p->filesz - 1 < file_len)
			file_len = p->offset + p->filesz - fuzz_below(f, 2);
		break;
	default: *p = *some_phdr(f); break;   /* a duplicate */
	}
}

/* The buffer of the large images: allocated at first use, then reused. */
static unsigned char *big_buffer(void)
{
	static unsigned char *big;
	if (!big && !(big = malloc(BIG_CAP))) {
		fprintf(stderr, "fuzz elf: no memory for %llu bytes\n", (unsigned long long)BIG_CAP);
		exit(1);
	}
	return big;
}
/* ---- checks */

/* The invariants of an accepted layout, checked on the layout itself. */
static void check_layout(struct fuzz *f, const struct elf_layout *l)
{
	int entry_ok = 0;
	if (l->segment_count == 0 || l->segment_count > ELF_SEGMENTS_MAX)
		fuzz_fail(f, "%u segments accepted", l->segment_count);
	if (l->virt_base % PAGE || l->virt_end % PAGE || l->virt_end - l->virt_base > rules->span_max)
		fuzz_fail(f, "span %llx..%llx", (unsigned long long)l->virt_base,
			  (unsigned long long)l->virt_end);
	for (uint32_t i = 0; i < l->segment_count; i++) {
		const struct elf_segment *s = &l->segments[i];
		uint32_t pages[2] = { 0, 0 };
		if (s->offset > file_len || s->filesz > file_len - s->offset || s->filesz > s->memsz ||
		    s->memsz == 0 || s->vaddr < l->virt_base || s->vaddr < rules->lowest ||
		    s->vaddr + s->memsz > l->virt_end || s->vaddr + s->memsz < s->vaddr ||
		    s->vaddr + s->memsz > rules->limit)
			fuzz_fail(f, "segment %u out of bounds", s->index);
		if ((s->flags & ELF_PF_X) && l->entry >= s->vaddr && l->entry - s->vaddr < s->filesz)
			entry_ok = 1;
		/* A page two segments touch is the first or last page of one of
		 * them: the union of the permissions there must not be W+X. */
		uint64_t edge[2] = { s->vaddr & ~(PAGE - 1), (s->vaddr + s->memsz - 1) & ~(PAGE - 1) };
		for (uint32_t j = 0; j < l->segment_count; j++) {
			const struct elf_segment *o = &l->segments[j];
			if (j != i && s->vaddr < o->vaddr + o->memsz && o->vaddr < s->vaddr + s->memsz)
				fuzz_fail(f, "segments %u and %u overlap", s->index, o->index);
			for (int e = 0; e < 2; e++)
				if (edge[e] < o->vaddr + o->memsz && o->vaddr < edge[e] + PAGE)
					pages[e] |= o->flags & WX;
		}
		if (pages[0] == WX || pages[1] == WX)
			fuzz_fail(f, "a page of segment %u is writable and executable", s->index);
	}
	if (!entry_ok)
		fuzz_fail(f, "entry %llx outside the file bytes of an executable segment",
			  (unsigned long long)l->entry);
}

/* Checks in[0..file_len) against the model and the invariants. */
static void check_input(struct fuzz *f, const unsigned char *in)
{
	struct elf_layout l;
	char err[ELF_ERR_MAX], want[ELF_ERR_MAX];
	struct mseg segs[ELF_SEGMENTS_MAX];
	int nsegs;
	int rc = elf_check_rules(in, file_len, rules, &l, err, sizeof(err));
	int accept = model(rules, in, file_len, segs, &nsegs, want, sizeof(want));
	if ((rc == 0) != accept)
		fuzz_fail(f, "elf_check says %d (%s), the model %s (%s)", rc, rc ? err : "",
			  accept ? "accepts" : "refuses", accept ? "" : want);
	if (rc != 0) {
		if (strcmp(err, want))
			fuzz_fail(f, "refused with '%s', the model says '%s'", err, want);
		for (const char *c = err; *c; c++)
			if (*c < ' ' || *c > '~')
				fuzz_fail(f, "message with byte 0x%02x", (unsigned char)*c);
		return;
	}
	check_layout(f, &l);
	if ((int)l.segment_count != nsegs)
		fuzz_fail(f, "%u segments in the layout, %d non-empty PT_LOADs", l.segment_count, nsegs);
	for (int i = 0; i < nsegs; i++) {
		const struct elf64_phdr *p = &segs[i].ph;
		if (l.segments[i].vaddr != p->vaddr || l.segments[i].memsz != p->memsz ||
		    l.segments[i].offset != p->offset || l.segments[i].filesz != p->filesz ||
		    l.segments[i].flags != p->flags || l.segments[i].index != segs[i].index)
			fuzz_fail(f, "segment %d of the layout differs from its program header", i);
	}
	if (l.entry != ehdr()->entry)
		fuzz_fail(f, "entry changed");
}

static void fuzz_one(struct fuzz *f)
{
	rules = fuzz_below(f, 2) ? &elf_rules_kernel : &elf_rules_program;
	base = rules != &elf_rules_kernel ? rules->lowest
	       : fuzz_below(f, 4) ? 0xffffffff80000000ull : ELF_UPPER_HALF;
	make_image(f);
	reach_limits(f);
	int edits = (int)fuzz_below(f, 4);
	for (int i = 0; i < edits; i++)
		mutate_field(f);
	if (file_len <= SMALL_MAX) {
		if (fuzz_below(f, 4) == 0)
			fuzz_mutate(f, file, &file_len, SMALL_MAX);
		/* Copied to an exact-size heap block, so ASan sees any read past it. */
		unsigned char *copy = malloc(file_len ? file_len : 1);
		memcpy(copy, file, file_len);
		check_input(f, copy);
		free(copy);
		return;
	}
	if (file_len > BIG_CAP)
		fuzz_fail(f, "an image of %llu bytes", (unsigned long long)file_len);
	unsigned char *in = big_buffer() + BIG_CAP - file_len;
	memcpy(in, file, built < file_len ? built : file_len);
	check_input(f, in);
}

FUZZ_MAIN("elf")
