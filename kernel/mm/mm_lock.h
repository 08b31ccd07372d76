/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mm_lock.h — the memory manager's critical sections.
 *
 * Each allocator has its own spinlock, taken with interrupts off on the
 * holding CPU (spinlock.h). Lock order, outermost first: heap or kstack,
 * then vmm, then pmm (the heap and stacks map pages, mapping allocates
 * page-table pages). The wrappers exist so that pmm.c and heap.c also
 * compile on the host (-DMOSAIC_HOST), where they do nothing.
 */
#ifndef MOSAIC_MM_LOCK_H
#define MOSAIC_MM_LOCK_H

#include <stdint.h>
#include <arch/x86_64/spinlock.h>

#ifdef MOSAIC_HOST
static inline uint64_t mm_lock(struct spinlock *l) { (void)l; return 0; }
static inline void mm_unlock(struct spinlock *l, uint64_t flags) { (void)l; (void)flags; }
#else
/* Enter l's critical section; returns the flags to hand to mm_unlock(). */
static inline uint64_t mm_lock(struct spinlock *l) { return spin_lock_irqsave(l); }
/* Leave it, restoring the interrupt flag saved by mm_lock(). */
static inline void mm_unlock(struct spinlock *l, uint64_t flags) { spin_unlock_irqrestore(l, flags); }
#endif

#endif
