/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * heap_core.h — the kernel heap's allocator core, independent of how its
 * region gets backed by memory (heap_kernel.c maps pages; host tests use
 * mprotect). kmalloc/kzalloc/kfree/heap_get_stats are declared in mm.h.
 */
#ifndef MOSAIC_HEAP_CORE_H
#define MOSAIC_HEAP_CORE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes the heap asks for at least each time it grows (a page multiple). */
#define HEAP_GROW_MIN (64 * 1024)
/* Largest arena: block sizes must fit the header's 32-bit 16-byte units. */
#define HEAP_MAX_ARENA (1ULL << 36)

/* Make [at, at + bytes) readable and writable memory; at and bytes are page
 * multiples and the range lies just past what was mapped before. Returns 0,
 * or -1 after undoing any partial work. Called with the heap lock held. */
typedef int (*heap_grow_fn)(uint64_t at, size_t bytes);

/* (Re)start the heap over the virtual range [base, limit) (base page
 * aligned), mapping its first HEAP_GROW_MIN bytes through grow. Panics if
 * that fails. Boot-time, single CPU. */
void heap_setup(uint64_t base, uint64_t limit, heap_grow_fn grow);

#endif
