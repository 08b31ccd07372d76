/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * heap.c — kmalloc/kfree: a boundary-tag allocator with segregated free lists.
 *
 * The arena [base, end) is tiled by blocks, each starting with a 16-byte
 * header { magic, size of the previous block, own size }; a 16-byte end
 * marker closes it. Payloads follow the header, so they are 16-byte aligned.
 * Free blocks carry list links in their payload and sit in a bin by size:
 * one bin per 16-byte size up to 1 KiB, then one per power of two. A bitmap
 * of non-empty bins finds the smallest fitting bin in a few instructions.
 * Freeing merges a block with free neighbours at once (the previous one is
 * found through the size in the header), so no two free blocks touch.
 * When nothing fits, the arena grows at its end through the grow hook and
 * the new space merges with a free last block.
 */
#include <mm/mm.h>
#include <kern/panic.h>
#include <lib/string.h>
#include <mm/heap_core.h>
#include <mm/mm_lock.h>
#include <mm/fail_nth.h>

static struct spinlock heap_lock = SPINLOCK_INIT("heap");

#define HEAP_HDR        16u
#define HEAP_MIN_BLOCK  32u                      /* header + two links */
#define HEAP_SMALL_MAX  1024u
#define HEAP_NSMALL     (HEAP_SMALL_MAX / 16 - 1) /* blocks 32..1024 bytes */
#define HEAP_NBINS      (HEAP_NSMALL + 64 - 10)   /* then 2^10.. 2^63 */
#define HEAP_BIN_WORDS  ((HEAP_NBINS + 63) / 64)

#define HEAP_MAGIC_USED 0xa110c8edu
#define HEAP_MAGIC_FREE 0xf4eeb10cu
#define HEAP_MAGIC_END  0xe0dfe4ceu

struct heap_block {
	uint32_t magic;
	uint32_t prev_units;     /* previous block's size / 16; 0 for the first block */
	uint64_t size;           /* whole block including this header */
};

/* Payload of a free block. */
struct heap_links {
	struct heap_block *next, *prev;
};

static struct {
	uint64_t base, end, limit;
	heap_grow_fn grow;
	struct heap_block *bins[HEAP_NBINS];
	uint64_t nonempty[HEAP_BIN_WORDS];
	uint64_t used_bytes, free_bytes, allocations;
} heap;

static struct heap_links *heap_links(struct heap_block *b)
{
	return (struct heap_links *)(b + 1);
}

static struct heap_block *heap_next(struct heap_block *b)
{
	return (struct heap_block *)((char *)b + b->size);
}

static struct heap_block *heap_prev(struct heap_block *b)
{
	if (b->prev_units == 0)
		return NULL;
	return (struct heap_block *)((char *)b - (uint64_t)b->prev_units * 16);
}

/* Bin for a block of `size` bytes (a multiple of 16, at least 32). */
static unsigned heap_bin(uint64_t size)
{
	if (size <= HEAP_SMALL_MAX)
		return size / 16 - 2;
	return HEAP_NSMALL + (63 - __builtin_clzll(size)) - 10;
}

/* First non-empty bin at or above idx, HEAP_NBINS if none. */
static unsigned heap_next_bin(unsigned idx)
{
	for (unsigned w = idx / 64; w < HEAP_BIN_WORDS; w++) {
		uint64_t bits = heap.nonempty[w];

		if (w == idx / 64)
			bits &= ~0ULL << (idx % 64);
		if (bits)
			return w * 64 + __builtin_ctzll(bits);
	}
	return HEAP_NBINS;
}

/* Put a block on its bin's list and mark it free. */
static void heap_insert(struct heap_block *b)
{
	unsigned idx = heap_bin(b->size);
	struct heap_links *l = heap_links(b);

	b->magic = HEAP_MAGIC_FREE;
	l->prev = NULL;
	l->next = heap.bins[idx];
	if (l->next)
		heap_links(l->next)->prev = b;
	heap.bins[idx] = b;
	heap.nonempty[idx / 64] |= 1ULL << (idx % 64);
	heap.free_bytes += b->size;
}

/* Take a free block off its bin's list (its magic is left to the caller). */
static void heap_unlink(struct heap_block *b)
{
	unsigned idx = heap_bin(b->size);
	struct heap_links *l = heap_links(b);

	if (l->prev)
		heap_links(l->prev)->next = l->next;
	else
		heap.bins[idx] = l->next;
	if (l->next)
		heap_links(l->next)->prev = l->prev;
	if (!heap.bins[idx])
		heap.nonempty[idx / 64] &= ~(1ULL << (idx % 64));
	heap.free_bytes -= b->size;
}

/* Record b's size in the header of the block after it. */
static void heap_link_next(struct heap_block *b)
{
	heap_next(b)->prev_units = (uint32_t)(b->size / 16);
}

/* Make b free, merged with whichever neighbours are free. */
static void heap_release(struct heap_block *b)
{
	struct heap_block *n = heap_next(b);
	struct heap_block *p = heap_prev(b);

	if (n->magic == HEAP_MAGIC_FREE) {
		heap_unlink(n);
		n->magic = 0;
		b->size += n->size;
	}
	if (p && p->magic == HEAP_MAGIC_FREE) {
		heap_unlink(p);
		b->magic = 0;
		p->size += b->size;
		b = p;
	}
	heap_link_next(b);
	heap_insert(b);
}

/* A free block of at least `need` bytes, or NULL. Small bins hold one size
 * each; a large bin is searched first-fit, bins above it fit whatever they
 * hold. */
static struct heap_block *heap_find(uint64_t need)
{
	unsigned idx = heap_bin(need);
	struct heap_block *b;

	if (idx >= HEAP_NSMALL) {
		for (b = heap.bins[idx]; b; b = heap_links(b)->next)
			if (b->size >= need)
				return b;
		idx++;
	}
	idx = heap_next_bin(idx);
	return idx < HEAP_NBINS ? heap.bins[idx] : NULL;
}

/* Grow the arena so that a free block of `need` bytes exists at its end.
 * The old end marker becomes the header of the new space. 0 or -1. */
static int heap_grow_for(uint64_t need)
{
	struct heap_block *mark = (struct heap_block *)(heap.end - HEAP_HDR);
	struct heap_block *last = heap_prev(mark);
	uint64_t have = last && last->magic == HEAP_MAGIC_FREE ? last->size : 0;
	uint64_t bytes = PAGE_ROUND_UP(need - have);
	struct heap_block *end;

	if (bytes < HEAP_GROW_MIN)
		bytes = HEAP_GROW_MIN;
	if (bytes > heap.limit - heap.end || heap.grow(heap.end, bytes) != 0)
		return -1;
	heap.end += bytes;
	end = (struct heap_block *)(heap.end - HEAP_HDR);
	end->magic = HEAP_MAGIC_END;
	end->size = HEAP_HDR;
	mark->size = bytes;
	heap_release(mark);
	return 0;
}

/* See heap_core.h. */
void heap_setup(uint64_t base, uint64_t limit, heap_grow_fn grow)
{
	struct heap_block *first = (struct heap_block *)base;
	struct heap_block *end;

	memset(&heap, 0, sizeof(heap));
	heap.base = base;
	heap.limit = limit - base > HEAP_MAX_ARENA ? base + HEAP_MAX_ARENA : limit;
	heap.grow = grow;
	if (heap.limit - base < HEAP_GROW_MIN || grow(base, HEAP_GROW_MIN) != 0)
		panic("heap: cannot map the first %d bytes at 0x%lx", HEAP_GROW_MIN, base);
	heap.end = base + HEAP_GROW_MIN;
	first->prev_units = 0;
	first->size = HEAP_GROW_MIN - HEAP_HDR;
	end = heap_next(first);
	end->magic = HEAP_MAGIC_END;
	end->size = HEAP_HDR;
	heap_link_next(first);
	heap_insert(first);
}

/* See mm.h. Takes the smallest fitting free block, splits off the rest if
 * it can stand as a block, grows the arena when nothing fits. */
void *kmalloc(size_t size)
{
	uint64_t need, flags;
	struct heap_block *b;

	if (size == 0 || size > HEAP_MAX_ARENA || fail_nth_now())
		return NULL;
	need = (size + HEAP_HDR + 15) & ~15ULL;
	if (need < HEAP_MIN_BLOCK)
		need = HEAP_MIN_BLOCK;

	flags = mm_lock(&heap_lock);
	b = heap_find(need);
	if (!b && heap_grow_for(need) == 0)
		b = heap_find(need);
	if (!b) {
		mm_unlock(&heap_lock, flags);
		return NULL;
	}
	if (b->magic != HEAP_MAGIC_FREE || b->size < need)
		panic("heap: free block at %p is corrupted (written after kfree?)", (void *)b);
	heap_unlink(b);
	if (b->size - need >= HEAP_MIN_BLOCK) {
		struct heap_block *rest = (struct heap_block *)((char *)b + need);

		rest->size = b->size - need;
		b->size = need;
		heap_link_next(b);
		heap_link_next(rest);
		heap_insert(rest);
	}
	b->magic = HEAP_MAGIC_USED;
	heap.used_bytes += b->size;
	heap.allocations++;
	mm_unlock(&heap_lock, flags);
	return b + 1;
}

/* See mm.h. */
void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

/* See mm.h. The product is checked before it is formed, so a count from
 * outside input cannot wrap it into a small allocation. */
void *kcalloc(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return kzalloc(count * size);
}

/* Panic unless ptr is the payload of a live block with intact headers. */
static void heap_check_live(void *ptr, struct heap_block *b)
{
	uint64_t a = (uint64_t)ptr;
	struct heap_block *p;

	if (a % 16 || a < heap.base + HEAP_HDR || a >= heap.end)
		panic("kfree: %p is not a heap pointer", ptr);
	if (b->magic == HEAP_MAGIC_FREE)
		panic("kfree: double free of %p", ptr);
	if (b->magic != HEAP_MAGIC_USED)
		panic("kfree: %p was not returned by kmalloc (bad pointer or double free)", ptr);
	p = heap_prev(b);
	if (b->size < HEAP_MIN_BLOCK || b->size % 16 || b->size > heap.end - HEAP_HDR - (uint64_t)b ||
	    heap_next(b)->prev_units != b->size / 16 ||
	    (p && ((uint64_t)p < heap.base || p->size != (uint64_t)b->prev_units * 16)))
		panic("kfree: heap block of %p is corrupted (buffer overrun?)", ptr);
}

/* See mm.h. */
void kfree(void *ptr)
{
	struct heap_block *b;
	uint64_t flags;

	if (!ptr)
		return;
	b = (struct heap_block *)ptr - 1;
	flags = mm_lock(&heap_lock);
	heap_check_live(ptr, b);
	heap.used_bytes -= b->size;
	heap.allocations--;
	heap_release(b);
	mm_unlock(&heap_lock, flags);
}

/* See mm.h. */
void heap_get_stats(struct heap_stats *out)
{
	uint64_t flags = mm_lock(&heap_lock);

	out->arena_bytes = heap.end - heap.base;
	out->used_bytes = heap.used_bytes;
	out->free_bytes = heap.free_bytes;
	out->allocations = heap.allocations;
	mm_unlock(&heap_lock, flags);
}
