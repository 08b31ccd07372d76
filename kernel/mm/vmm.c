/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vmm.c — the kernel's own page tables and the MMIO window.
 *
 * vmm_init() builds one PML4 whose upper half is fixed from then on: all 256
 * upper-half entries get their page-directory-pointer table at once, so any
 * other page table that copies those entries (vmm_make_identity_cr3(), later
 * address spaces) sees every later kernel mapping. The lower half is empty.
 */
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <kern/panic.h>
#include <kern/printk.h>
#include <mm/mm_lock.h>
#include <mm/vmm_pt.h>

static struct spinlock vmm_lock = SPINLOCK_INIT("vmm");

#define CR0_WP        (1ULL << 16)
#define MSR_PAT       0x277u
/* PAT entries 0..7: WB, WC, UC-, UC, WB, WC, UC-, UC (entries 1 and 5 turn
 * from the reset value write-through into write-combining). */
#define PAT_VALUE     0x0007010600070106ULL

extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __data_end[], __ksyms_start[], __ksyms_end[];
extern char __kernel_start[];

static uint64_t kernel_root;
static uint64_t mmio_next = MM_MMIO_BASE;

/* Panic with a clear message if the kernel page tables do not exist yet:
 * any edit would otherwise go to physical page 0. */
static void vmm_require_init(const char *who)
{
	if (!kernel_root)
		panic("%s called before vmm_init()", who);
}

/* Map the image pages covering [start, end) at their loaded physical place.
 * Boot-time. */
static void vmm_map_image(const struct boot_info *bi, const char *start, const char *end,
			  uint64_t flags)
{
	for (uint64_t va = PAGE_ROUND_DOWN((uint64_t)start); va < PAGE_ROUND_UP((uint64_t)end);
	     va += PAGE_SIZE) {
		uint64_t off = va - bi->kernel_virt_base;

		if (va < bi->kernel_virt_base || off >= bi->kernel_size)
			panic("vmm: kernel page 0x%lx lies outside the loaded image (%lu bytes)",
			      va, bi->kernel_size);
		if (pt_map(kernel_root, va, bi->kernel_phys_base + off, flags) != 0)
			panic("vmm: cannot map kernel page 0x%lx", va);
	}
}

/* This CPU's paging controls: supervisor writes honour read-only pages,
 * NX bits are legal, PAT entry 1 is write-combining. */
static void vmm_cpu_setup(void)
{
	write_cr0(read_cr0() | CR0_WP);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	wrmsr(MSR_PAT, PAT_VALUE);
}

/* See mm.h. */
void vmm_init(const struct boot_info *bi)
{
	uint64_t *pml4;

	if (bi->kernel_virt_base != (uint64_t)__kernel_start)
		panic("vmm: loader put the kernel at 0x%lx, it is linked at %p",
		      bi->kernel_virt_base, (void *)__kernel_start);
	if (bi->direct_map_size == 0 || bi->direct_map_size > MM_DIRECT_MAP_END - MM_DIRECT_MAP_BASE)
		panic("vmm: direct map size 0x%lx is out of range", bi->direct_map_size);
	kernel_root = pmm_alloc_page();
	if (!kernel_root)
		panic("vmm: no page for the kernel PML4");
	pml4 = phys_to_virt(kernel_root);
	for (unsigned i = PT_KERNEL_HALF; i < 512; i++) {
		uint64_t pdpt = pmm_alloc_page();

		if (!pdpt)
			panic("vmm: no page for the kernel page tables");
		pml4[i] = pdpt | PTE_P | PTE_W;
	}

	/* The first 2 MiB holds ranges of different cache types (legacy video
	 * memory, option ROMs); keep large pages out of it. */
	for (uint64_t pa = 0; pa < PT_LARGE && pa < bi->direct_map_size; pa += PAGE_SIZE)
		if (pt_map(kernel_root, MM_DIRECT_MAP_BASE + pa, pa, PTE_W | PTE_NX) != 0)
			panic("vmm: no page for the direct map's page tables");
	pt_map_range(kernel_root, MM_DIRECT_MAP_BASE, 0, PAGE_ROUND_UP(bi->direct_map_size),
		     PTE_W | PTE_NX);
	vmm_map_image(bi, __text_start, __text_end, 0);
	vmm_map_image(bi, __rodata_start, __rodata_end, PTE_NX);
	vmm_map_image(bi, __data_start, __data_end, PTE_W | PTE_NX);
	vmm_map_image(bi, __ksyms_start, __ksyms_end, PTE_NX);

	vmm_cpu_setup();
	write_cr3(kernel_root);
	printk("vmm: kernel page tables at 0x%lx, direct map %lu MiB, lower half unmapped\n",
	       kernel_root, bi->direct_map_size >> 20);
}

/* See mm.h. */
void vmm_init_ap(void)
{
	vmm_require_init(__func__);
	vmm_cpu_setup();
	write_cr3(kernel_root);
}

/* PTE flags for VMM_* flags. */
static uint64_t vmm_pte_flags(unsigned flags)
{
	return ((flags & VMM_WRITE) ? PTE_W : 0) | ((flags & VMM_EXEC) ? 0 : PTE_NX);
}

/* See mm.h. */
int vmm_map_page(uint64_t virt, uint64_t phys, unsigned flags)
{
	uint64_t irq;
	int r;

	vmm_require_init(__func__);
	if (virt < MM_DIRECT_MAP_BASE || virt % PAGE_SIZE || phys % PAGE_SIZE || phys & ~PTE_ADDR)
		return -1;
	irq = mm_lock(&vmm_lock);
	r = pt_map(kernel_root, virt, phys, vmm_pte_flags(flags));
	mm_unlock(&vmm_lock, irq);
	return r;
}

/* See mm.h. Page-table pages stay in place even when they become empty. */
uint64_t vmm_unmap_page(uint64_t virt)
{
	uint64_t irq, phys = 0;
	uint64_t *pte;

	vmm_require_init(__func__);
	irq = mm_lock(&vmm_lock);
	pte = pt_entry(kernel_root, virt, 1, 0);
	if (pte && (*pte & PTE_P)) {
		phys = *pte & PTE_ADDR;
		*pte = 0;
		invlpg(virt);
	}
	mm_unlock(&vmm_lock, irq);
	return phys;
}

/* See mm.h. No lock: page-table pages are never freed. */
uint64_t vmm_translate(uint64_t virt)
{
	vmm_require_init(__func__);
	return pt_translate(kernel_root, virt);
}

/* See mm.h. */
uint64_t vmm_table_bytes(void)
{
	uint64_t irq = mm_lock(&vmm_lock);
	uint64_t n = pt_tables();
	mm_unlock(&vmm_lock, irq);
	return n * PAGE_SIZE;
}

/* See mm.h. */
uint64_t vmm_kernel_cr3(void)
{
	return kernel_root;
}

/* See mm.h. Each mapping gets fresh virtual space followed by an unmapped
 * page; ranges of 2 MiB or more start at the same offset in a 2 MiB frame
 * as phys, so that large pages can map them. */
void *vmm_map_mmio(uint64_t phys, size_t size, int wc)
{
	uint64_t start = PAGE_ROUND_DOWN(phys);
	uint64_t end = phys + size;
	uint64_t irq, bytes, va;

	vmm_require_init(__func__);
	if (size == 0 || end < phys || end > (1ULL << 52))
		panic("vmm_map_mmio: bad range 0x%lx + 0x%zx", phys, size);
	bytes = PAGE_ROUND_UP(end) - start;
	irq = mm_lock(&vmm_lock);
	va = mmio_next;
	if (bytes >= PT_LARGE)
		va = ((va + PT_LARGE - 1) & ~(PT_LARGE - 1)) + start % PT_LARGE;
	if (va > MM_MMIO_END || bytes + PAGE_SIZE > MM_MMIO_END - va)
		panic("vmm_map_mmio: MMIO window full mapping 0x%lx + 0x%zx", phys, size);
	mmio_next = va + bytes + PAGE_SIZE;
	pt_map_range(kernel_root, va, start, bytes, PTE_W | PTE_NX | (wc ? PTE_CACHE_WC : PTE_CACHE_UC));
	mm_unlock(&vmm_lock, irq);
	return (void *)(va + (phys - start));
}
