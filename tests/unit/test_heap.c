/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_heap.c — host tests for the kernel heap (kernel/mm/heap.c).
 *
 * The heap region is a PROT_NONE reservation; the grow hook makes pages
 * readable and writable as the heap asks for them, so any touch beyond what
 * the heap mapped crashes the test. The hook counts calls and can be told
 * to fail, like an out-of-memory kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include <mm/mm.h>
#include <kern/panic.h>
#include <tests/unit/panic_hook.h>
#include <mm/heap_core.h>

#define REGION_SIZE (256ULL * 1024 * 1024)

static unsigned char *region;
static int grow_calls;
static int grow_fail;

/* ---- the grow hook ---- */

static int test_grow(uint64_t at, size_t bytes)
{
	unsigned char *p = (unsigned char *)at;

	assert_int_equal(at % PAGE_SIZE, 0);
	assert_int_equal(bytes % PAGE_SIZE, 0);
	assert_true(p >= region && p + bytes <= region + REGION_SIZE);
	if (grow_fail)
		return -1;
	grow_calls++;
	assert_int_equal(mprotect(p, bytes, PROT_READ | PROT_WRITE), 0);
	memset(p, 0xEE, bytes); /* fresh memory is not zero in general */
	return 0;
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(mprotect(region, REGION_SIZE, PROT_NONE), 0);
	grow_calls = 0;
	grow_fail = 0;
	heap_setup((uint64_t)region, (uint64_t)region + REGION_SIZE, test_grow);
	assert_int_equal(grow_calls, 1);
	return 0;
}

/* arena = used + free + end marker, whatever happened before. */
static void check_accounting(struct heap_stats *st)
{
	heap_get_stats(st);
	assert_int_equal(st->arena_bytes, st->used_bytes + st->free_bytes + 16);
}

/* ---- tests ---- */

/* Every size gets a 16-byte aligned, writable payload of at least that size. */
static void test_alignment(void **state)
{
	static void *p[600];
	struct heap_stats st;
	(void)state;

	for (size_t i = 0; i < 600; i++) {
		p[i] = kmalloc(i * 7 + 1);
		assert_non_null(p[i]);
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		memset(p[i], (int)i, i * 7 + 1);
	}
	check_accounting(&st);
	assert_int_equal(st.allocations, 600);
	for (size_t i = 0; i < 600; i++) {
		for (size_t j = 0; j < i * 7 + 1; j++)
			assert_int_equal(((unsigned char *)p[i])[j], (unsigned char)i);
		kfree(p[i]);
	}
	check_accounting(&st);
	assert_int_equal(st.allocations, 0);
	assert_int_equal(st.used_bytes, 0);
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#define SLOTS 3000
static unsigned char *slot_ptr[SLOTS];
static size_t slot_size[SLOTS];
static unsigned char slot_fill[SLOTS];

static void slot_check_free(int i)
{
	for (size_t j = 0; j < slot_size[i]; j++)
		if (slot_ptr[i][j] != (unsigned char)(slot_fill[i] + j))
			fail_msg("slot %d byte %zu overwritten", i, j);
	kfree(slot_ptr[i]);
	slot_ptr[i] = NULL;
}

/* Random alloc/free with content checks; accounting is conserved and, once
 * everything is freed, one block covers the whole arena again. */
static void test_random(void **state)
{
	struct heap_stats st, base;
	uint64_t live = 0, arena;
	void *big;
	(void)state;

	heap_get_stats(&base);
	for (int op = 0; op < 200000; op++) {
		int i = next_rand() % SLOTS;

		if (slot_ptr[i]) {
			slot_check_free(i);
			live--;
			continue;
		}
		uint64_t r = next_rand();
		size_t size = r % 100 < 90 ? 1 + r % 200 : r % 100 < 99 ? 1 + r % 5000 : 1 + r % 200000;
		slot_ptr[i] = kmalloc(size);
		assert_non_null(slot_ptr[i]);
		assert_int_equal((uintptr_t)slot_ptr[i] % 16, 0);
		slot_size[i] = size;
		slot_fill[i] = (unsigned char)r;
		for (size_t j = 0; j < size; j++)
			slot_ptr[i][j] = (unsigned char)(slot_fill[i] + j);
		live++;
		if (op % 10007 == 0) {
			check_accounting(&st);
			assert_int_equal(st.allocations, live);
		}
	}
	for (int i = 0; i < SLOTS; i++)
		if (slot_ptr[i])
			slot_check_free(i);
	check_accounting(&st);
	assert_int_equal(st.allocations, 0);
	assert_int_equal(st.used_bytes, 0);
	assert_int_equal(st.free_bytes, st.arena_bytes - 16);
	assert_true(st.arena_bytes > base.arena_bytes);

	/* Coalescing: the whole arena is one block again. */
	arena = st.arena_bytes;
	grow_calls = 0;
	big = kmalloc(arena - 16 - 16);
	assert_non_null(big);
	assert_int_equal(grow_calls, 0);
	memset(big, 1, arena - 32);
	check_accounting(&st);
	assert_int_equal(st.free_bytes, 0);
	kfree(big);
	check_accounting(&st);
	assert_int_equal(st.free_bytes, arena - 16);
}

/* Thousands of small allocations stay cheap and pack densely. */
static void test_many_small(void **state)
{
	enum { N = 20000 };
	static void *p[N];
	struct heap_stats st;
	(void)state;

	for (int i = 0; i < N; i++) {
		p[i] = kmalloc(24);
		assert_non_null(p[i]);
		*(int *)p[i] = i;
	}
	check_accounting(&st);
	/* 48-byte blocks, except that a block absorbs a 16-byte tail it cannot
	 * split off: at most once per arena growth */
	assert_true(st.used_bytes >= N * 48ULL);
	assert_true(st.used_bytes <= N * 48ULL + 16ULL * grow_calls);
	assert_true(st.arena_bytes < N * 48ULL + 2 * HEAP_GROW_MIN);
	/* free every other one, then refill: the holes are reused exactly */
	for (int i = 0; i < N; i += 2)
		kfree(p[i]);
	grow_calls = 0;
	for (int i = 0; i < N; i += 2)
		assert_non_null(p[i] = kmalloc(20));
	assert_int_equal(grow_calls, 0);
	for (int i = 1; i < N; i += 2)
		assert_int_equal(*(int *)p[i], i);
	for (int i = N - 1; i >= 0; i--)
		kfree(p[i]);
	check_accounting(&st);
	assert_int_equal(st.used_bytes, 0);
	assert_int_equal(st.free_bytes, st.arena_bytes - 16);
}

/* Freed neighbours merge at once, in both directions. */
static void test_coalesce_neighbours(void **state)
{
	struct heap_stats st;
	void *a, *b, *c, *d, *e;
	(void)state;

	a = kmalloc(1000);
	b = kmalloc(1000);
	c = kmalloc(1000);
	d = kmalloc(1000);
	assert_ptr_equal((char *)b, (char *)a + 1024);
	assert_ptr_equal((char *)c, (char *)b + 1024);
	kfree(b);
	kfree(d);
	kfree(c);       /* merges with b before and d (and the rest) after */
	e = kmalloc(3000);
	assert_ptr_equal(e, b);
	kfree(e);
	kfree(a);
	check_accounting(&st);
	assert_int_equal(st.free_bytes, st.arena_bytes - 16);
	assert_int_equal(st.arena_bytes, HEAP_GROW_MIN);
}

/* kzalloc zeroes, even in a reused block. */
static void test_kzalloc(void **state)
{
	unsigned char *p;
	(void)state;

	p = kmalloc(777);
	memset(p, 0xFF, 777);
	kfree(p);
	p = kzalloc(777);
	assert_non_null(p);
	for (int i = 0; i < 777; i++)
		assert_int_equal(p[i], 0);
	kfree(p);
	p = kzalloc(300000);    /* freshly grown memory is 0xEE */
	assert_non_null(p);
	for (int i = 0; i < 300000; i++)
		assert_int_equal(p[i], 0);
	kfree(p);
}

/* Size 0 and impossible sizes give NULL without touching the heap; so does a
 * failing grow hook; kfree(NULL) is a no-op. */
static void test_sizes(void **state)
{
	struct heap_stats before, after;
	void *p;
	(void)state;

	heap_get_stats(&before);
	assert_null(kmalloc(0));
	assert_null(kzalloc(0));
	assert_null(kmalloc(SIZE_MAX));
	assert_null(kmalloc(SIZE_MAX - 8));
	assert_null(kmalloc(REGION_SIZE));              /* beyond the region */
	assert_null(kmalloc(1ULL << 40));
	grow_fail = 1;
	assert_null(kmalloc(HEAP_GROW_MIN));            /* needs a grow that fails */
	grow_fail = 0;
	kfree(NULL);
	check_accounting(&after);
	assert_memory_equal(&before, &after, sizeof(before));

	p = kmalloc(REGION_SIZE / 4);                   /* large but possible */
	assert_non_null(p);
	kfree(p);
	check_accounting(&after);
	assert_int_equal(after.used_bytes, 0);
}

/* Bad frees panic with a message saying what was wrong. */
static void test_bad_free(void **state)
{
	int on_stack;
	unsigned char *p, *q, *r;
	(void)state;

	p = kmalloc(64);
	q = kmalloc(64);
	r = kmalloc(64);
	memset(p, 0, 64);
	EXPECT_PANIC(kfree(&on_stack), "not a heap pointer");
	EXPECT_PANIC(kfree(p + 8), "not a heap pointer");
	EXPECT_PANIC(kfree(p + 32), "not returned by kmalloc");
	kfree(q);
	EXPECT_PANIC(kfree(q), "double free");
	kfree(p);       /* q is merged into p now; its header is gone */
	EXPECT_PANIC(kfree(q), "double free");
	/* an overrun of r into the block after it is noticed when r is freed */
	memset(r, 0x41, 64 + 8);
	EXPECT_PANIC(kfree(r), "corrupted");
}

/* A write into a freed block's header is noticed when it is handed out. */
static void test_use_after_free(void **state)
{
	unsigned char *p, *q;
	(void)state;

	p = kmalloc(100);
	q = kmalloc(100);
	(void)q;
	kfree(p);
	memset(p - 16, 0, 4);   /* the freed block's magic */
	EXPECT_PANIC(kmalloc(100), "corrupted");
}

/* kcalloc: zeroed arrays; a count whose product with the size wraps gets
 * NULL and allocates nothing (count * size would have been 8 or 0 here). */
static void test_kcalloc(void **state)
{
	struct heap_stats before, after;
	unsigned char *p;
	(void)state;

	p = kmalloc(160);
	memset(p, 0xFF, 160);
	kfree(p);
	p = kcalloc(10, 16);
	assert_non_null(p);
	for (int i = 0; i < 160; i++)
		assert_int_equal(p[i], 0);
	kfree(p);

	heap_get_stats(&before);
	assert_null(kcalloc(((size_t)1 << 61) + 1, 8));   /* wraps to 8 */
	assert_null(kcalloc((size_t)1 << 60, 16));        /* wraps to 0 */
	assert_null(kcalloc(SIZE_MAX, SIZE_MAX));
	assert_null(kcalloc(SIZE_MAX / 8 + 1, 8));
	assert_null(kcalloc(0, 8));
	assert_null(kcalloc(8, 0));
	assert_null(kcalloc(1, (size_t)1 << 40));         /* no overflow, just too big */
	heap_get_stats(&after);
	assert_int_equal(after.allocations, before.allocations);
	assert_int_equal(after.used_bytes, before.used_bytes);

	p = kcalloc(1000, 300);                           /* grows the arena */
	assert_non_null(p);
	for (int i = 0; i < 300000; i++)
		assert_int_equal(p[i], 0);
	kfree(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_alignment, setup),
		cmocka_unit_test_setup(test_random, setup),
		cmocka_unit_test_setup(test_many_small, setup),
		cmocka_unit_test_setup(test_coalesce_neighbours, setup),
		cmocka_unit_test_setup(test_kzalloc, setup),
		cmocka_unit_test_setup(test_kcalloc, setup),
		cmocka_unit_test_setup(test_sizes, setup),
		cmocka_unit_test_setup(test_bad_free, setup),
		cmocka_unit_test_setup(test_use_after_free, setup),
	};

	region = mmap(NULL, REGION_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		      -1, 0);
	if (region == MAP_FAILED)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
