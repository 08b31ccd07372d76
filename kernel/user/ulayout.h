/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ulayout.h — the user half of every address space (docs/userland.md).
 *
 *   0x0000000000000000 .. 0x00000000003FFFFF  never mapped (null pointers fault)
 *   0x0000000000400000 .. 0x000000003FFFFFFF  the program image (ELF segments, W^X)
 *   0x0000000100000000 .. 0x00003FFFFFFFFFFF  SYS_VM_MAP memory (malloc's arena)
 *   0x0000700000000000 .. 0x00007FFFFFFFE000  thread stacks, each above an unmapped guard page
 *   0x00007FFFFFFFF000                        USER_TOP: this page is never mapped, so a
 *                                             `syscall` can never be the last instruction
 *                                             below the non-canonical hole (its return
 *                                             address would be non-canonical; SDM vol. 2B,
 *                                             SYSRET, #GP in ring 0)
 * Portable: also built into the host tests.
 */
#ifndef MOSAIC_USER_ULAYOUT_H
#define MOSAIC_USER_ULAYOUT_H

#define USER_PAGE          0x1000ull
#define USER_IMAGE_LOW     0x400000ull
#define USER_IMAGE_LIMIT   0x40000000ull
#define USER_IMAGE_SPAN    (64ull << 20)
#define USER_MAP_BASE      0x100000000ull
#define USER_MAP_LIMIT     0x400000000000ull
#define USER_STACK_LOW     0x700000000000ull
#define USER_STACK_TOP     0x7fffffffe000ull
#define USER_TOP           0x7ffffffff000ull
/* The lowest address a user pointer may hold: page 0 is never the caller's. */
#define USER_PTR_LOW       USER_PAGE
/* Pages (program, stacks, SYS_VM_MAP, page tables) one process may hold. */
#define USER_PAGES_MAX     16384u   /* 64 MiB */

#endif
