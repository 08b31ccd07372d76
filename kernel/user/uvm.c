/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uvm.c — a process's page tables (see uvm.h).
 *
 * Each process has its own 4-level page tables. The upper 256 PML4 entries
 * are copied from the kernel's, whose upper half never changes after
 * vmm_init() (docs/memory.md), so every address space shares the kernel
 * without copying more. User pages carry U/S at every level, NX unless the
 * program's segment is executable, W only where writable; the kernel never
 * maps a page both. The layout is ulayout.h's.
 *
 * A page leaves an address space only through uvm_unmap_locked(): its
 * entry is first marked not present (the address kept in it), then every
 * CPU that runs on these page tables drops its TLB entries
 * (user_cpu_flush_tlb()), and only then does the page go back to the
 * allocator — no CPU can reach a page that another owner may already use.
 */
#include <user/uvm.h>
#include <user/ulayout.h>
#include <user/ulimit.h>
#include <mosaic/syscall.h>
#include <mm/mm.h>
#include <kern/panic.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/cpu/user_cpu.h>

#define PTE_P    (1ull << 0)
#define PTE_W    (1ull << 1)
#define PTE_U    (1ull << 2)
#define PTE_NX   (1ull << 63)
#define PTE_ADDR 0x000FFFFFFFFFF000ull
#define PML4_USER_ENTRIES 256

static uint64_t *uvm_table(uint64_t phys)
{
	return phys_to_virt(phys);
}

static unsigned uvm_index(uint64_t va, int level)
{
	return (va >> (12 + 9 * (level - 1))) & 511;
}

/* A zeroed page charged to vm: its physical address, or 0 with *err set
 * (ERR_LIMIT, ERR_QUOTA, ERR_NOSPC, ERR_NOMEM). */
static uint64_t uvm_page_alloc(struct uvm *vm, int *err)
{
	int rc = ulimit_charge(UL_PAGES, vm->job, &vm->pages, 1);
	if (rc) {
		*err = rc;
		return 0;
	}
	uint64_t page = pmm_alloc_page();
	if (!page) {
		ulimit_uncharge(UL_PAGES, vm->job, &vm->pages, 1);
		*err = ERR_NOMEM;
	}
	return page;
}

/* Frees a page of vm and uncharges it. */
static void uvm_page_free(struct uvm *vm, uint64_t phys)
{
	pmm_free_page(phys);
	ulimit_uncharge(UL_PAGES, vm->job, &vm->pages, 1);
}

/* See uvm.h. */
int uvm_init(struct uvm *vm, struct ujob *job)
{
	memset(vm, 0, sizeof(*vm));
	vm->job = job;
	int err = 0;
	vm->pml4 = uvm_page_alloc(vm, &err);
	if (!vm->pml4)
		return err;
	const uint64_t *kernel = uvm_table(vmm_kernel_cr3());
	uint64_t *pml4 = uvm_table(vm->pml4);
	for (unsigned i = PML4_USER_ENTRIES; i < 512; i++)
		pml4[i] = kernel[i];
	vm->stack_next = USER_STACK_TOP;
	mutex_init_fair(&vm->lock, "uvm");   /* threads mapping and unmapping take turns */
	return 0;
}

/* The page-table entry of va, creating missing tables when create (NULL
 * when one is missing, or a new one cannot be had: *err says why). Caller
 * holds vm->lock when create. */
static uint64_t *uvm_pte(struct uvm *vm, uint64_t va, int create, int *err)
{
	uint64_t table = vm->pml4;
	for (int level = 4; level > 1; level--) {
		uint64_t *e = &uvm_table(table)[uvm_index(va, level)];
		if (!(*e & PTE_P)) {
			uint64_t page = create ? uvm_page_alloc(vm, err) : 0;
			if (!page)
				return NULL;
			*e = page | PTE_P | PTE_W | PTE_U;
		}
		table = *e & PTE_ADDR;
	}
	return &uvm_table(table)[uvm_index(va, 1)];
}

/* The page-table entry of va, or NULL when a table above it is missing;
 * *next is the next address whose entry may exist: the next page, or the
 * end of the range the missing table would map. vm->lock held. */
static uint64_t *uvm_pte_next(struct uvm *vm, uint64_t va, uint64_t *next)
{
	uint64_t table = vm->pml4;
	for (int level = 4; level > 1; level--) {
		uint64_t e = uvm_table(table)[uvm_index(va, level)];
		if (!(e & PTE_P)) {
			uint64_t span = USER_PAGE << (9 * (level - 1));
			*next = (va & ~(span - 1)) + span;
			return NULL;
		}
		table = e & PTE_ADDR;
	}
	*next = va + USER_PAGE;
	return &uvm_table(table)[uvm_index(va, 1)];
}

/* See uvm.h. */
int uvm_map_zero_locked(struct uvm *vm, uint64_t va, uint64_t bytes, unsigned prot)
{
	uint64_t flags = PTE_P | PTE_U | ((prot & UVM_WRITE) ? PTE_W : 0) |
			 ((prot & UVM_EXEC) ? 0 : PTE_NX);
	KASSERT(va % USER_PAGE == 0 && bytes % USER_PAGE == 0 && va <= USER_TOP &&
		bytes <= USER_TOP - va && !((prot & UVM_WRITE) && (prot & UVM_EXEC)),
		"uvm: bad mapping %lx+%lx", va, bytes);
	int err = 0;
	for (uint64_t off = 0; off < bytes; off += USER_PAGE) {
		uint64_t *pte = uvm_pte(vm, va + off, 1, &err);
		if (!pte)
			return err;
		if (*pte & PTE_P)
			continue;   /* a page two segments with the same permissions share */
		uint64_t page = uvm_page_alloc(vm, &err);
		if (!page)
			return err;
		*pte = page | flags;
	}
	return 0;
}

/* See uvm.h. */
int uvm_map_zero(struct uvm *vm, uint64_t va, uint64_t bytes, unsigned prot)
{
	mutex_lock(&vm->lock);
	int rc = uvm_map_zero_locked(vm, va, bytes, prot);
	mutex_unlock(&vm->lock);
	return rc;
}

/* See uvm.h. Two passes over the range: the first marks each mapped entry
 * not present, keeping its address (a not-present entry with an address
 * exists only inside this call); after the TLB flush the second frees
 * those pages and clears the entries. A missing table skips the range it
 * would map, so a pass costs the tables there are, not a step per page
 * of the range (SYS_VM_UNMAP may name the whole map area). */
void uvm_unmap_locked(struct uvm *vm, uint64_t va, uint64_t bytes)
{
	uint64_t marked = 0, end = va + bytes, next;
	for (uint64_t a = va; a < end; a = next) {
		uint64_t *pte = uvm_pte_next(vm, a, &next);
		if (pte && (*pte & PTE_P)) {
			*pte &= ~PTE_P;
			marked++;
		}
	}
	if (!marked)
		return;
	int flushed = user_cpu_flush_tlb(vm->pml4) == 0;
	if (!flushed)
		printk("uvm: a CPU did not flush its TLB; %lu pages are kept out of use\n", marked);
	for (uint64_t a = va; a < end; a = next) {
		uint64_t *pte = uvm_pte_next(vm, a, &next);
		if (!pte || (*pte & PTE_P) || !(*pte & PTE_ADDR))
			continue;
		if (flushed)
			pmm_free_page(*pte & PTE_ADDR);
		ulimit_uncharge(UL_PAGES, vm->job, &vm->pages, 1);
		*pte = 0;
	}
}

/* See uvm.h. Through the direct map: no user address is dereferenced. */
int uvm_write(struct uvm *vm, uint64_t va, const void *src, uint64_t n)
{
	const uint8_t *s = src;
	int rc = 0;
	mutex_lock(&vm->lock);
	while (n && !rc) {
		uint64_t off = va % USER_PAGE, chunk = USER_PAGE - off < n ? USER_PAGE - off : n;
		uint64_t *pte = va < USER_TOP ? uvm_pte(vm, va, 0, NULL) : NULL;
		if (!pte || !(*pte & PTE_P)) {
			rc = ERR_FAULT;
			break;
		}
		memcpy((uint8_t *)uvm_table(*pte & PTE_ADDR) + off, s, chunk);
		va += chunk;
		s += chunk;
		n -= chunk;
	}
	mutex_unlock(&vm->lock);
	return rc;
}

/* Frees the table at phys of the given level and everything below it. */
static void uvm_free_table(struct uvm *vm, uint64_t phys, int level)
{
	uint64_t *t = uvm_table(phys);
	for (unsigned i = 0; i < 512; i++) {
		if (!(t[i] & PTE_P))
			continue;
		if (level > 1)
			uvm_free_table(vm, t[i] & PTE_ADDR, level - 1);
		else
			uvm_page_free(vm, t[i] & PTE_ADDR);
	}
	uvm_page_free(vm, phys);
}

/* See uvm.h. No CPU runs on these tables any more (every thread of the
 * space has switched away for good), so nothing needs a TLB flush. */
void uvm_free(struct uvm *vm)
{
	uint64_t *pml4 = uvm_table(vm->pml4);
	for (unsigned i = 0; i < PML4_USER_ENTRIES; i++)
		if (pml4[i] & PTE_P)
			uvm_free_table(vm, pml4[i] & PTE_ADDR, 3);
	uvm_page_free(vm, vm->pml4);
	KASSERT(vm->pages == 0, "uvm: %u pages unaccounted after freeing", vm->pages);
	uvm_regions_free(vm);
	uvm_stacks_free(vm);
	vm->pml4 = 0;
}
