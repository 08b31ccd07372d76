/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pmm.c — physical page allocator.
 *
 * Two bitmaps indexed by page frame number say which pages the pool manages
 * and which of those are free. Free pages are also chained into a singly
 * linked list through the pages themselves (reached via the direct map), so
 * alloc and free are O(1). A free page holds { next free page, cookie }; the
 * cookie depends on the page's address, and alloc checks it and the bitmaps,
 * so a write into a freed page or a broken chain panics instead of spreading.
 *
 * The bitmaps cover every page up to the end of the highest usable or
 * reclaimable descriptor (but not past the direct map) and are carved out of
 * the first conventional run big enough for them.
 */
#include <mm/mm.h>
#include <kern/panic.h>
#include <lib/string.h>
#include <mm/mm_lock.h>
#include <mm/fail_nth.h>
#include <mm/pmm_map.h>

static struct spinlock pmm_lock = SPINLOCK_INIT("pmm");

#define PMM_FREE_COOKIE 0x5a17f4ee9b3c6d01ULL
/* page 0, kernel, boot info, memory map, bitmaps, one per module */
#define PMM_KEEP_MAX (5 + BOOT_MODULES_MAX)

static struct {
	uint64_t *managed;        /* bit set: the page belongs to the pool */
	uint64_t *free;           /* bit set: the page is on the free list */
	uint64_t npages;          /* page frames the bitmaps cover */
	uint64_t free_head;       /* physical address of the first free page, 0 if none */
	uint64_t managed_pages;
	uint64_t free_pages;
	uint64_t reclaimed_pages;
	uint64_t reserved_bytes;
	uint64_t kernel_bytes;
	uint64_t meta_bytes;
	struct pmm_range keep[PMM_KEEP_MAX];
	unsigned nkeep;
} pmm;

static int bit_test(const uint64_t *map, uint64_t pfn)
{
	return (map[pfn / 64] >> (pfn % 64)) & 1;
}

static void bit_set(uint64_t *map, uint64_t pfn)
{
	map[pfn / 64] |= 1ULL << (pfn % 64);
}

static void bit_clear(uint64_t *map, uint64_t pfn)
{
	map[pfn / 64] &= ~(1ULL << (pfn % 64));
}

/* a + b, or UINT64_MAX if that wraps. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Never hand out [start, start+size), rounded out to whole pages. */
static void pmm_keep(uint64_t start, uint64_t size)
{
	uint64_t end = add_sat(start, size);

	if (pmm.nkeep == PMM_KEEP_MAX)
		panic("pmm: too many reserved ranges");
	pmm.keep[pmm.nkeep].start = PAGE_ROUND_DOWN(start);
	pmm.keep[pmm.nkeep].end = end > ~(PAGE_SIZE - 1) ? ~(PAGE_SIZE - 1) : PAGE_ROUND_UP(end);
	pmm.nkeep++;
}

/* Push a page the caller owns onto the free list. Caller holds the pmm lock. */
static void pmm_push(uint64_t phys)
{
	uint64_t *page = phys_to_virt(phys);

	page[0] = pmm.free_head;
	page[1] = phys ^ PMM_FREE_COOKIE;
	bit_set(pmm.free, phys / PAGE_SIZE);
	pmm.free_head = phys;
	pmm.free_pages++;
}

/* Add every page that `usable` allows and the pool does not manage yet.
 * Returns how many pages were added. Caller holds the pmm lock. */
static uint64_t pmm_add_usable(const struct boot_info *bi, enum pmm_usable usable)
{
	struct pmm_map m;
	uint64_t added = 0;
	uint64_t limit = pmm.npages * PAGE_SIZE;

	pmm_map_open(&m, bi, pmm.keep, pmm.nkeep);
	for (uint64_t i = 0; i < m.count; i++) {
		const struct boot_mem_desc *d = pmm_map_desc(&m, i);
		struct pmm_range r = pmm_desc_range(d, 1);
		uint64_t gap_end;

		if (!pmm_type_usable(d->type, usable))
			continue;
		if (r.end > limit)
			r.end = limit;
		while (r.start < r.end && pmm_map_next_gap(&m, usable, &r.start, r.end, &gap_end)) {
			for (uint64_t p = r.start; p < gap_end; p += PAGE_SIZE) {
				if (bit_test(pmm.managed, p / PAGE_SIZE))
					continue;
				bit_set(pmm.managed, p / PAGE_SIZE);
				pmm.managed_pages++;
				pmm_push(p);
				added++;
			}
			r.start = gap_end;
		}
	}
	return added;
}

/* Number of page frames the bitmaps must cover: up to the end of the highest
 * usable or reclaimable descriptor, clipped to the direct map. */
static uint64_t pmm_span_pages(const struct boot_info *bi)
{
	struct pmm_map m;
	uint64_t reach = PAGE_ROUND_DOWN(bi->direct_map_size);
	uint64_t top = 0;

	pmm_map_open(&m, bi, NULL, 0);
	for (uint64_t i = 0; i < m.count; i++) {
		const struct boot_mem_desc *d = pmm_map_desc(&m, i);
		struct pmm_range r = pmm_desc_range(d, 1);

		if (!pmm_type_usable(d->type, PMM_USABLE_WITH_BOOT))
			continue;
		if (r.end > reach)
			r.end = reach;
		if (r.start < r.end && r.end > top)
			top = r.end;
	}
	return top / PAGE_SIZE;
}

/* Physical address of `bytes` (page multiple) of conventional memory that
 * nothing else claims, for the bitmaps; panics if there is no such run. */
static uint64_t pmm_find_meta(const struct boot_info *bi, uint64_t bytes)
{
	struct pmm_map m;
	uint64_t limit = pmm.npages * PAGE_SIZE;

	pmm_map_open(&m, bi, pmm.keep, pmm.nkeep);
	for (uint64_t i = 0; i < m.count; i++) {
		const struct boot_mem_desc *d = pmm_map_desc(&m, i);
		struct pmm_range r = pmm_desc_range(d, 1);
		uint64_t gap_end;

		if (!pmm_type_usable(d->type, PMM_USABLE_CONVENTIONAL))
			continue;
		if (r.end > limit)
			r.end = limit;
		while (r.start < r.end && pmm_map_next_gap(&m, PMM_USABLE_CONVENTIONAL,
							    &r.start, r.end, &gap_end)) {
			if (gap_end - r.start >= bytes)
				return r.start;
			r.start = gap_end;
		}
	}
	panic("pmm: no free run of %lu bytes for the page bitmaps", bytes);
}

/* Sum the sizes of firmware and OS-typed descriptors into the statistics. */
static void pmm_count_reserved(const struct boot_info *bi)
{
	struct pmm_map m;

	pmm_map_open(&m, bi, NULL, 0);
	for (uint64_t i = 0; i < m.count; i++) {
		const struct boot_mem_desc *d = pmm_map_desc(&m, i);
		struct pmm_range r = pmm_desc_range(d, 0);

		if (pmm_type_usable(d->type, PMM_USABLE_WITH_BOOT))
			continue;
		if (pmm_type_os(d->type))
			pmm.kernel_bytes += r.end - r.start;
		else
			pmm.reserved_bytes += r.end - r.start;
	}
}

/* See mm.h. Resets all allocator state, so it may run again (host tests). */
void pmm_init(const struct boot_info *bi)
{
	uint64_t words, meta, base;

	memset(&pmm, 0, sizeof(pmm));
	pmm_keep(0, PAGE_SIZE);
	pmm_keep(bi->kernel_phys_base, bi->kernel_size);
	if (virt_to_phys(bi) < bi->direct_map_size)     /* bi may be a copy elsewhere */
		pmm_keep(virt_to_phys(bi), sizeof(*bi));
	pmm_keep(bi->mmap_phys, bi->mmap_size);
	for (uint32_t i = 0; i < bi->module_count && i < BOOT_MODULES_MAX; i++)
		pmm_keep(bi->modules[i].phys, bi->modules[i].size);

	pmm.npages = pmm_span_pages(bi);
	if (pmm.npages == 0)
		panic("pmm: the memory map has no usable memory below 0x%lx",
		      bi->direct_map_size);
	words = (pmm.npages + 63) / 64;
	meta = PAGE_ROUND_UP(2 * words * sizeof(uint64_t));
	base = pmm_find_meta(bi, meta);
	pmm_keep(base, meta);
	pmm.meta_bytes = meta;
	pmm.managed = phys_to_virt(base);
	pmm.free = pmm.managed + words;
	memset(pmm.managed, 0, 2 * words * sizeof(uint64_t));

	pmm_count_reserved(bi);
	pmm_add_usable(bi, PMM_USABLE_CONVENTIONAL);
}

/* See mm.h. Running it twice adds nothing the second time. */
void pmm_reclaim_boot_memory(const struct boot_info *bi)
{
	uint64_t flags = mm_lock(&pmm_lock);

	pmm.reclaimed_pages += pmm_add_usable(bi, PMM_USABLE_WITH_BOOT);
	mm_unlock(&pmm_lock, flags);
}

/* See mm.h. The page is zeroed after leaving the critical section. */
uint64_t pmm_alloc_page(void)
{
	if (fail_nth_now())
		return 0;
	uint64_t flags = mm_lock(&pmm_lock);
	uint64_t phys = pmm.free_head;

	if (phys) {
		uint64_t *page = phys_to_virt(phys);
		uint64_t pfn = phys / PAGE_SIZE;

		if (phys % PAGE_SIZE || pfn >= pmm.npages || !bit_test(pmm.managed, pfn) ||
		    !bit_test(pmm.free, pfn) || page[1] != (phys ^ PMM_FREE_COOKIE))
			panic("pmm: free list corrupted at page 0x%lx (written after free?)", phys);
		pmm.free_head = page[0];
		bit_clear(pmm.free, pfn);
		pmm.free_pages--;
	}
	mm_unlock(&pmm_lock, flags);
	if (phys)
		memset(phys_to_virt(phys), 0, PAGE_SIZE);
	return phys;
}

/* 1 when the n pages from pfn on are all managed and free. Caller holds
 * the pmm lock. */
static int pmm_run_free(uint64_t pfn, uint64_t n)
{
	for (uint64_t i = pfn; i < pfn + n; i++)
		if (i >= pmm.npages || !bit_test(pmm.managed, i) || !bit_test(pmm.free, i))
			return 0;
	return 1;
}

/* See mm.h. One walk of the whole free list unlinks the run, since the
 * list is not ordered by address. */
uint64_t pmm_alloc_low(uint64_t pages, uint64_t below)
{
	uint64_t flags = mm_lock(&pmm_lock);
	uint64_t first = 0;

	for (uint64_t pfn = 1; pages && (pfn + pages) * PAGE_SIZE <= below; pfn++) {
		if (pmm_run_free(pfn, pages)) {
			first = pfn;
			break;
		}
	}
	if (first) {
		uint64_t lo = first * PAGE_SIZE, hi = (first + pages) * PAGE_SIZE;
		uint64_t *link = &pmm.free_head;

		while (*link) {
			uint64_t *page = phys_to_virt(*link);

			if (*link >= lo && *link < hi)
				*link = page[0];
			else
				link = &page[0];
		}
		for (uint64_t i = first; i < first + pages; i++)
			bit_clear(pmm.free, i);
		pmm.free_pages -= pages;
	}
	mm_unlock(&pmm_lock, flags);
	if (first)
		memset(phys_to_virt(first * PAGE_SIZE), 0, pages * PAGE_SIZE);
	return first * PAGE_SIZE;
}

/* See mm.h. */
void pmm_free_page(uint64_t phys)
{
	uint64_t pfn = phys / PAGE_SIZE;
	uint64_t flags;

	if (phys % PAGE_SIZE)
		panic("pmm_free_page: 0x%lx is not page aligned", phys);
	flags = mm_lock(&pmm_lock);
	if (pfn >= pmm.npages || !bit_test(pmm.managed, pfn))
		panic("pmm_free_page: page 0x%lx is not managed by the page allocator", phys);
	if (bit_test(pmm.free, pfn))
		panic("pmm_free_page: double free of page 0x%lx", phys);
	pmm_push(phys);
	mm_unlock(&pmm_lock, flags);
}

/* See mm.h. */
void pmm_get_stats(struct pmm_stats *out)
{
	uint64_t flags = mm_lock(&pmm_lock);

	out->total_bytes = pmm.managed_pages * PAGE_SIZE;
	out->free_bytes = pmm.free_pages * PAGE_SIZE;
	out->reserved_bytes = pmm.reserved_bytes;
	out->reclaimed_bytes = pmm.reclaimed_pages * PAGE_SIZE;
	out->kernel_bytes = pmm.kernel_bytes;
	out->meta_bytes = pmm.meta_bytes;
	mm_unlock(&pmm_lock, flags);
}
