/* SPDX-License-Identifier: BSD-2-Clause */
/* malloc.c — the heap of a program: blocks with a 16-byte header on a
 * first-fit free list, neighbours merged on free, more memory from
 * SYS_VM_MAP in chunks of at least 256 KiB (never returned: the kernel
 * maps memory only for good while a process lives). One lock for all
 * threads. */
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define ALIGN 16
#define CHUNK (256u * 1024)
#define MAGIC 0x6d6f7361696361ull   /* live block */

struct block {
	uint64_t size;          /* payload bytes (multiple of 16) */
	uint64_t magic;         /* MAGIC when allocated, 0 when free */
	struct block *next;     /* free list, by address (free blocks only) */
	struct block *pad;
};

static struct block *free_list;
static struct mutex heap_lock = MUTEX_INIT;

/* Whether block a ends where block b starts. */
static int heap_adjacent(const struct block *a, const struct block *b)
{
	return (const char *)a + ALIGN + a->size == (const char *)b;
}

/* Inserts b into the free list by address and merges it with neighbours
 * that touch it. Lock held. */
static void heap_insert(struct block *b)
{
	struct block *prev = NULL, *cur = free_list;
	while (cur && cur < b) {
		prev = cur;
		cur = cur->next;
	}
	b->magic = 0;
	b->next = cur;
	if (prev)
		prev->next = b;
	else
		free_list = b;
	if (cur && heap_adjacent(b, cur)) {
		b->size += ALIGN + cur->size;
		b->next = cur->next;
	}
	if (prev && heap_adjacent(prev, b)) {
		prev->size += ALIGN + b->size;
		prev->next = b->next;
	}
}

/* Adds a new mapped chunk big enough for n payload bytes. Lock held. */
static int heap_grow(uint64_t n)
{
	uint64_t bytes = n + ALIGN > CHUNK ? n + ALIGN : CHUNK;
	struct block *b = vm_map(bytes);
	if (!b)
		return -1;
	bytes = (bytes + 4095) & ~4095ull;
	b->size = bytes - ALIGN;
	heap_insert(b);
	return 0;
}

void *malloc(size_t n)
{
	if (n == 0 || n > (1ull << 40))
		return NULL;
	uint64_t need = (n + ALIGN - 1) & ~(uint64_t)(ALIGN - 1);
	mutex_lock(&heap_lock);
	for (int tries = 0; tries < 2; tries++) {
		for (struct block **pp = &free_list; *pp; pp = &(*pp)->next) {
			struct block *b = *pp;
			if (b->size < need)
				continue;
			if (b->size >= need + 2 * ALIGN) {   /* split: the rest stays free */
				struct block *rest = (struct block *)((char *)b + ALIGN + need);
				rest->size = b->size - need - ALIGN;
				rest->next = b->next;
				rest->magic = 0;
				b->size = need;
				*pp = rest;
			} else {
				*pp = b->next;
			}
			b->magic = MAGIC;
			mutex_unlock(&heap_lock);
			return (char *)b + ALIGN;
		}
		if (heap_grow(need))
			break;
	}
	mutex_unlock(&heap_lock);
	return NULL;
}

void free(void *p)
{
	if (!p)
		return;
	struct block *b = (struct block *)((char *)p - ALIGN);
	if (b->magic != MAGIC)
		abort();   /* not ours, or freed twice */
	mutex_lock(&heap_lock);
	heap_insert(b);
	mutex_unlock(&heap_lock);
}

void *calloc(size_t count, size_t size)
{
	if (size && count > (~(size_t)0) / size)
		return NULL;
	void *p = malloc(count * size);
	if (p)
		memset(p, 0, count * size);
	return p;
}

void *realloc(void *p, size_t n)
{
	if (!p)
		return malloc(n);
	struct block *b = (struct block *)((char *)p - ALIGN);
	if (n <= b->size)
		return p;
	void *q = malloc(n);
	if (q) {
		memcpy(q, p, b->size);
		free(p);
	}
	return q;
}
