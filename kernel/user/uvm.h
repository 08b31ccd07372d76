/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uvm.h — a process's address space: its page tables (uvm.c), the
 * SYS_VM_MAP area and its regions (uvm_map.c), its thread stacks
 * (uvm_stack.c). The layout is ulayout.h's; docs/userland.md, "Address
 * spaces".
 *
 * Every user page and page-table page is charged to the space's page
 * count and its job (ulimit.h, UL_PAGES) when it is allocated and
 * uncharged when it is freed; regions are charged as UL_MAPPINGS. Pages leave only through
 * uvm_unmap_locked() (SYS_VM_UNMAP, a failed mapping), which removes them
 * from every CPU's TLB before they go back to the allocator, and
 * uvm_free() once no thread of the space runs. Page tables stay until the
 * space is freed.
 *
 * Locking: vm->lock (a sleeping mutex, fair: threads of the process take
 * turns) guards the page tables, the counts, the regions and the stacks;
 * uvm_init() and uvm_free() run while nothing else can reach the space.
 */
#ifndef MOSAIC_USER_UVM_H
#define MOSAIC_USER_UVM_H
#include <stdint.h>
#include <sync/mutex.h>

/* A user stack: [top - size, top) mapped, the page below unmapped. */
struct ustack {
	uint64_t top, size;
	int in_use;
	struct ustack *next;
};

/* A SYS_VM_MAP region: [start, end) mapped, the page at end unmapped. */
struct uvm_region {
	uint64_t start, end;
	struct uvm_region *next;         /* by address */
};

struct ujob;

struct uvm {
	uint64_t pml4;                   /* physical; its upper half is the kernel's */
	struct ujob *job;                /* charged for its pages and regions (NULL: the root job) */
	uint32_t pages;                  /* pages held: mapped and page tables (UL_PAGES) */
	uint32_t nregions;               /* regions (UL_MAPPINGS) */
	struct uvm_region *regions;      /* SYS_VM_MAP memory, by address */
	uint64_t stack_next;             /* top of the next new stack */
	struct ustack *stacks;           /* every stack ever made (reused, never unmapped) */
	struct mutex lock;               /* page tables, counts, regions, stacks */
};

#define UVM_WRITE 0x1
#define UVM_EXEC  0x2

/* An empty address space charged to job (kept by the caller for the
 * space's life): 0, or ERR_NOMEM / ERR_QUOTA / ERR_NOSPC (no page for the
 * PML4, or the job's quota or the system's page total reached). */
int uvm_init(struct uvm *vm, struct ujob *job);
/* Free every user page, table, region and stack record and the PML4,
 * uncharging them. No thread of it runs, none ever will. */
void uvm_free(struct uvm *vm);
/* Map fresh zeroed pages over [va, va + bytes) (page aligned, in the user
 * half) with UVM_* permissions, readable always; pages already mapped are
 * left as they are (two segments may share one). 0, or ERR_NOMEM (no
 * page), ERR_LIMIT / ERR_QUOTA / ERR_NOSPC (over the page limits); the pages mapped
 * so far stay. uvm_map_zero() takes vm->lock, the _locked form needs it. */
int uvm_map_zero(struct uvm *vm, uint64_t va, uint64_t bytes, unsigned prot);
int uvm_map_zero_locked(struct uvm *vm, uint64_t va, uint64_t bytes, unsigned prot);
/* Unmap every page in [va, va + bytes) (page aligned), flush it from every
 * CPU's TLB, then free it. vm->lock held. */
void uvm_unmap_locked(struct uvm *vm, uint64_t va, uint64_t bytes);
/* Write n bytes at va through the page tables (any permissions), for
 * building a new program's image before it runs: 0, or ERR_FAULT where a
 * page is missing. Holds vm->lock. */
int uvm_write(struct uvm *vm, uint64_t va, const void *src, uint64_t n);

/* SYS_VM_MAP: fresh zeroed read-write memory of bytes (rounded up to
 * pages) in the lowest free range of the map area that leaves an unmapped
 * page after it; its address, or ERR_INVAL (0, or more than the area),
 * ERR_LIMIT / ERR_QUOTA / ERR_NOSPC (pages or regions over their limits), ERR_NOMEM.
 * A failed call leaves the space as it was, but for page tables it made
 * (they stay, charged, as all page tables do). Holds vm->lock. */
int64_t uvm_map_anon(struct uvm *vm, uint64_t bytes);
/* SYS_VM_UNMAP: unmap the SYS_VM_MAP memory in [addr, addr + bytes)
 * (addr page aligned, inside the map area; bytes rounded up): regions are
 * trimmed or split, their pages freed; parts not mapped are skipped. 0,
 * ERR_INVAL, or ERR_LIMIT / ERR_QUOTA / ERR_NOSPC / ERR_NOMEM when a split needs a
 * region record it cannot have (nothing changed). Holds vm->lock. */
int uvm_unmap_anon(struct uvm *vm, uint64_t addr, uint64_t bytes);
/* Free the region records (uvm_free()). */
void uvm_regions_free(struct uvm *vm);

/* A stack of at least size bytes (page multiple) in *out: a free one, or
 * a new one below the last with its guard page. 0, or ERR_NOMEM (no
 * memory, or the stack area is used up), ERR_LIMIT / ERR_QUOTA / ERR_NOSPC (pages).
 * Holds vm->lock. */
int uvm_stack_get(struct uvm *vm, uint64_t size, struct ustack **out);
/* Give a stack back for reuse (the thread that used it is gone). */
void uvm_stack_put(struct uvm *vm, struct ustack *s);
/* 1 if addr lies in the guard page below one of vm's stacks. Lock-free
 * read of a list that only grows. */
int uvm_in_guard(struct uvm *vm, uint64_t addr);
/* Free the stack records (uvm_free()). */
void uvm_stacks_free(struct uvm *vm);

#endif
