/* SPDX-License-Identifier: BSD-2-Clause */
/* paging.c — the page tables the kernel starts on (4-level, built in
 * LoaderData pages; the kernel replaces them before it reclaims loader
 * memory). They map
 *   - physical [0, N) identity, with 2 MiB pages (the loader keeps running
 *     on them for the few instructions after the CR3 switch),
 *   - the same range at BOOT_DIRECT_MAP_BASE, 2 MiB pages,
 *   - the kernel span at its link address onto its contiguous block, with
 *     4 KiB pages carrying the ELF permissions (W only for writable
 *     segments, NX for all but executable ones),
 * where N = max(4 GiB, end of the highest memory-map descriptor, end of the
 * framebuffer), rounded up to 1 GiB. */
#include <boot/loader.h>
#include <boot/elf.h>

#define PT_PRESENT   (1ull << 0)
#define PT_WRITE     (1ull << 1)
#define PT_LARGE     (1ull << 7)
#define PT_NX        (1ull << 63)
#define PT_ADDR_MASK 0x000ffffffffff000ull
#define SIZE_4K      0x1000ull
#define SIZE_2M      0x200000ull
#define SIZE_1G      0x40000000ull
#define SIZE_512G    0x8000000000ull
#define DIRECT_MAP_MIN  (4ull * SIZE_1G)
#define PHYS_LIMIT      (1ull << 46)  /* 64 TiB: above this a descriptor is nonsense */
#define CR4_LA57        (1ull << 12)
#define CPUID_EXT_NX    (1u << 20)    /* CPUID 0x80000001 EDX */

/* A preallocated run of zeroed 4 KiB pages that tables are taken from. */
struct pt_pool {
	UINT64 next;   /* physical address of the next free page */
	UINTN left;
};

/* Take one zeroed table page, or NULL if the pool is used up. No locks. */
static UINT64 *pt_new_table(struct pt_pool *pool)
{
	UINT64 *t;

	if (pool->left == 0)
		return NULL;
	t = (UINT64 *)(UINTN)pool->next;
	pool->next += SIZE_4K;
	pool->left--;
	return t;
}

/* Map one page of 4 KiB (leaf_shift 12) or 2 MiB (leaf_shift 21) at va to
 * pa with the given leaf flags, creating tables on the way. Fails with
 * EFI_OUT_OF_RESOURCES when the pool is empty and EFI_ALREADY_STARTED when
 * va is already mapped. No locks. */
static EFI_STATUS pt_map(struct pt_pool *pool, UINT64 *pml4, UINT64 va, UINT64 pa, UINT64 flags,
			 UINTN leaf_shift)
{
	UINT64 *table = pml4;
	UINT64 *e;

	for (UINTN shift = 39; shift > leaf_shift; shift -= 9) {
		e = &table[(va >> shift) & 511];
		if (!(*e & PT_PRESENT)) {
			UINT64 *t = pt_new_table(pool);

			if (!t)
				return EFI_OUT_OF_RESOURCES;
			*e = (UINT64)(UINTN)t | PT_PRESENT | PT_WRITE;
		} else if (*e & PT_LARGE) {
			return EFI_ALREADY_STARTED;
		}
		table = (UINT64 *)(UINTN)(*e & PT_ADDR_MASK);
	}
	e = &table[(va >> leaf_shift) & 511];
	if (*e & PT_PRESENT)
		return EFI_ALREADY_STARTED;
	*e = pa | flags | PT_PRESENT | (leaf_shift == 21 ? PT_LARGE : 0);
	return EFI_SUCCESS;
}

/* N: bytes of physical space to map, see the top of this file. Boot
 * services only. */
static EFI_STATUS paging_phys_size(UINT64 fb_end, UINT64 *size)
{
	UINTN entries, key, desc_size;
	UINT32 desc_version;
	EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&entries, &key, &desc_size, &desc_version);
	UINT64 top = DIRECT_MAP_MIN;

	if (!map) {
		log_error(L"the firmware returned no memory map");
		return EFI_DEVICE_ERROR;
	}
	for (UINTN i = 0; i < entries; i++) {
		const EFI_MEMORY_DESCRIPTOR *d =
			(const EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + i * desc_size);
		UINT64 end = d->PhysicalStart + d->NumberOfPages * SIZE_4K;

		if (end > PHYS_LIMIT || end < d->PhysicalStart) {
			log_warn(L"memory map entry 0x%lx (+%ld pages) lies beyond 64 TiB; not mapped",
				 d->PhysicalStart, d->NumberOfPages);
			continue;
		}
		if (end > top)
			top = end;
	}
	FreePool(map);
	if (fb_end > top && fb_end <= PHYS_LIMIT)
		top = fb_end;
	*size = (top + SIZE_1G - 1) & ~(SIZE_1G - 1);
	return EFI_SUCCESS;
}

/* Leaf flags for the kernel page at va: the union of the permissions of
 * the segments touching it; read-only NX for a gap. No locks. */
static UINT64 paging_kernel_flags(const struct kernel_image *k, UINT64 va)
{
	BOOLEAN write = FALSE, exec = FALSE;

	for (UINT32 i = 0; i < k->layout.segment_count; i++) {
		const struct elf_segment *s = &k->layout.segments[i];
		UINT64 start = s->vaddr & ~(SIZE_4K - 1);
		UINT64 end = (s->vaddr + s->memsz + SIZE_4K - 1) & ~(SIZE_4K - 1);

		if (va < start || va >= end)
			continue;
		write |= (s->flags & ELF_PF_W) != 0;
		exec |= (s->flags & ELF_PF_X) != 0;
	}
	return (write ? PT_WRITE : 0) | (exec ? 0 : PT_NX);
}

/* Fail unless the CPU runs 4-level paging and has NX. Boot services only. */
static EFI_STATUS paging_check_cpu(void)
{
	UINT64 cr4;
	UINT32 eax = 0x80000001u, ebx, ecx = 0, edx;

	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	if (cr4 & CR4_LA57) {
		log_error(L"the firmware runs with 5-level paging; this loader builds 4-level "
			  L"tables (disable 5-level paging in the firmware setup)");
		return EFI_UNSUPPORTED;
	}
	__asm__ volatile("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));
	if (!(edx & CPUID_EXT_NX)) {
		log_error(L"the CPU has no NX (execute-disable) bit, which the kernel needs");
		return EFI_UNSUPPORTED;
	}
	return EFI_SUCCESS;
}

/* Build the tables described at the top of this file; *cr3 gets the PML4's
 * physical address and *direct_map_size N. Boot services only. */
EFI_STATUS paging_build(const struct kernel_image *kernel, UINT64 fb_end, UINT64 *cr3,
			UINT64 *direct_map_size)
{
	struct pt_pool pool;
	EFI_PHYSICAL_ADDRESS tables;
	UINT64 n, span = kernel->layout.virt_end - kernel->layout.virt_base;
	UINT64 *pml4;
	EFI_STATUS status;

	status = paging_check_cpu();
	if (EFI_ERROR(status))
		return status;
	status = paging_phys_size(fb_end, &n);
	if (EFI_ERROR(status))
		return status;
	if (kernel->layout.virt_base < BOOT_DIRECT_MAP_BASE + n) {
		log_error(L"the kernel at 0x%lx lies inside the direct map 0x%lx..0x%lx; "
			  L"link it higher", kernel->layout.virt_base, BOOT_DIRECT_MAP_BASE,
			  BOOT_DIRECT_MAP_BASE + n);
		return EFI_LOAD_ERROR;
	}
	/* PML4 + twice (PDPTs + PDs) for the 2 MiB maps + the kernel's PTs
	 * (one per 2 MiB, +1 for a straddle) and at most two PDs and PDPTs. */
	pool.left = 1 + 2 * ((n + SIZE_512G - 1) / SIZE_512G + n / SIZE_1G) + span / SIZE_2M + 6;
	status = mem_alloc_pages(EfiLoaderData, pool.left * SIZE_4K, L"the page tables", &tables);
	if (EFI_ERROR(status))
		return status;
	pool.next = tables;
	pml4 = pt_new_table(&pool);
	for (UINT64 pa = 0; pa < n && !EFI_ERROR(status); pa += SIZE_2M) {
		status = pt_map(&pool, pml4, pa, pa, PT_WRITE, 21);
		if (!EFI_ERROR(status))
			status = pt_map(&pool, pml4, BOOT_DIRECT_MAP_BASE + pa, pa, PT_WRITE, 21);
	}
	for (UINT64 off = 0; off < span && !EFI_ERROR(status); off += SIZE_4K)
		status = pt_map(&pool, pml4, kernel->layout.virt_base + off, kernel->phys_base + off,
				paging_kernel_flags(kernel, kernel->layout.virt_base + off), 12);
	if (EFI_ERROR(status)) {
		log_error(L"building the page tables failed (%r): the kernel's addresses collide "
			  L"with the direct map or the table estimate is wrong", status);
		return EFI_LOAD_ERROR;
	}
	*cr3 = (UINT64)(UINTN)pml4;
	*direct_map_size = n;
	log_info(L"page tables: %ld MiB direct map, %ld of %ld table pages used", n >> 20,
		 (pool.next - tables) / SIZE_4K, (pool.next - tables) / SIZE_4K + pool.left);
	return EFI_SUCCESS;
}
