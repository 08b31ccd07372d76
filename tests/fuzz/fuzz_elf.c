/* Fuzz harness of the shared ELF checks (boot/elf_check.c), with the
 * loader's kernel rules and the kernel's user-program rules
 * (kernel/user/uelf_rules.c), one or the other per iteration.
 *
 * Each input is a random well-formed image (1..6 segments of random
 * permissions, laid out with random gaps, some sharing pages) in the rules'
 * range that is then damaged: header and program-header fields set to
 * boundary values (the range's edges among them), and raw byte mutations.
 * elf_check_rules() must agree with an independent model of the acceptance
 * rules, and whatever it accepts must satisfy the loaders' invariants:
 * segments inside the file and the range, none overlapping, no page both
 * writable and executable, the entry point in the file bytes of an
 * executable segment, a bounded span and segment count, and a layout that
 * lists exactly the non-empty PT_LOAD segments. */
#include "fuzz.h"
#include "elf.h"
#include "elf_check.h"
#include "uelf_rules.h"

#define FILE_MAX  0x800
#define PH_MAX    8
#define PAGE      0x1000ull
#define WX        (ELF_PF_W | ELF_PF_X)

static unsigned char file[FILE_MAX] __attribute__((aligned(8)));
static size_t file_len;
static const struct elf_rules *rules;   /* this iteration's */
static uint64_t base;                   /* where its images start */

static struct elf64_ehdr *ehdr(void) { return (struct elf64_ehdr *)file; }
static struct elf64_phdr *phdr(int i) { return (struct elf64_phdr *)(file + 64) + i; }

/* A valid image: header, n program headers at 64, segment bytes after them. */
static void make_image(struct fuzz *f)
{
	int n = 1 + (int)fuzz_below(f, 6);
	uint64_t va = base + PAGE * fuzz_below(f, 4), off = 64 + PH_MAX * sizeof(struct elf64_phdr);
	uint32_t prev = 0;
	memset(file, 0, sizeof(file));
	*ehdr() = (struct elf64_ehdr){ .magic = ELF_MAGIC, .class = ELF_CLASS_64,
				       .data = ELF_DATA_LSB, .version = 1, .type = ELF_TYPE_EXEC,
				       .machine = ELF_MACHINE_X86_64, .version2 = 1, .phoff = 64,
				       .ehsize = 64, .phentsize = sizeof(struct elf64_phdr),
				       .phnum = (uint16_t)n };
	for (int i = 0; i < n; i++) {
		static const uint32_t perms[] = { 4 | ELF_PF_X, 4, 4 | ELF_PF_W, 4 | ELF_PF_X, 4 };
		uint32_t flags = i == 0 ? perms[0] : perms[fuzz_below(f, 5)];
		uint64_t filesz = fuzz_below(f, 0x80), memsz = filesz + fuzz_below(f, 3) * fuzz_below(f, 0x3000);
		if (memsz == 0)
			memsz = filesz = 1;
		if (i == 0 && filesz == 0)
			memsz = filesz = 0x10;
		/* Same permissions may share the page; others start a new one. */
		if (i && (flags != prev || fuzz_below(f, 2)))
			va = (va + PAGE - 1) & ~(PAGE - 1);
		*phdr(i) = (struct elf64_phdr){ .type = ELF_PT_LOAD, .flags = flags, .offset = off,
						.vaddr = va, .paddr = va, .filesz = filesz,
						.memsz = memsz, .align = PAGE };
		for (uint64_t b = 0; b < filesz; b++)
			file[off + b] = (unsigned char)fuzz_u64(f);
		if (i == 0)
			ehdr()->entry = va + fuzz_below(f, filesz);
		off += filesz;
		va += memsz + fuzz_below(f, 2) * fuzz_below(f, 0x2000);
		prev = flags;
	}
	file_len = off;
}

/* A boundary value for a field, often related to the image itself. */
static uint64_t boundary(struct fuzz *f)
{
	const struct elf64_phdr *p = phdr((int)fuzz_below(f, PH_MAX));
	switch (fuzz_below(f, 12)) {
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
	default: return fuzz_u64(f);
	}
}

/* Sets one header or program-header field to a boundary value. */
static void mutate_field(struct fuzz *f)
{
	struct elf64_ehdr *eh = ehdr();
	struct elf64_phdr *p = phdr((int)fuzz_below(f, PH_MAX));
	uint64_t v = boundary(f);
	switch (fuzz_below(f, 14)) {
	case 0: eh->entry = v; break;
	case 1: eh->phoff = fuzz_below(f, 2) ? v : 64 + fuzz_below(f, 16); break;
	case 2: eh->phnum = (uint16_t)(fuzz_below(f, 2) ? fuzz_below(f, PH_MAX + 2) : v); break;
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
	default: *p = *phdr((int)fuzz_below(f, PH_MAX)); break;   /* a duplicate */
	}
}

/* ---- the model: the rules of elf_check.h, written out independently */

static int pages_meet(const struct elf64_phdr *a, const struct elf64_phdr *b)
{
	uint64_t a0 = a->vaddr / PAGE, a1 = (a->vaddr + a->memsz - 1) / PAGE;
	uint64_t b0 = b->vaddr / PAGE, b1 = (b->vaddr + b->memsz - 1) / PAGE;
	return a0 <= b1 && b0 <= a1;
}

/* Whether the image must be accepted; the non-empty PT_LOADs go to segs. */
static int model_accepts(const struct elf64_phdr **segs, int *nsegs)
{
	const struct elf64_ehdr *eh = ehdr();
	*nsegs = 0;
	if (file_len < 64 || eh->magic != ELF_MAGIC || eh->class != ELF_CLASS_64 ||
	    eh->data != ELF_DATA_LSB || eh->machine != ELF_MACHINE_X86_64 ||
	    eh->type != ELF_TYPE_EXEC || eh->phentsize != 56 || eh->phnum == 0 || eh->phoff % 8 ||
	    eh->phoff > file_len || eh->phnum > (file_len - eh->phoff) / 56)
		return 0;
	const struct elf64_phdr *all = (const struct elf64_phdr *)(file + eh->phoff);
	uint64_t lo = ~0ull, hi = 0;
	for (int i = 0; i < eh->phnum; i++) {
		const struct elf64_phdr *p = &all[i];
		if (p->type != ELF_PT_LOAD || (p->memsz == 0 && p->filesz == 0))
			continue;
		if (p->memsz == 0 || p->filesz > p->memsz || p->offset > file_len ||
		    p->filesz > file_len - p->offset || p->vaddr < rules->lowest ||
		    p->memsz > ~0ull - p->vaddr || p->vaddr + p->memsz > rules->limit ||
		    (p->flags & WX) == WX || *nsegs == ELF_SEGMENTS_MAX)
			return 0;
		for (int j = 0; j < *nsegs; j++) {
			const struct elf64_phdr *q = segs[j];
			if (p->vaddr < q->vaddr + q->memsz && q->vaddr < p->vaddr + p->memsz)
				return 0;
			if (pages_meet(p, q) && ((p->flags ^ q->flags) & WX))
				return 0;
		}
		segs[(*nsegs)++] = p;
		lo = p->vaddr < lo ? p->vaddr : lo;
		hi = p->vaddr + p->memsz > hi ? p->vaddr + p->memsz : hi;
	}
	if (*nsegs == 0 || ((hi + PAGE - 1) & ~(PAGE - 1)) - (lo & ~(PAGE - 1)) > rules->span_max)
		return 0;
	for (int j = 0; j < *nsegs; j++)
		if ((segs[j]->flags & ELF_PF_X) && eh->entry >= segs[j]->vaddr &&
		    eh->entry - segs[j]->vaddr < segs[j]->filesz)
			return 1;
	return 0;
}

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

static void fuzz_one(struct fuzz *f)
{
	rules = fuzz_below(f, 2) ? &elf_rules_kernel : &elf_rules_program;
	base = rules == &elf_rules_kernel ? 0xffffffff80000000ull : rules->lowest;
	make_image(f);
	int edits = (int)fuzz_below(f, 4);
	for (int i = 0; i < edits; i++)
		mutate_field(f);
	if (fuzz_below(f, 4) == 0)
		fuzz_mutate(f, file, &file_len, sizeof(file));

	/* Copied to an exact-size heap block, so ASan sees any read past it. */
	unsigned char *copy = malloc(file_len ? file_len : 1);
	memcpy(copy, file, file_len);
	struct elf_layout l;
	char err[ELF_ERR_MAX];
	int rc = elf_check_rules(copy, file_len, rules, &l, err, sizeof(err));
	free(copy);

	const struct elf64_phdr *segs[ELF_SEGMENTS_MAX];
	int nsegs, want = model_accepts(segs, &nsegs);
	if ((rc == 0) != want)
		fuzz_fail(f, "elf_check says %d (%s), the model %s", rc, rc ? err : "",
			  want ? "accepts" : "refuses");
	if (rc != 0) {
		if (!err[0] || strlen(err) >= sizeof(err))
			fuzz_fail(f, "refused without a message");
		for (const char *c = err; *c; c++)
			if (*c < ' ' || *c > '~')
				fuzz_fail(f, "message with byte 0x%02x", (unsigned char)*c);
		return;
	}
	check_layout(f, &l);
	if ((int)l.segment_count != nsegs)
		fuzz_fail(f, "%u segments in the layout, %d non-empty PT_LOADs", l.segment_count, nsegs);
	for (int i = 0; i < nsegs; i++)
		if (l.segments[i].vaddr != segs[i]->vaddr || l.segments[i].memsz != segs[i]->memsz ||
		    l.segments[i].offset != segs[i]->offset || l.segments[i].filesz != segs[i]->filesz ||
		    l.segments[i].flags != segs[i]->flags)
			fuzz_fail(f, "segment %d of the layout differs from its program header", i);
	if (l.entry != ehdr()->entry)
		fuzz_fail(f, "entry changed");
}

FUZZ_MAIN("elf")
