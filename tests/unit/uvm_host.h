/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uvm_host.h — the machine under kernel/user/uvm*.c on the host (unit
 * tests and fuzz harnesses built with -DMOSAIC_HOST): what the address
 * space code calls, each stand-in checking how it is used.
 *
 *  - Physical memory: a pool of HOST_POOL_PAGES 4 KiB pages, physical
 *    address = offset from mm_host_direct_map_base (page 0 is never
 *    handed out, page 1 is the fake kernel PML4). pmm_alloc_page() hands
 *    out zeroed pages; pmm_free_page() panics on a double free or a page
 *    not handed out. Free pages are poisoned for AddressSanitizer, so any
 *    access through a stale entry stops the program.
 *  - vmm_kernel_cr3(): the fake kernel PML4, whose upper half holds
 *    recognizable entries every address space must copy.
 *  - Mutexes record their holder; pages are allocated only while a mutex
 *    is held (or inside host_uvm_init()), and freed only while one is held
 *    after a TLB flush of the address space saw the page's entry not
 *    present (or inside host_uvm_free()). user_cpu_flush_tlb() checks that
 *    the lock of the space with that CR3 is held.
 *  - kmalloc/kzalloc/kfree: malloc with a header, counted.
 *  - printk records the last line; kassert_failed() formats the message
 *    and calls panic(), which the test program provides (panic_hook.h in
 *    cmocka tests, fuzz_panic.h in harnesses).
 *  - Failures on demand: the n-th page allocation, heap allocation or TLB
 *    flush from now fails (host_fail_*()).
 *  - The limits' environment (ulimit.h): whether charges may take the
 *    operator's reserve (host_reserve()), and refusals reported, counted.
 *
 * A broken rule panics with a message naming it. Single-threaded.
 */
#ifndef MOSAIC_TEST_UVM_HOST_H
#define MOSAIC_TEST_UVM_HOST_H
#include <stddef.h>
#include <stdint.h>
#include <user/uvm.h>

#define HOST_POOL_PAGES 40960u   /* 160 MiB: two full 64 MiB address spaces and more */

/* Spinlocks held now (kept by the spinlock stand-ins of user_host.c):
 * pages, mutexes and user memory are never touched under one. */
extern int host_spin_depth;

/* uvm_init() (charged to job, NULL: the root) / uvm_free() with the
 * rules of their context: the PML4 is allocated, and the whole space
 * freed, without the space's lock and without a TLB flush (nothing runs on
 * it). */
int host_uvm_init(struct uvm *vm, struct ujob *job);
void host_uvm_free(struct uvm *vm);

/* Pages handed out and not freed (the kernel PML4 not counted), and pages
 * kept out of use because a TLB flush failed (never to be freed). */
uint64_t host_pages_in_use(void);
uint64_t host_pages_kept(void);
/* Puts the kept pages back into the pool (between the runs of a harness,
 * once nothing can refer to them). */
void host_pages_reclaim(void);
/* 1 if phys is a pool page handed out and not freed. */
int host_page_allocated(uint64_t phys);

/* The n-th page allocation / heap allocation / TLB flush from now fails
 * (1: the next one); 0: none. A failure disarms it. */
void host_fail_page(uint32_t n);
void host_fail_heap(uint32_t n);
void host_fail_flush(uint32_t n);
/* Heap blocks live now. */
uint64_t host_heap_live(void);
/* TLB flushes so far (failed ones too). */
uint64_t host_flushes(void);
/* Whether charges from now on may take the operator's reserve
 * (ulimit_reserve_allowed()); refusals reported so far
 * (ulimit_report_refusal()). */
void host_reserve(int allowed);
uint64_t host_refusal_reports(void);
/* printk lines so far, and the last one. */
uint64_t host_printk_count(void);
const char *host_printk_last(void);

#endif
