/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kstack.c — kernel stacks in the MM_STACK_BASE region.
 *
 * Stacks are laid out upward, each as one unmapped guard page followed by
 * its pages: [guard][stack 1][guard][stack 2]... An overflow runs into the
 * stack's own guard page, an underflow into the next stack's, and either
 * faults at once. Virtual space is never reused, so a guard stays unmapped.
 */
#include <mm/mm.h>
#include <mm/mm_lock.h>

static struct spinlock kstack_lock = SPINLOCK_INIT("kstack");

/* Largest stack kstack_alloc() hands out, in pages (256 KiB). */
#define KSTACK_MAX_PAGES 64

static uint64_t kstack_next = MM_STACK_BASE;

/* See mm.h. On failure nothing stays allocated but page-table pages. */
void *kstack_alloc(size_t pages)
{
	uint64_t irq, base;
	size_t done;

	if (pages == 0 || pages > KSTACK_MAX_PAGES)
		return NULL;
	irq = mm_lock(&kstack_lock);
	if ((pages + 1) * PAGE_SIZE > MM_STACK_END - kstack_next) {
		mm_unlock(&kstack_lock, irq);
		return NULL;
	}
	base = kstack_next + PAGE_SIZE;
	for (done = 0; done < pages; done++) {
		uint64_t phys = pmm_alloc_page();

		if (phys && vmm_map_page(base + done * PAGE_SIZE, phys, VMM_WRITE) == 0)
			continue;
		if (phys)
			pmm_free_page(phys);
		while (done--)
			pmm_free_page(vmm_unmap_page(base + done * PAGE_SIZE));
		mm_unlock(&kstack_lock, irq);
		return NULL;
	}
	kstack_next = base + pages * PAGE_SIZE;
	mm_unlock(&kstack_lock, irq);
	return (void *)(base + pages * PAGE_SIZE);
}
