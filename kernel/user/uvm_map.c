/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uvm_map.c — the SYS_VM_MAP area of an address space (see uvm.h): a list
 * of regions by address, each followed by at least one unmapped page. A
 * new mapping takes the lowest range that fits (first fit), so ranges
 * given back by SYS_VM_UNMAP are used again and a process that maps and
 * unmaps for ever never runs out of address space. A call that fails
 * changes nothing.
 */
#include <user/uvm.h>
#include <user/ulayout.h>
#include <user/ulimit.h>
#include <mosaic/syscall.h>
#include <mm/mm.h>

/* The lowest address of the map area where size bytes fit after prev (NULL:
 * at the start) and before the guard page of prev's successor; 0 when no
 * range fits. Sets *after to the region the new one follows. vm->lock. */
static uint64_t uvm_find_gap(struct uvm *vm, uint64_t size, struct uvm_region **after)
{
	struct uvm_region *prev = NULL, *next = vm->regions;
	uint64_t va = USER_MAP_BASE;
	for (;;) {
		uint64_t end = next ? next->start - USER_PAGE : USER_MAP_LIMIT;
		if (va <= end && size <= end - va) {
			*after = prev;
			return va;
		}
		if (!next)
			return 0;
		va = next->end + USER_PAGE;
		prev = next;
		next = next->next;
	}
}

/* Links r after prev (NULL: first). vm->lock. */
static void uvm_region_link(struct uvm *vm, struct uvm_region *prev, struct uvm_region *r)
{
	struct uvm_region **pp = prev ? &prev->next : &vm->regions;
	r->next = *pp;
	*pp = r;
}

/* A region record charged to vm: 0, or ERR_LIMIT / ERR_QUOTA / ERR_NOSPC /
 * ERR_NOMEM.
 * vm->lock. */
static int uvm_region_new(struct uvm *vm, struct uvm_region **out)
{
	int rc = ulimit_charge(UL_MAPPINGS, vm->job, &vm->nregions, 1);
	if (rc)
		return rc;
	if (!(*out = kzalloc(sizeof(**out)))) {
		ulimit_uncharge(UL_MAPPINGS, vm->job, &vm->nregions, 1);
		return ERR_NOMEM;
	}
	return 0;
}

/* Frees a region record. vm->lock. */
static void uvm_region_free(struct uvm *vm, struct uvm_region *r)
{
	kfree(r);
	ulimit_uncharge(UL_MAPPINGS, vm->job, &vm->nregions, 1);
}

/* See uvm.h. The whole size is checked against the page limits first, so
 * a request that can never fit costs nothing. */
int64_t uvm_map_anon(struct uvm *vm, uint64_t bytes)
{
	if (bytes == 0 || bytes > USER_MAP_LIMIT - USER_MAP_BASE)
		return ERR_INVAL;
	uint64_t size = (bytes + USER_PAGE - 1) & ~(USER_PAGE - 1);
	uint32_t npages = size / USER_PAGE > UINT32_MAX ? UINT32_MAX : (uint32_t)(size / USER_PAGE);
	mutex_lock(&vm->lock);
	struct uvm_region *r = NULL, *prev = NULL;
	int64_t rc = ulimit_charge(UL_PAGES, vm->job, &vm->pages, npages);
	if (rc == 0) {
		ulimit_uncharge(UL_PAGES, vm->job, &vm->pages, npages);   /* charged page by page below */
		rc = uvm_region_new(vm, &r);
	}
	uint64_t va = rc ? 0 : uvm_find_gap(vm, size, &prev);
	if (rc == 0 && !va)
		rc = ERR_NOMEM;
	if (rc == 0)
		rc = uvm_map_zero_locked(vm, va, size, UVM_WRITE);
	if (rc == 0) {
		r->start = va;
		r->end = va + size;
		uvm_region_link(vm, prev, r);
		rc = (int64_t)va;
	} else if (r) {
		if (va)
			uvm_unmap_locked(vm, va, size);   /* the pages mapped before the failure */
		uvm_region_free(vm, r);
	}
	mutex_unlock(&vm->lock);
	return rc;
}

/* See uvm.h. */
int uvm_unmap_anon(struct uvm *vm, uint64_t addr, uint64_t bytes)
{
	if (addr % USER_PAGE || bytes == 0 || addr < USER_MAP_BASE || addr >= USER_MAP_LIMIT ||
	    bytes > USER_MAP_LIMIT - addr)
		return ERR_INVAL;
	uint64_t end = addr + ((bytes + USER_PAGE - 1) & ~(USER_PAGE - 1));
	mutex_lock(&vm->lock);
	struct uvm_region *spare = NULL;
	int rc = 0;
	for (struct uvm_region *r = vm->regions; r && r->start < end; r = r->next)
		if (r->start < addr && r->end > end)   /* the range splits r in two */
			rc = uvm_region_new(vm, &spare);
	if (rc) {
		mutex_unlock(&vm->lock);
		return rc;
	}
	uvm_unmap_locked(vm, addr, end - addr);
	struct uvm_region **pp = &vm->regions;
	while (*pp && (*pp)->start < end) {
		struct uvm_region *r = *pp;
		if (r->end <= addr) {
			pp = &r->next;
		} else if (r->start >= addr && r->end <= end) {   /* inside: gone */
			*pp = r->next;
			uvm_region_free(vm, r);
		} else if (r->start < addr && r->end > end) {     /* split */
			spare->start = end;
			spare->end = r->end;
			r->end = addr;
			uvm_region_link(vm, r, spare);
			spare = NULL;
			pp = &r->next->next;
		} else if (r->start < addr) {                     /* its tail */
			r->end = addr;
			pp = &r->next;
		} else {                                          /* its head */
			r->start = end;
			pp = &r->next;
		}
	}
	mutex_unlock(&vm->lock);
	return 0;
}

/* See uvm.h. */
void uvm_regions_free(struct uvm *vm)
{
	while (vm->regions) {
		struct uvm_region *r = vm->regions;
		vm->regions = r->next;
		uvm_region_free(vm, r);
	}
}
