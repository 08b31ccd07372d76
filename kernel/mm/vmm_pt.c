/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vmm_pt.c — walking and editing x86-64 4-level page tables.
 * See vmm_pt.h; callers serialize.
 */
#include <mm/mm.h>
#include <kern/panic.h>
#include <mm/vmm_pt.h>

static uint64_t *pt_table(uint64_t phys)
{
	return phys_to_virt(phys);
}

static unsigned pt_index(uint64_t virt, int level)
{
	return (virt >> (12 + 9 * (level - 1))) & 511;
}

static uint64_t pt_tables_made;   /* callers' serialization */

/* See vmm_pt.h. */
uint64_t pt_tables(void)
{
	return pt_tables_made;
}

/* See vmm_pt.h. Intermediate entries are present and writable; the leaf
 * decides permissions (NX, W) alone. */
uint64_t *pt_entry(uint64_t root, uint64_t virt, int level, int create)
{
	uint64_t table = root;

	for (int l = 4; l > level; l--) {
		uint64_t *e = &pt_table(table)[pt_index(virt, l)];

		if (!(*e & PTE_P)) {
			uint64_t page;

			if (!create || !(page = pmm_alloc_page()))
				return NULL;
			pt_tables_made++;
			*e = page | PTE_P | PTE_W;
		} else if (*e & PTE_PS) {
			return NULL;
		}
		table = *e & PTE_ADDR;
	}
	return &pt_table(table)[pt_index(virt, level)];
}

/* See vmm_pt.h. */
int pt_map(uint64_t root, uint64_t virt, uint64_t phys, uint64_t flags)
{
	uint64_t *pte = pt_entry(root, virt, 1, 1);

	if (!pte || (*pte & PTE_P))
		return -1;
	*pte = phys | flags | PTE_P;
	return 0;
}

/* See vmm_pt.h. */
void pt_map_range(uint64_t root, uint64_t virt, uint64_t phys, uint64_t size, uint64_t flags)
{
	uint64_t off = 0;

	while (off < size) {
		uint64_t va = virt + off, pa = phys + off;
		uint64_t *pde = pt_entry(root, va, 2, 1);
		uint64_t *pte;

		if (!pde)
			panic("vmm: no page for a page table mapping 0x%lx", va);
		if (!(*pde & PTE_P) && ((va | pa) % PT_LARGE) == 0 && size - off >= PT_LARGE) {
			*pde = pa | flags | PTE_P | PTE_PS;
			off += PT_LARGE;
			continue;
		}
		if ((*pde & PTE_P) && (*pde & PTE_PS)) {
			off += PT_LARGE - va % PT_LARGE;
			continue;
		}
		pte = pt_entry(root, va, 1, 1);
		if (!pte)
			panic("vmm: no page for a page table mapping 0x%lx", va);
		if (!(*pte & PTE_P))
			*pte = pa | flags | PTE_P;
		off += PAGE_SIZE;
	}
}

/* See vmm_pt.h. Understands 1 GiB and 2 MiB pages. */
uint64_t pt_translate(uint64_t root, uint64_t virt)
{
	uint64_t table = root;

	for (int l = 4; l >= 1; l--) {
		uint64_t e = pt_table(table)[pt_index(virt, l)];
		uint64_t span = 1ULL << (12 + 9 * (l - 1));

		if (!(e & PTE_P))
			return 0;
		if (l == 1 || ((l == 2 || l == 3) && (e & PTE_PS)))
			return (e & PTE_ADDR & ~(span - 1)) + (virt & (span - 1));
		table = e & PTE_ADDR;
	}
	return 0;
}
