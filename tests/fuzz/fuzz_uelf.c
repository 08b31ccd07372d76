/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the program loader (kernel/user/uelf.c) on top of the
 * shared ELF checks (boot/elf_check.c with the program rules), loading
 * into fresh address spaces of the host machine (tests/unit/uvm_host.h).
 *
 * Each input is a program laid out as userland/user.ld links one (text
 * R-X, rodata R--, data RW- with bss, each on pages of its own, sometimes
 * two segments of one permission sharing a page, an empty or non-loadable
 * header among them), then maybe damaged: header fields, program header
 * fields (types, permissions, offsets, addresses, sizes), raw byte flips
 * and truncation. The page limits are random and page allocations fail on
 * demand.
 *
 * If elf_check_rules() refuses the file, uelf_load() must return
 * ERR_NOEXEC with the checker's message and map nothing (the PML4 alone).
 * If it accepts, uelf_load() must return what the reference model
 * (tests/unit/uvm_model.h) predicts for mapping each PT_LOAD segment (as
 * this harness reads the program headers itself) in order: 0 with the
 * entry point set, every segment's file bytes at its address, the rest of
 * its memory zero, its pages mapped with its permissions (a page two
 * segments of one permission share mapped once), nothing else mapped,
 * checked by walking the page tables; or ERR_LIMIT / ERR_NOSPC / ERR_NOMEM
 * where the model runs out. Either way uvm_free() must give every page
 * back. */
#include <tests/fuzz/fuzz.h>
#include <tests/fuzz/fuzz_panic.h>
#include <mosaic/syscall.h>
#include <boot/elf.h>
#include <user/uelf_rules.h>
#include <user/ulayout.h>
#include <user/uproc.h>
#include <tests/unit/uvm_host.h>
#include <tests/unit/uvm_model.h>
#include <tests/unit/uvm_walk.h>

#define PG USER_PAGE
#define FILE_MAX 0x8000
#define BASE USER_IMAGE_LOW

static uint8_t file[FILE_MAX];
static struct limit_model lim;
static struct uvm vm;
static struct vm_model model;

/* Appends a PT_LOAD header with random file bytes at offset *off. */
static void add_segment(struct fuzz *f, struct elf64_phdr *ph, uint32_t flags, uint64_t vaddr,
			uint64_t filesz, uint64_t memsz, uint64_t *off)
{
	*ph = (struct elf64_phdr){ .type = ELF_PT_LOAD, .flags = flags, .offset = *off,
				   .vaddr = vaddr, .paddr = vaddr, .filesz = filesz,
				   .memsz = memsz, .align = PG };
	for (uint64_t i = 0; i < filesz; i++)
		file[*off + i] = (uint8_t)fuzz_u64(f);
	*off += (filesz + 15) & ~15ull;
}

/* A valid program: its size. */
static uint64_t make_program(struct fuzz *f)
{
	struct elf64_ehdr *eh = (struct elf64_ehdr *)file;
	struct elf64_phdr *ph = (struct elf64_phdr *)(file + 64);
	uint32_t n = 0;
	uint64_t off = 64 + 8 * sizeof(*ph), va = BASE + fuzz_below(f, 4) * PG;
	memset(file, 0, sizeof(file));
	/* text, maybe in two segments sharing a page */
	uint64_t text = va + (fuzz_below(f, 4) ? 0 : fuzz_below(f, PG / 2));
	uint64_t tsz = 1 + fuzz_below(f, fuzz_below(f, 4) ? PG : 2 * PG);
	add_segment(f, &ph[n++], 4 | ELF_PF_X, text, tsz, tsz, &off);
	va = text + tsz;
	if (fuzz_below(f, 4) == 0) {
		uint64_t sz = 1 + fuzz_below(f, PG);
		add_segment(f, &ph[n++], 4 | ELF_PF_X, va, sz, sz, &off);
		va += sz;
	}
	if (fuzz_below(f, 6) == 0)   /* a note: not loaded */
		ph[n++] = (struct elf64_phdr){ .type = 4, .flags = 4, .offset = 64, .filesz = 32 };
	va = ((va + PG - 1) & ~(PG - 1)) + fuzz_below(f, 2) * PG;
	if (fuzz_below(f, 5)) {   /* rodata */
		uint64_t sz = 1 + fuzz_below(f, 2 * PG);
		add_segment(f, &ph[n++], 4, va, sz, sz, &off);
		va = ((va + sz + PG - 1) & ~(PG - 1)) + fuzz_below(f, 2) * PG;
	}
	if (fuzz_below(f, 8) == 0)   /* empty: ignored */
		ph[n++] = (struct elf64_phdr){ .type = ELF_PT_LOAD, .flags = 6, .vaddr = va };
	if (fuzz_below(f, 6)) {   /* data and bss */
		uint64_t sz = fuzz_below(f, 2 * PG), bss = fuzz_below(f, 4) ? fuzz_below(f, 4 * PG) : 0;
		add_segment(f, &ph[n++], 4 | ELF_PF_W, va + fuzz_below(f, 64), sz, sz + bss + !sz, &off);
	}
	*eh = (struct elf64_ehdr){ .magic = ELF_MAGIC, .class = ELF_CLASS_64, .data = ELF_DATA_LSB,
				   .version = 1, .type = ELF_TYPE_EXEC, .machine = ELF_MACHINE_X86_64,
				   .version2 = 1, .entry = text + fuzz_below(f, tsz), .phoff = 64,
				   .ehsize = 64, .phentsize = sizeof(*ph), .phnum = (uint16_t)n };
	return off + fuzz_below(f, 64);
}

/* An interesting value for a field that held v. */
static uint64_t mutate_value(struct fuzz *f, uint64_t v)
{
	switch (fuzz_below(f, 10)) {
	case 0: return 0;
	case 1: return fuzz_u64(f);
	case 2: return v ^ (1ull << fuzz_below(f, 64));
	case 3: return v + PG;
	case 4: return v - 1 - fuzz_below(f, PG);
	case 5: return USER_IMAGE_LIMIT - fuzz_below(f, 2 * PG);
	case 6: return BASE - 1 - fuzz_below(f, PG);
	case 7: return USER_IMAGE_SPAN + fuzz_below(f, 2) * PG;
	case 8: return v ^ (1ull << (12 + fuzz_below(f, 14)));
	default: return v + fuzz_below(f, 64);
	}
}

/* Damages the program a little: header fields, program header fields,
 * or raw bytes. */
static void mutate(struct fuzz *f, size_t *size)
{
	struct elf64_ehdr *eh = (struct elf64_ehdr *)file;
	struct elf64_phdr *ph = (struct elf64_phdr *)(file + 64);
	int rounds = (int)fuzz_below(f, 3);
	for (int r = 0; r < rounds; r++) {
		switch (fuzz_below(f, 8)) {
		case 0:
			switch (fuzz_below(f, 7)) {
			case 0: eh->magic ^= 1u << fuzz_below(f, 32); break;
			case 1: eh->class = (uint8_t)fuzz_below(f, 3); break;
			case 2: eh->machine = (uint16_t)mutate_value(f, eh->machine); break;
			case 3: eh->type = (uint16_t)fuzz_below(f, 4); break;
			case 4: eh->phnum = (uint16_t)mutate_value(f, eh->phnum); break;
			case 5: eh->phoff = mutate_value(f, eh->phoff); break;
			default: eh->entry = mutate_value(f, eh->entry); break;
			}
			break;
		case 1:
			fuzz_mutate(f, file, size, FILE_MAX);
			break;
		default: {
			struct elf64_phdr *p = &ph[fuzz_below(f, eh->phnum ? eh->phnum : 1) % 8];
			switch (fuzz_below(f, 6)) {
			case 0: p->type = (uint32_t)fuzz_below(f, 3); break;
			case 1: p->flags = (uint32_t)fuzz_below(f, 8); break;
			case 2: p->offset = mutate_value(f, p->offset); break;
			case 3: p->vaddr = mutate_value(f, p->vaddr); break;
			case 4: p->filesz = mutate_value(f, p->filesz); break;
			default: p->memsz = mutate_value(f, p->memsz); break;
			}
		}
		}
	}
}

/* Random page limits (mostly enough for any program) and maybe a page
 * allocation that fails. */
static void random_limits(struct fuzz *f)
{
	int64_t pages = fuzz_below(f, 2) ? USER_PAGES_MAX : 1 + (int64_t)fuzz_below(f, 64);
	int64_t total = fuzz_below(f, 8) ? pages : 1 + (int64_t)fuzz_below(f, 64);
	lm_set(&lim, UL_PAGES, pages, total);
}

/* The model's prediction of loading the accepted program: each loadable
 * segment's pages mapped in header order, its file bytes written. */
static int model_load(const uint8_t *bytes)
{
	const struct elf64_ehdr *eh = (const struct elf64_ehdr *)bytes;
	for (uint32_t i = 0; i < eh->phnum; i++) {
		struct elf64_phdr ph;
		memcpy(&ph, bytes + eh->phoff + i * sizeof(ph), sizeof(ph));
		if (ph.type != ELF_PT_LOAD || (ph.memsz == 0 && ph.filesz == 0))
			continue;
		uint64_t start = ph.vaddr & ~(PG - 1), end = (ph.vaddr + ph.memsz + PG - 1) & ~(PG - 1);
		unsigned prot = ((ph.flags & ELF_PF_W) ? UVM_WRITE : 0) |
				((ph.flags & ELF_PF_X) ? UVM_EXEC : 0);
		int rc = vm_model_map_zero(&model, start, end - start, prot);
		if (rc)
			return rc;
		if (vm_model_write(&model, ph.vaddr, bytes + ph.offset, ph.filesz))
			return ERR_FAULT;
	}
	return 0;
}

static void fuzz_one(struct fuzz *f)
{
	static int synced;
	static struct elf_layout layout;
	char want_err[ELF_ERR_MAX], err[ELF_ERR_MAX], why[256];
	fuzz_current = f;
	if (!synced) {
		lm_sync(&lim);
		synced = 1;
	}
	size_t size = make_program(f);
	if (fuzz_below(f, 4))
		mutate(f, &size);
	random_limits(f);
	int accepted = elf_check_rules(file, size, &elf_rules_program, &layout, want_err,
				       sizeof(want_err)) == 0;
	int init = vm_model_init(&model, &lim, 0);
	if (host_uvm_init(&vm, NULL) != init)
		fuzz_fail(f, "uvm_init differs from the model");
	if (init)
		return;
	lm_arm(&lim, fuzz_below(f, 4) ? 0 : 1 + (uint32_t)fuzz_below(f, 24), 0);
	uint64_t entry = 0;
	memset(err, 0, sizeof(err));
	int rc = uelf_load(&vm, file, size, &entry, err, sizeof(err));
	int want = accepted ? model_load(file) : ERR_NOEXEC;
	lm_arm(&lim, 0, 0);
	if (rc != want)
		fuzz_fail(f, "uelf_load %d, expected %d (%s)", rc, want, accepted ? "accepted" : want_err);
	if (!accepted && (!err[0] || strcmp(err, want_err)))
		fuzz_fail(f, "refused with '%s', the checker said '%s'", err, want_err);
	if (rc == 0 && entry != ((const struct elf64_ehdr *)file)->entry)
		fuzz_fail(f, "entry %lx", entry);
	if (rc == 0 && vm_model_leaves(&model) == 0)
		fuzz_fail(f, "an accepted program mapped nothing");
	if (vm_model_check(&model, &vm, 1, why, sizeof(why)))
		fuzz_fail(f, "space: %s", why);
	if (!accepted && vm.pages != 1)
		fuzz_fail(f, "a refused program left %u pages", vm.pages);
	if (lm_check(&lim, why, sizeof(why)))
		fuzz_fail(f, "limits: %s", why);
	host_uvm_free(&vm);
	vm_model_free(&model);
	if (host_pages_in_use() || lim.jobs[0].use[UL_PAGES])
		fuzz_fail(f, "%lu pages in use after uvm_free", host_pages_in_use());
}

FUZZ_MAIN("uelf")
