/*
 * mm_lock.h — the memory manager's critical sections.
 *
 * There is one CPU in the kernel so far, so "locked" means interrupts off on
 * this CPU. The wrappers exist so that pmm.c and heap.c also compile on the
 * host (-DMOSAIC_HOST), where they do nothing. When APs start allocating,
 * these become a spinlock taken with interrupts off.
 */
#ifndef MOSAIC_MM_LOCK_H
#define MOSAIC_MM_LOCK_H

#include <stdint.h>

#ifdef MOSAIC_HOST
static inline uint64_t mm_lock(void) { return 0; }
static inline void mm_unlock(uint64_t flags) { (void)flags; }
#else
#include <cpu.h>
/* Enter a critical section; returns the flags to hand to mm_unlock(). */
static inline uint64_t mm_lock(void) { return cpu_save_flags_cli(); }
/* Leave it, restoring the interrupt flag saved by mm_lock(). */
static inline void mm_unlock(uint64_t flags) { cpu_restore_flags(flags); }
#endif

#endif
