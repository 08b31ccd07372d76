/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uvm_walk.h — reading a host address space's page tables (tests/unit/
 * uvm_host.h) the way the MMU would, independently of kernel/user/uvm.c:
 * for the checks of the unit tests and fuzz harnesses, and for the fake
 * user memory of the system-call harness.
 */
#ifndef MOSAIC_TEST_UVM_WALK_H
#define MOSAIC_TEST_UVM_WALK_H
#include <stddef.h>
#include <stdint.h>
#include <user/uvm.h>

#define WALK_P  (UINT64_C(1) << 0)
#define WALK_W  (UINT64_C(1) << 1)
#define WALK_U  (UINT64_C(1) << 2)
#define WALK_NX (UINT64_C(1) << 63)
#define WALK_ADDR UINT64_C(0x000FFFFFFFFFF000)

/* The leaf entry of va (0 when it or a table above it is not present). */
uint64_t walk_pte(const struct uvm *vm, uint64_t va);
/* The byte at user address va as ring 3 reaches it (present and U/S at
 * every level, and W at the leaf when write): a pointer into the fake
 * memory, or NULL (a fault). */
uint8_t *walk_user_byte(const struct uvm *vm, uint64_t va, int write);

/* Called for each present leaf of the user half, in address order;
 * nonzero stops the walk with that result. */
typedef int (*walk_fn)(void *ctx, uint64_t va, uint64_t pte);
/* Walks the whole user half checking its shape: the upper half is the
 * kernel's; every entry is zero or present; table entries are exactly
 * P|W|U and an address, leaves P|U with at most W and NX; every page they
 * name is a pool page in use, named once. 0 with *tables the page-table
 * pages below the PML4, or -1 with why (or fn's nonzero result). */
int walk_space(const struct uvm *vm, walk_fn fn, void *ctx, uint64_t *tables, char *why,
	       size_t why_len);

#endif
