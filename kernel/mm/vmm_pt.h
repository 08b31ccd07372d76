/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vmm_pt.h — walking and editing x86-64 4-level page tables (internal to mm).
 *
 * A table is named by the physical address of its top level (a CR3 value);
 * every table page comes from pmm_alloc_page() and is edited through the
 * direct map. Callers serialize: boot-time, or the vmm lock (mm_lock(&vmm_lock)).
 */
#ifndef MOSAIC_VMM_PT_H
#define MOSAIC_VMM_PT_H

#include <stdint.h>

#define PTE_P    (1ULL << 0)
#define PTE_W    (1ULL << 1)
#define PTE_PWT  (1ULL << 3)
#define PTE_PCD  (1ULL << 4)
#define PTE_PS   (1ULL << 7)
#define PTE_NX   (1ULL << 63)
#define PTE_ADDR 0x000FFFFFFFFFF000ULL
#define PT_LARGE (2ULL * 1024 * 1024)

/* Cache types through the PAT as vmm_init() programs it. */
#define PTE_CACHE_WC PTE_PWT             /* PAT entry 1: write-combining */
#define PTE_CACHE_UC (PTE_PCD | PTE_PWT) /* PAT entry 3: uncached */

/* Index of the upper-half PML4 entries shared by every page table. */
#define PT_KERNEL_HALF 256

/* Pointer to the entry for virt at `level` (4 = PML4 ... 1 = page table),
 * creating missing tables when `create`. NULL when a table is missing and
 * not created, a large page is in the way, or no page is left for a table. */
uint64_t *pt_entry(uint64_t root, uint64_t virt, int level, int create);
/* Map one 4 KiB page; -1 if something is mapped there or out of memory. */
int pt_map(uint64_t root, uint64_t virt, uint64_t phys, uint64_t flags);
/* Map [virt, virt + size) to [phys, ...) with 2 MiB pages where virt, phys
 * and what is left allow, 4 KiB pages elsewhere. Pages already mapped are
 * left as they are. Panics when out of memory. */
void pt_map_range(uint64_t root, uint64_t virt, uint64_t phys, uint64_t size, uint64_t flags);
/* Table pages pt_entry() has made so far (they are never freed). */
uint64_t pt_tables(void);
/* Physical address virt maps to under root, 0 if unmapped. */
uint64_t pt_translate(uint64_t root, uint64_t virt);

#endif
