/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_pmm.c — host tests for the physical page allocator (kernel/mm/pmm*.c).
 *
 * "Physical memory" is a 32 MiB malloc'd buffer: physical address p lives at
 * ram + p, so mm_host_direct_map_base is the buffer's address. Each test
 * writes a fake UEFI memory map (with a 48-byte descriptor stride, like real
 * firmware) and checks exactly which pages the allocator hands out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <mm/mm.h>
#include <kern/panic.h>
#include <tests/unit/panic_hook.h>

#define MIB (1024ULL * 1024)
#define RAM_SIZE (32 * MIB)
#define RAM_PAGES (RAM_SIZE / PAGE_SIZE)
#define DESC_STRIDE 48
#define MAX_DESCS 4096

uint64_t mm_host_direct_map_base;
static unsigned char *ram;

/* ---- fake boot_info and memory map ---- */

static struct boot_info bi;
static unsigned char descs[MAX_DESCS * DESC_STRIDE];
static int ndescs;

static void map_reset(void)
{
	memset(&bi, 0, sizeof(bi));
	memset(descs, 0, sizeof(descs));
	ndescs = 0;
	bi.magic = BOOT_INFO_MAGIC;
	bi.direct_map_size = RAM_SIZE;
	bi.mmap_phys = virt_to_phys(descs);
	bi.mmap_desc_size = DESC_STRIDE;
	/* the kernel lives outside the fake RAM unless a test says otherwise */
	bi.kernel_phys_base = 0x7f000000;
	bi.kernel_size = MIB;
	memset(ram, 0xAA, RAM_SIZE);
}

static void map_add(uint32_t type, uint64_t phys, uint64_t pages)
{
	struct boot_mem_desc *d = (struct boot_mem_desc *)(descs + ndescs * DESC_STRIDE);

	assert_true(ndescs < MAX_DESCS);
	d->type = type;
	d->phys_start = phys;
	d->num_pages = pages;
	memset(d + 1, 0x5c, DESC_STRIDE - sizeof(*d)); /* junk in the stride padding */
	ndescs++;
	bi.mmap_size = ndescs * DESC_STRIDE;
}

/* ---- expected page sets ---- */

static unsigned char expect[RAM_PAGES];  /* 1: the pool should own this page */
static unsigned char got[RAM_PAGES];

static void expect_range(uint64_t start, uint64_t end, unsigned char v)
{
	for (uint64_t p = start; p < end; p += PAGE_SIZE)
		expect[p / PAGE_SIZE] = v;
}

/* Allocate until exhaustion; every page must be zeroed, expected, and new.
 * The expected pages left over must be exactly one run of meta_bytes (the
 * bitmaps). Returns the number of pages allocated. */
static uint64_t drain_and_check(void)
{
	struct pmm_stats st;
	uint64_t n = 0, p, left = 0, first_left = 0, last_left = 0;
	static const unsigned char zero[PAGE_SIZE];

	pmm_get_stats(&st);
	memset(got, 0, sizeof(got));
	while ((p = pmm_alloc_page()) != 0) {
		assert_int_equal(p % PAGE_SIZE, 0);
		assert_true(p < RAM_SIZE);
		if (!expect[p / PAGE_SIZE])
			fail_msg("allocated page 0x%lx is not usable memory", (unsigned long)p);
		if (got[p / PAGE_SIZE])
			fail_msg("page 0x%lx handed out twice", (unsigned long)p);
		assert_memory_equal(ram + p, zero, PAGE_SIZE);
		memset(ram + p, 0x77, PAGE_SIZE);
		got[p / PAGE_SIZE] = 1;
		n++;
	}
	assert_int_equal(pmm_alloc_page(), 0);
	for (uint64_t i = 0; i < RAM_PAGES; i++) {
		if (expect[i] && !got[i]) {
			if (!left)
				first_left = i;
			last_left = i;
			left++;
		}
	}
	assert_int_equal(left * PAGE_SIZE, st.meta_bytes);
	assert_int_equal(last_left - first_left + 1, left);
	assert_int_equal(n * PAGE_SIZE, st.total_bytes);
	assert_int_equal(n * PAGE_SIZE, st.free_bytes);
	pmm_get_stats(&st);
	assert_int_equal(st.free_bytes, 0);
	return n;
}

static int setup(void **state)
{
	(void)state;
	memset(expect, 0, sizeof(expect));
	map_reset();
	return 0;
}

/* ---- tests ---- */

/* A plain map: conventional runs around firmware holes. Page 0 never. */
static void test_basic_map(void **state)
{
	struct pmm_stats st;
	(void)state;

	map_add(BOOT_MEM_CONVENTIONAL, 0, 160);                 /* 0..640K */
	map_add(BOOT_MEM_RESERVED, 0xA0000, 96);                /* legacy hole */
	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 7 * 256);       /* 1M..8M */
	map_add(BOOT_MEM_BOOT_SERVICES_DATA, 8 * MIB, 2 * 256); /* 8M..10M */
	map_add(BOOT_MEM_ACPI_RECLAIM, 10 * MIB, 256);          /* 10M..11M */
	map_add(BOOT_MEM_CONVENTIONAL, 11 * MIB, 5 * 256);      /* 11M..16M */
	map_add(BOOT_MEM_RUNTIME_SERVICES_DATA, 16 * MIB, 256); /* 16M..17M */
	map_add(BOOT_MEM_KERNEL, 17 * MIB, 256);                /* 17M..18M */
	map_add(BOOT_MEM_MMIO, 0xFEC00000, 1);
	bi.kernel_phys_base = 17 * MIB;
	expect_range(PAGE_SIZE, 0xA0000, 1);
	expect_range(1 * MIB, 8 * MIB, 1);
	expect_range(11 * MIB, 16 * MIB, 1);

	pmm_init(&bi);
	pmm_get_stats(&st);
	assert_int_equal(st.reclaimed_bytes, 0);
	assert_int_equal(st.kernel_bytes, 1 * MIB);
	assert_int_equal(st.reserved_bytes, 96 * PAGE_SIZE + 2 * MIB + PAGE_SIZE);
	assert_int_equal(st.meta_bytes, PAGE_SIZE);
	assert_int_equal(st.total_bytes, st.free_bytes);
	assert_int_equal(drain_and_check(), 159 + 7 * 256 + 5 * 256 - 1);
}

/* Unsorted, overlapping, zero-length, unaligned and out-of-range
 * descriptors: a page is used only if nothing but usable memory covers it. */
static void test_messy_map(void **state)
{
	(void)state;

	map_add(BOOT_MEM_CONVENTIONAL, 12 * MIB, 256);              /* 12M..13M */
	map_add(BOOT_MEM_RESERVED, 2 * MIB, 2);                     /* hole inside 1M..4M */
	map_add(BOOT_MEM_CONVENTIONAL, 3 * MIB, 2 * 256);           /* 3M..5M, overlaps next */
	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 3 * 256);           /* 1M..4M */
	map_add(BOOT_MEM_RESERVED, 4 * MIB + 4096, 0);              /* zero length: no effect */
	map_add(BOOT_MEM_CONVENTIONAL, 20 * MIB, 0);                /* zero length: nothing */
	map_add(BOOT_MEM_CONVENTIONAL, 6 * MIB + 0x800, 4);         /* unaligned: 3 whole pages */
	map_add(BOOT_MEM_ACPI_NVS, 12 * MIB + 0x10800, 1);          /* unaligned: blocks 2 pages */
	map_add(BOOT_MEM_CONVENTIONAL, 30 * MIB, 4 * 256);          /* 30M..34M: clipped at 32M */
	map_add(BOOT_MEM_CONVENTIONAL, 64 * MIB, 256);              /* beyond the direct map */
	map_add(BOOT_MEM_RESERVED, 0xFFFFFFFFFFFF0000ULL, UINT64_MAX); /* wraps 2^64 */
	map_add(BOOT_MEM_UNUSABLE, 31 * MIB, 1);
	map_add(42, 30 * MIB + 8192, 1);                            /* unknown type: blocks */

	expect_range(12 * MIB, 13 * MIB, 1);
	expect_range(12 * MIB + 0x10000, 12 * MIB + 0x12000, 0);
	expect_range(1 * MIB, 5 * MIB, 1);
	expect_range(2 * MIB, 2 * MIB + 8192, 0);
	expect_range(6 * MIB + 4096, 6 * MIB + 4 * 4096, 1);
	expect_range(30 * MIB, 32 * MIB, 1);
	expect_range(31 * MIB, 31 * MIB + 4096, 0);
	expect_range(30 * MIB + 8192, 30 * MIB + 3 * 4096, 0);

	pmm_init(&bi);
	assert_int_equal(drain_and_check(),
			 (256 - 2) + (4 * 256 - 2) + 3 + (2 * 256 - 2) - 1);
}

/* Real firmware (a NUC's among them) hands over maps of hundreds of small
 * regions, in no particular order: 4000 one- and two-page descriptors,
 * usable and not, listed backwards, give exactly the usable pages. */
static void test_many_small_regions(void **state)
{
	(void)state;
	static const uint32_t other[] = { BOOT_MEM_RESERVED, BOOT_MEM_BOOT_SERVICES_DATA,
					  BOOT_MEM_RUNTIME_SERVICES_DATA, BOOT_MEM_ACPI_NVS,
					  BOOT_MEM_MMIO, BOOT_MEM_LOADER_DATA };
	uint64_t usable = 0;
	for (int i = 1999; i >= 0; i--) {
		uint64_t base = 4 * MIB + (uint64_t)i * 3 * PAGE_SIZE;
		map_add(BOOT_MEM_CONVENTIONAL, base, 2);
		map_add(other[i % 6], base + 2 * PAGE_SIZE, 1);
		expect_range(base, base + 2 * PAGE_SIZE, 1);
		usable += 2;
	}
	pmm_init(&bi);
	assert_int_equal(drain_and_check(), usable - 1);   /* one page of bitmaps */
}

/* Reclaim adds exactly loader and boot-services pages, minus page 0, the
 * kernel, modules, the memory map, and anything firmware descriptors touch. */
static void test_reclaim(void **state)
{
	struct pmm_stats st;
	uint64_t before, reclaim_pages;
	(void)state;

	map_add(BOOT_MEM_LOADER_DATA, 0, 16);                       /* page 0 stays out */
	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 256);               /* 1M..2M */
	map_add(BOOT_MEM_LOADER_CODE, 2 * MIB, 64);
	map_add(BOOT_MEM_LOADER_DATA, 3 * MIB, 256);                /* holds a module */
	map_add(BOOT_MEM_BOOT_SERVICES_CODE, 4 * MIB, 128);
	map_add(BOOT_MEM_BOOT_SERVICES_DATA, 5 * MIB, 256);         /* RT data overlaps */
	map_add(BOOT_MEM_RUNTIME_SERVICES_DATA, 5 * MIB + 0x8000, 4);
	map_add(BOOT_MEM_RUNTIME_SERVICES_CODE, 6 * MIB, 16);
	map_add(BOOT_MEM_ACPI_RECLAIM, 7 * MIB, 16);
	map_add(BOOT_MEM_ACPI_NVS, 8 * MIB, 16);
	map_add(BOOT_MEM_MMIO, 9 * MIB, 16);
	map_add(BOOT_MEM_KERNEL, 10 * MIB, 64);
	map_add(BOOT_MEM_MODULE, 11 * MIB, 8);
	map_add(BOOT_MEM_BOOT_INFO, 12 * MIB, 2);
	map_add(BOOT_MEM_BOOT_SERVICES_DATA, 13 * MIB, 256);        /* kernel lies inside */
	map_add(BOOT_MEM_PERSISTENT, 15 * MIB, 16);
	map_add(BOOT_MEM_UNUSABLE, 16 * MIB, 16);
	bi.kernel_phys_base = 13 * MIB + 0x10000;
	bi.kernel_size = 0x20000;
	bi.module_count = 1;
	bi.modules[0].phys = 3 * MIB + 0x3000;
	bi.modules[0].size = 0x1800;                                /* 2 pages, rounded */

	expect_range(1 * MIB, 2 * MIB, 1);
	pmm_init(&bi);
	pmm_get_stats(&st);
	assert_int_equal(st.reclaimed_bytes, 0);
	before = st.total_bytes / PAGE_SIZE;
	assert_int_equal(before, 256 - st.meta_bytes / PAGE_SIZE);
	assert_int_equal(st.kernel_bytes, (64 + 8 + 2) * PAGE_SIZE);
	assert_int_equal(st.reserved_bytes, (4 + 16 * 6) * PAGE_SIZE);

	expect_range(PAGE_SIZE, 16 * PAGE_SIZE, 1);
	expect_range(2 * MIB, 2 * MIB + 64 * PAGE_SIZE, 1);
	expect_range(3 * MIB, 4 * MIB, 1);
	expect_range(3 * MIB + 0x3000, 3 * MIB + 0x5000, 0);
	expect_range(4 * MIB, 4 * MIB + 128 * PAGE_SIZE, 1);
	expect_range(5 * MIB, 6 * MIB, 1);
	expect_range(5 * MIB + 0x8000, 5 * MIB + 0xC000, 0);
	expect_range(13 * MIB, 14 * MIB, 1);
	expect_range(13 * MIB + 0x10000, 13 * MIB + 0x30000, 0);
	reclaim_pages = 15 + 64 + (256 - 2) + 128 + (256 - 4) + (256 - 32);

	pmm_reclaim_boot_memory(&bi);
	pmm_get_stats(&st);
	assert_int_equal(st.reclaimed_bytes, reclaim_pages * PAGE_SIZE);
	assert_int_equal(st.total_bytes, (before + reclaim_pages) * PAGE_SIZE);
	assert_int_equal(st.free_bytes, st.total_bytes);

	pmm_reclaim_boot_memory(&bi);                           /* idempotent */
	pmm_get_stats(&st);
	assert_int_equal(st.reclaimed_bytes, reclaim_pages * PAGE_SIZE);
	assert_int_equal(drain_and_check(), before + reclaim_pages);
}

/* Pages allocated before reclaim stay allocated; conventional memory that a
 * boot-services descriptor overlapped joins the pool only at reclaim. */
static void test_reclaim_after_alloc(void **state)
{
	uint64_t pages[100];
	struct pmm_stats st, st2;
	(void)state;

	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 256);
	map_add(BOOT_MEM_BOOT_SERVICES_DATA, 1 * MIB + 0x40000, 16); /* overlaps */
	map_add(BOOT_MEM_BOOT_SERVICES_CODE, 4 * MIB, 256);
	pmm_init(&bi);
	pmm_get_stats(&st);
	assert_int_equal(st.total_bytes + st.meta_bytes, (256 - 16) * PAGE_SIZE);
	for (int i = 0; i < 100; i++)
		assert_int_not_equal(pages[i] = pmm_alloc_page(), 0);
	pmm_reclaim_boot_memory(&bi);
	pmm_get_stats(&st2);
	assert_int_equal(st2.reclaimed_bytes, (256 + 16) * PAGE_SIZE);
	assert_int_equal(st2.free_bytes, st.free_bytes - 100 * PAGE_SIZE + st2.reclaimed_bytes);
	for (int i = 0; i < 100; i++)
		pmm_free_page(pages[i]);
	pmm_get_stats(&st2);
	assert_int_equal(st2.free_bytes, st2.total_bytes);
	expect_range(1 * MIB, 2 * MIB, 1);
	expect_range(4 * MIB, 5 * MIB, 1);
	assert_int_equal(drain_and_check(), 256 + 256 - st.meta_bytes / PAGE_SIZE);
}

/* Free/alloc round trips: counts return to baseline, reused pages are zeroed,
 * and a freed page comes back first (LIFO keeps caches warm). */
static void test_round_trip(void **state)
{
	static uint64_t pages[2048];
	struct pmm_stats base, st;
	uint64_t p;
	(void)state;

	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 3 * 256);
	pmm_init(&bi);
	pmm_get_stats(&base);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 700; i++) {
			pages[i] = pmm_alloc_page();
			assert_int_not_equal(pages[i], 0);
			memset(ram + pages[i], 0x33 + round, PAGE_SIZE);
		}
		pmm_get_stats(&st);
		assert_int_equal(st.free_bytes, base.free_bytes - 700 * PAGE_SIZE);
		for (int i = 0; i < 700; i += 2)
			pmm_free_page(pages[i]);
		for (int i = 1; i < 700; i += 2)
			pmm_free_page(pages[i]);
		pmm_get_stats(&st);
		assert_int_equal(st.free_bytes, base.free_bytes);
		assert_int_equal(st.total_bytes, base.total_bytes);
	}
	p = pmm_alloc_page();
	assert_int_equal(p, pages[699]);
	for (uint64_t i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(ram[p + i], 0);
	pmm_free_page(p);
	expect_range(1 * MIB, 4 * MIB, 1);
	drain_and_check();
}

/* Bad frees panic with a message saying what was wrong. */
static void test_bad_free(void **state)
{
	uint64_t p;
	(void)state;

	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 256);
	map_add(BOOT_MEM_RESERVED, 2 * MIB, 256);
	map_add(BOOT_MEM_CONVENTIONAL, 3 * MIB, 256);
	pmm_init(&bi);
	p = pmm_alloc_page();
	pmm_free_page(p);
	EXPECT_PANIC(pmm_free_page(p), "double free");
	EXPECT_PANIC(pmm_free_page(0), "not managed");
	EXPECT_PANIC(pmm_free_page(2 * MIB + PAGE_SIZE), "not managed");
	EXPECT_PANIC(pmm_free_page(30 * MIB), "not managed");
	EXPECT_PANIC(pmm_free_page(1ULL << 40), "not managed");
	EXPECT_PANIC(pmm_free_page(p + 8), "not page aligned");
}

/* A write into a freed page (use after free) is caught at the next alloc. */
static void test_use_after_free(void **state)
{
	uint64_t p;
	(void)state;

	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 16);
	pmm_init(&bi);
	p = pmm_alloc_page();
	pmm_free_page(p);
	memset(ram + p, 0, 16);
	EXPECT_PANIC(pmm_alloc_page(), "corrupted");
}

/* Maps the allocator cannot work with are refused with a message. */
static void test_bad_maps(void **state)
{
	(void)state;

	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 16);
	bi.mmap_desc_size = 16;
	EXPECT_PANIC(pmm_init(&bi), "descriptor size");

	map_reset();
	map_add(BOOT_MEM_RESERVED, 0, 4096);
	map_add(BOOT_MEM_CONVENTIONAL, 64 * MIB, 4096);         /* all beyond the direct map */
	EXPECT_PANIC(pmm_init(&bi), "no usable memory");

	map_reset();
	map_add(BOOT_MEM_CONVENTIONAL, 0, 2);                   /* page 1 only */
	map_add(BOOT_MEM_CONVENTIONAL, 1 * MIB, 1);
	map_add(BOOT_MEM_LOADER_DATA, 31 * MIB, 256);
	bi.direct_map_size = 128 * MIB;                         /* nothing is touched */
	map_add(BOOT_MEM_CONVENTIONAL, 100 * MIB, 1);           /* 2 bitmap pages needed */
	EXPECT_PANIC(pmm_init(&bi), "no free run");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_basic_map, setup),
		cmocka_unit_test_setup(test_messy_map, setup),
		cmocka_unit_test_setup(test_many_small_regions, setup),
		cmocka_unit_test_setup(test_reclaim, setup),
		cmocka_unit_test_setup(test_reclaim_after_alloc, setup),
		cmocka_unit_test_setup(test_round_trip, setup),
		cmocka_unit_test_setup(test_bad_free, setup),
		cmocka_unit_test_setup(test_use_after_free, setup),
		cmocka_unit_test_setup(test_bad_maps, setup),
	};

	ram = aligned_alloc(PAGE_SIZE, RAM_SIZE);
	if (!ram)
		return 1;
	mm_host_direct_map_base = (uint64_t)ram;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
