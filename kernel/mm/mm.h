/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mm.h — physical pages, kernel page tables, kernel stacks and the heap.
 *
 * Address space (x86-64, 4-level paging):
 *   0xFFFF800000000000  direct map of physical memory (RW, NX), MM_DIRECT_MAP_BASE
 *   0xFFFFC00000000000  kernel heap region (RW, NX), grown page by page
 *   0xFFFFD00000000000  kernel stacks, each with an unmapped guard page below
 *   0xFFFFE00000000000  MMIO mappings (uncached or write-combining)
 *   0xFFFFFFFF80000000  kernel image (text R-X, rodata R--, data/bss RW-)
 * The lower half is unmapped once vmm_init() has run. See docs/memory.md.
 */
#ifndef MOSAIC_MM_H
#define MOSAIC_MM_H

#include <stddef.h>
#include <stdint.h>
#include <mosaic/boot_info.h>

#define PAGE_SIZE 4096ULL
#ifdef MOSAIC_HOST
/* Host unit tests: "physical memory" is a buffer; the test defines this so
 * that phys_to_virt(phys) lands in it. */
extern uint64_t mm_host_direct_map_base;
#define MM_DIRECT_MAP_BASE mm_host_direct_map_base
#else
#define MM_DIRECT_MAP_BASE BOOT_DIRECT_MAP_BASE
#endif
#define MM_DIRECT_MAP_END  0xFFFFC00000000000ULL
#define MM_HEAP_BASE       0xFFFFC00000000000ULL
#define MM_HEAP_END        0xFFFFD00000000000ULL
#define MM_STACK_BASE      0xFFFFD00000000000ULL
#define MM_STACK_END       0xFFFFE00000000000ULL
#define MM_MMIO_BASE       0xFFFFE00000000000ULL
#define MM_MMIO_END        0xFFFFFFFF80000000ULL

#define PAGE_ROUND_UP(x)   (((x) + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))
#define PAGE_ROUND_DOWN(x) ((x) & ~(PAGE_SIZE - 1))

/* Physical address -> pointer through the direct map. */
static inline void *phys_to_virt(uint64_t phys)
{
	return (void *)(phys + MM_DIRECT_MAP_BASE);
}

/* Pointer into the direct map -> physical address. */
static inline uint64_t virt_to_phys(const void *virt)
{
	return (uint64_t)virt - MM_DIRECT_MAP_BASE;
}

struct pmm_stats {
	uint64_t total_bytes;     /* usable RAM the allocator manages (incl. reclaimed) */
	uint64_t free_bytes;
	uint64_t reserved_bytes;  /* firmware, ACPI, MMIO descriptors (sum of their sizes) */
	uint64_t reclaimed_bytes; /* loader + boot-services memory given back */
	uint64_t kernel_bytes;    /* kernel image + modules + boot info (OS-typed descriptors) */
	uint64_t meta_bytes;      /* the allocator's own bitmaps, taken from RAM at init */
};

/* Build the free-page pool from the UEFI map (conventional memory only).
 * Boot-time, single CPU, before vmm_init(). Panics on an unusable map. */
void pmm_init(const struct boot_info *bi);
/* Add loader and boot-services memory to the pool (never page 0, the kernel,
 * modules, boot info, or anything a firmware descriptor overlaps). Only after
 * vmm_init() has switched away from the loader's page tables and the CPU has
 * left the loader's stack. Boot-time. */
void pmm_reclaim_boot_memory(const struct boot_info *bi);
/* One zeroed 4 KiB page; returns its physical address, 0 when out of memory.
 * O(1). Interrupts-off critical section. */
uint64_t pmm_alloc_page(void);
/* `pages` zeroed, physically contiguous pages that all lie below the
 * address `below` (e.g. 1 MiB for the AP start-up code, which real mode
 * must reach); returns the first one's physical address, 0 when there is
 * no such run. Each page can be given back with pmm_free_page(). Walks the
 * whole free list: boot-time use only. Interrupts-off critical section. */
uint64_t pmm_alloc_low(uint64_t pages, uint64_t below);
/* Return a page from pmm_alloc_page(). Panics on a double free or a page the
 * allocator does not manage. O(1). Interrupts-off critical section. */
void pmm_free_page(uint64_t phys);
/* Snapshot of the counters. Interrupts-off critical section. */
void pmm_get_stats(struct pmm_stats *out);

/* Build the kernel's own page tables (direct map, W^X image, NX everywhere
 * but text, no lower half), set CR0.WP, EFER.NXE and the PAT, and switch CR3
 * to them. Boot-time, single CPU, after pmm_init(). */
void vmm_init(const struct boot_info *bi);
/* Per-CPU paging controls for an AP, as vmm_init() set them on the boot CPU:
 * CR0.WP, EFER.NXE and the PAT (write-combining entry), then load the kernel
 * CR3. The trampoline must already have set EFER.NXE if the CR3 it runs on
 * has NX bits (the kernel's does). Runs on the AP itself. */
void vmm_init_ap(void);
/* Map [phys, phys+size) uncached (or write-combining when wc) in the MMIO
 * region; returns the virtual address of phys. Never fails silently: panics
 * when out of memory or region. Interrupts-off critical section. */
void *vmm_map_mmio(uint64_t phys, size_t size, int wc);
/* Map one page at virt (kernel half, page aligned) to phys with flags VMM_*;
 * 0 on success, -1 when virt is in the lower half, unaligned, already mapped,
 * or a page-table page cannot be allocated. Interrupts-off critical section. */
#define VMM_WRITE 0x1
#define VMM_EXEC  0x2
int vmm_map_page(uint64_t virt, uint64_t phys, unsigned flags);
/* Remove the 4 KiB mapping at virt and flush it from this CPU's TLB;
 * returns the physical page it mapped (the caller owns it), 0 if none.
 * Interrupts-off critical section. */
uint64_t vmm_unmap_page(uint64_t virt);
/* Physical address that virt maps to, or 0 if unmapped. */
uint64_t vmm_translate(uint64_t virt);
/* Bytes of page-table pages the kernel's tables have grown by (the heap
 * and the kernel stacks map new ranges; table pages are never freed). */
uint64_t vmm_table_bytes(void);
/* CR3 value of the kernel page tables. */
uint64_t vmm_kernel_cr3(void);
/* A separate page table for calling UEFI runtime services in physical mode:
 * the kernel's upper half (shared, not copied) plus a 1:1 map of the runtime
 * code/data (RWX) and MMIO (uncached, NX) descriptors of the memory map.
 * Returns its CR3 value; panics when out of memory. Its page-table pages are
 * never freed, so build it once. Boot-time or interrupts off. */
uint64_t vmm_make_identity_cr3(const struct boot_info *bi);

/* A kernel stack of `pages` pages with an unmapped guard page below it;
 * returns the top (initial RSP, 16-byte aligned), NULL on failure.
 * Interrupts-off critical section. */
void *kstack_alloc(size_t pages);

/* Kernel heap. kmalloc: 16-byte aligned, NULL on failure or size 0.
 * kfree(NULL) is a no-op; freeing a pointer the heap did not hand out, or
 * twice, panics with a message. Interrupts-off critical sections.
 * heap_init() maps the first arena pages; after vmm_init(). */
void heap_init(void);
void *kmalloc(size_t size);
void *kzalloc(size_t size);
/* count elements of size bytes, zeroed; NULL when count * size overflows
 * (nothing is allocated), is 0, or does not fit. Use it whenever a count
 * comes from input. */
void *kcalloc(size_t count, size_t size);
void kfree(void *ptr);

struct heap_stats {
	uint64_t arena_bytes;    /* bytes of heap region mapped = used + free + 16 (end marker) */
	uint64_t used_bytes;     /* bytes in live allocations (incl. headers) */
	uint64_t free_bytes;     /* bytes in free blocks (incl. headers) */
	uint64_t allocations;    /* live allocation count */
};
void heap_get_stats(struct heap_stats *out);

#endif
