/* SPDX-License-Identifier: BSD-2-Clause */
/* uvm_walk.c — the page-table reader of the host tests (see uvm_walk.h). */
#include <tests/unit/uvm_walk.h>
#include <stdio.h>
#include <string.h>
#include <mm/mm.h>
#include <tests/unit/uvm_host.h>

#define TABLE_FLAGS (WALK_P | WALK_W | WALK_U)
#define LEAF_FLAGS_MAX (WALK_P | WALK_W | WALK_U | WALK_NX)

struct walk {
	walk_fn fn;
	void *ctx;
	uint64_t tables;
	char *why;
	size_t why_len;
};

static uint32_t seen[HOST_POOL_PAGES];   /* the walk that last met each page */
static uint32_t epoch;

static const uint64_t *table_of(uint64_t entry)
{
	return phys_to_virt(entry & WALK_ADDR);
}

/* See uvm_walk.h. */
uint64_t walk_pte(const struct uvm *vm, uint64_t va)
{
	uint64_t e = vm->pml4 | WALK_P;
	for (int level = 4; level >= 1; level--) {
		e = table_of(e)[(va >> (12 + 9 * (level - 1))) & 511];
		if (!(e & WALK_P))
			return 0;
	}
	return e;
}

/* See uvm_walk.h. */
uint8_t *walk_user_byte(const struct uvm *vm, uint64_t va, int write)
{
	if (va >= 1ull << 47)
		return NULL;
	uint64_t e = vm->pml4 | WALK_P;
	for (int level = 4; level >= 1; level--) {
		e = table_of(e)[(va >> (12 + 9 * (level - 1))) & 511];
		if (!(e & WALK_P) || !(e & WALK_U) || (level == 1 && write && !(e & WALK_W)))
			return NULL;
	}
	return (uint8_t *)phys_to_virt(e & WALK_ADDR) + (va & 0xfff);
}

/* Records that this walk met the page of entry e: -1 with why when it is
 * not a page in use or was met before. */
static int walk_meet(struct walk *w, uint64_t e, uint64_t va, int level)
{
	uint64_t phys = e & WALK_ADDR;
	if (!host_page_allocated(phys)) {
		snprintf(w->why, w->why_len, "level-%d entry of %lx names page %lx, not in use", level,
			 va, phys);
		return -1;
	}
	if (seen[phys / 4096] == epoch) {
		snprintf(w->why, w->why_len, "page %lx named twice (level-%d entry of %lx)", phys,
			 level, va);
		return -1;
	}
	seen[phys / 4096] = epoch;
	return 0;
}

/* Walks the table t of the given level mapping from base. Not
 * instrumented by AddressSanitizer (the walk runs after every step of a
 * harness): walk_meet() checks each page is in use before it is read. */
__attribute__((no_sanitize("address"))) static int walk_table(struct walk *w, const uint64_t *t,
							      int level, uint64_t base)
{
	unsigned n = level == 4 ? 256 : 512;
	for (unsigned i = 0; i < n; i++) {
		if (i % 8 == 0 && !(t[i] | t[i + 1] | t[i + 2] | t[i + 3] | t[i + 4] | t[i + 5] |
				    t[i + 6] | t[i + 7])) {
			i += 7;   /* eight empty entries */
			continue;
		}
		uint64_t e = t[i];
		if (!e)
			continue;
		uint64_t va = base + ((uint64_t)i << (12 + 9 * (level - 1)));
		if (!(e & WALK_P)) {
			snprintf(w->why, w->why_len, "level-%d entry of %lx not present but %lx", level,
				 va, e);
			return -1;
		}
		uint64_t flags = e & ~WALK_ADDR;
		if (level > 1 ? flags != TABLE_FLAGS : (flags & ~LEAF_FLAGS_MAX) || !(flags & WALK_U)) {
			snprintf(w->why, w->why_len, "level-%d entry of %lx has flags %lx", level, va,
				 flags);
			return -1;
		}
		if (walk_meet(w, e, va, level))
			return -1;
		int rc;
		if (level > 1) {
			w->tables++;
			rc = walk_table(w, table_of(e), level - 1, va);
		} else {
			rc = w->fn ? w->fn(w->ctx, va, e) : 0;
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* See uvm_walk.h. */
int walk_space(const struct uvm *vm, walk_fn fn, void *ctx, uint64_t *tables, char *why,
	       size_t why_len)
{
	struct walk w = { fn, ctx, 0, why, why_len };
	const uint64_t *pml4 = phys_to_virt(vm->pml4);
	const uint64_t *kernel = phys_to_virt(vmm_kernel_cr3());
	why[0] = 0;
	epoch++;
	if (memcmp(pml4 + 256, kernel + 256, 256 * sizeof(*pml4))) {
		snprintf(why, why_len, "the PML4's upper half is not the kernel's");
		return -1;
	}
	if (walk_meet(&w, vm->pml4 | WALK_P, 0, 5))
		return -1;
	int rc = walk_table(&w, pml4, 4, 0);
	*tables = w.tables;
	return rc;
}
