/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uvm_model.h — the reference model of one address space of
 * kernel/user/uvm*.c for the host tests and harnesses, written from the
 * contracts of uvm.h and the layout of ulayout.h: which pages are mapped
 * with which permissions and what they hold, the SYS_VM_MAP regions and
 * where the next one goes (the lowest gap that keeps a guard page), the
 * stacks, which page tables exist, and the page and region counts charged
 * to the limits model (limit_model.h).
 *
 * Each operation predicts the result of its uvm counterpart and updates
 * the model as that call must leave the space; vm_model_check() compares
 * the model with a real space by walking its page tables (uvm_walk.h).
 * The model counts page allocations in the order a mapping needs them (the
 * missing tables from the top, then the page) and heap allocations where
 * the contracts take a record, so injected failures land where they land
 * in the kernel.
 */
#ifndef MOSAIC_TEST_UVM_MODEL_H
#define MOSAIC_TEST_UVM_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include <tests/unit/limit_model.h>
#include <user/uvm.h>

#define VM_MODEL_REGIONS 1024
#define VM_MODEL_STACKS  64
#define VM_MODEL_RUNS    2048
#define VM_MODEL_TABLES  256     /* of each level */
#define VM_MODEL_CONTENT 512     /* pages written */

/* Mapped pages [start, end) with the same UVM_* permissions. */
struct vm_run {
	uint64_t start, end;
	unsigned prot;
};

struct vm_model {
	struct limit_model *lim;
	int job;                         /* the model job it is charged to */
	uint32_t pages, nregions;
	struct { uint64_t start, end; } regions[VM_MODEL_REGIONS];     /* by address */
	struct { uint64_t top, size; int in_use; } stacks[VM_MODEL_STACKS];   /* newest first */
	uint32_t nstacks;
	uint64_t stack_next;
	struct vm_run runs[VM_MODEL_RUNS];                             /* by address */
	uint32_t nruns;
	/* The page tables below the PML4: [0] PDPTs by va >> 39, [1] PDs by
	 * va >> 30, [2] PTs by va >> 21. */
	uint64_t tables[3][VM_MODEL_TABLES];
	uint32_t ntables[3];
	struct { uint64_t va; uint8_t *bytes; } content[VM_MODEL_CONTENT];   /* pages not all zero */
	uint32_t ncontent;
	int flushed;   /* the last operation unmapped pages (the kernel flushed the TLB) */
};

/* uvm_init() charged to model job job: 0, or ERR_LIMIT / ERR_QUOTA /
 * ERR_NOSPC / ERR_NOMEM for the PML4 (then the model holds nothing). */
int vm_model_init(struct vm_model *m, struct limit_model *lim, int job);
/* uvm_free(): everything uncharged. */
void vm_model_free(struct vm_model *m);
/* uvm_map_anon(), uvm_unmap_anon(), uvm_map_zero(), uvm_write(),
 * uvm_stack_get() (the stack: *index in the newest-first list) and
 * uvm_stack_put() of the stack at index. */
int64_t vm_model_map_anon(struct vm_model *m, uint64_t bytes);
int vm_model_unmap_anon(struct vm_model *m, uint64_t addr, uint64_t bytes);
int vm_model_map_zero(struct vm_model *m, uint64_t va, uint64_t bytes, unsigned prot);
int vm_model_write(struct vm_model *m, uint64_t va, const void *src, uint64_t n);
int vm_model_stack_get(struct vm_model *m, uint64_t size, uint32_t *index);
void vm_model_stack_put(struct vm_model *m, uint32_t index);

/* The permissions of the page holding va plus one (UVM_* + 1), 0 when it is
 * not mapped; and the byte at va (0 if never written). */
unsigned vm_model_prot(const struct vm_model *m, uint64_t va);
uint8_t vm_model_byte(const struct vm_model *m, uint64_t va);
/* Pages mapped (not counting tables) and page tables below the PML4. */
uint64_t vm_model_leaves(const struct vm_model *m);
uint64_t vm_model_tables(const struct vm_model *m);

/* Compares vm with the model: counts, regions, stacks, and through the
 * page tables every mapped page and its permissions, the tables, and with
 * contents each page's bytes. 0, or -1 with the first difference. */
int vm_model_check(const struct vm_model *m, const struct uvm *vm, int contents, char *why,
		   size_t why_len);

#endif
