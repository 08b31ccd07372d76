/*
 * uvm.c — a process's address space (docs/userland.md, "Address spaces").
 *
 * Each process has its own 4-level page tables. The upper 256 PML4 entries
 * are copied from the kernel's, whose upper half never changes after
 * vmm_init() (docs/memory.md), so every address space shares the kernel
 * without copying more. User pages carry U/S at every level, NX unless the
 * program's segment is executable, W only where writable; the kernel never
 * maps a page both. The layout is ulayout.h's.
 *
 * Pages are only ever added while a process lives; nothing is unmapped
 * before the process is gone. So no other CPU can hold a stale TLB entry
 * for a page that went back to the allocator (there is no TLB shootdown to
 * do): a thread's stack goes back to the process's own pool for its next
 * thread, and the whole space is freed once no thread of it runs on any
 * CPU (user_cpu_switch() loads another CR3 at every switch away from it).
 */
#include "uproc.h"
#include "ulayout.h"
#include <mm.h>
#include <panic.h>
#include <string.h>

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

/* See uproc.h. */
int uvm_init(struct uvm *vm)
{
	memset(vm, 0, sizeof(*vm));
	vm->pml4 = pmm_alloc_page();
	if (!vm->pml4)
		return ERR_NOMEM;
	const uint64_t *kernel = uvm_table(vmm_kernel_cr3());
	uint64_t *pml4 = uvm_table(vm->pml4);
	for (unsigned i = PML4_USER_ENTRIES; i < 512; i++)
		pml4[i] = kernel[i];
	vm->pages = 1;
	vm->map_next = USER_MAP_BASE;
	vm->stack_next = USER_STACK_TOP;
	mutex_init(&vm->lock, "uvm");
	return 0;
}

/* The page-table entry of va, creating missing tables when create (NULL
 * when one is missing, or no page or no allowance is left for a new one).
 * Caller holds vm->lock when create. */
static uint64_t *uvm_pte(struct uvm *vm, uint64_t va, int create)
{
	uint64_t table = vm->pml4;
	for (int level = 4; level > 1; level--) {
		uint64_t *e = &uvm_table(table)[uvm_index(va, level)];
		if (!(*e & PTE_P)) {
			if (!create || vm->pages >= USER_PAGES_MAX)
				return NULL;
			uint64_t page = pmm_alloc_page();
			if (!page)
				return NULL;
			vm->pages++;
			*e = page | PTE_P | PTE_W | PTE_U;
		}
		table = *e & PTE_ADDR;
	}
	return &uvm_table(table)[uvm_index(va, 1)];
}

/* uvm_map_zero() with vm->lock held. */
static int uvm_map_zero_locked(struct uvm *vm, uint64_t va, uint64_t bytes, unsigned prot)
{
	uint64_t flags = PTE_P | PTE_U | ((prot & UVM_WRITE) ? PTE_W : 0) |
			 ((prot & UVM_EXEC) ? 0 : PTE_NX);
	KASSERT(va % USER_PAGE == 0 && bytes % USER_PAGE == 0 && va + bytes <= USER_TOP &&
		!((prot & UVM_WRITE) && (prot & UVM_EXEC)), "uvm: bad mapping %lx+%lx", va, bytes);
	for (uint64_t off = 0; off < bytes; off += USER_PAGE) {
		uint64_t *pte = uvm_pte(vm, va + off, 1);
		if (!pte)
			return ERR_NOMEM;
		if (*pte & PTE_P)
			continue;   /* a page two segments with the same permissions share */
		uint64_t page = vm->pages < USER_PAGES_MAX ? pmm_alloc_page() : 0;
		if (!page)
			return ERR_NOMEM;
		vm->pages++;
		*pte = page | flags;
	}
	return 0;
}

/* See uproc.h. Pages already mapped are left as they are. */
int uvm_map_zero(struct uvm *vm, uint64_t va, uint64_t bytes, unsigned prot)
{
	mutex_lock(&vm->lock);
	int rc = uvm_map_zero_locked(vm, va, bytes, prot);
	mutex_unlock(&vm->lock);
	return rc;
}

/* See uproc.h. Through the direct map: no user address is dereferenced. */
int uvm_write(struct uvm *vm, uint64_t va, const void *src, uint64_t n)
{
	const uint8_t *s = src;
	int rc = 0;
	mutex_lock(&vm->lock);
	while (n && !rc) {
		uint64_t off = va % USER_PAGE, chunk = USER_PAGE - off < n ? USER_PAGE - off : n;
		uint64_t *pte = va < USER_TOP ? uvm_pte(vm, va, 0) : NULL;
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

/* See uproc.h. Each mapping is followed by an unmapped page. */
int64_t uvm_map_anon(struct uvm *vm, uint64_t bytes)
{
	if (bytes == 0 || bytes > (uint64_t)USER_PAGES_MAX * USER_PAGE)
		return ERR_INVAL;
	uint64_t size = (bytes + USER_PAGE - 1) & ~(USER_PAGE - 1);
	mutex_lock(&vm->lock);
	uint64_t va = vm->map_next;
	int64_t rc = ERR_NOMEM;
	if (size <= USER_MAP_LIMIT - va) {
		vm->map_next = va + size + USER_PAGE;
		rc = uvm_map_zero_locked(vm, va, size, UVM_WRITE);
		if (rc == 0)
			rc = (int64_t)va;
	}
	mutex_unlock(&vm->lock);
	return rc;
}

/* See uproc.h. A new stack goes below the last one, with its own guard
 * page beneath; the record is published to the lock-free readers of
 * uvm_in_guard() only once complete. */
struct ustack *uvm_stack_get(struct uvm *vm, uint64_t size)
{
	struct ustack *s;
	mutex_lock(&vm->lock);
	for (s = vm->stacks; s; s = s->next)
		if (!s->in_use && s->size == size)
			break;
	if (!s) {
		uint64_t top = vm->stack_next;
		if (top - USER_STACK_LOW >= size + USER_PAGE && (s = kzalloc(sizeof(*s)))) {
			vm->stack_next = top - size - USER_PAGE;
			if (uvm_map_zero_locked(vm, top - size, size, UVM_WRITE) == 0) {
				s->top = top;
				s->size = size;
				s->next = vm->stacks;
				__atomic_store_n(&vm->stacks, s, __ATOMIC_RELEASE);
			} else {
				kfree(s);
				s = NULL;
			}
		}
	}
	if (s)
		s->in_use = 1;
	mutex_unlock(&vm->lock);
	return s;
}

/* See uproc.h. */
void uvm_stack_put(struct uvm *vm, struct ustack *s)
{
	mutex_lock(&vm->lock);
	s->in_use = 0;
	mutex_unlock(&vm->lock);
}

/* See uproc.h. */
int uvm_in_guard(struct uvm *vm, uint64_t addr)
{
	for (const struct ustack *s = __atomic_load_n(&vm->stacks, __ATOMIC_ACQUIRE); s; s = s->next)
		if (addr >= s->top - s->size - USER_PAGE && addr < s->top - s->size)
			return 1;
	return 0;
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
		else {
			pmm_free_page(t[i] & PTE_ADDR);
			vm->pages--;
		}
	}
	pmm_free_page(phys);
	vm->pages--;
}

/* See uproc.h. */
void uvm_free(struct uvm *vm)
{
	uint64_t *pml4 = uvm_table(vm->pml4);
	for (unsigned i = 0; i < PML4_USER_ENTRIES; i++)
		if (pml4[i] & PTE_P)
			uvm_free_table(vm, pml4[i] & PTE_ADDR, 3);
	pmm_free_page(vm->pml4);
	vm->pages--;
	KASSERT(vm->pages == 0, "uvm: %u pages unaccounted after freeing", vm->pages);
	while (vm->stacks) {
		struct ustack *s = vm->stacks;
		vm->stacks = s->next;
		kfree(s);
	}
	vm->pml4 = 0;
}
