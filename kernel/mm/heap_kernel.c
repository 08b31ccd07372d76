/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * heap_kernel.c — backs the kernel heap (heap.c) with pages: the arena lives
 * at MM_HEAP_BASE and grows by mapping fresh physical pages RW, NX.
 */
#include <mm/mm.h>
#include <mm/heap_core.h>

/* Map pmm pages at [at, at + bytes); on failure unmap and free what this
 * call mapped and return -1. Called with the heap lock held. */
static int heap_map_pages(uint64_t at, size_t bytes)
{
	for (uint64_t off = 0; off < bytes; off += PAGE_SIZE) {
		uint64_t phys = pmm_alloc_page();

		if (phys && vmm_map_page(at + off, phys, VMM_WRITE) == 0)
			continue;
		if (phys)
			pmm_free_page(phys);
		while (off) {
			off -= PAGE_SIZE;
			pmm_free_page(vmm_unmap_page(at + off));
		}
		return -1;
	}
	return 0;
}

/* See mm.h. */
void heap_init(void)
{
	heap_setup(MM_HEAP_BASE, MM_HEAP_END, heap_map_pages);
}
