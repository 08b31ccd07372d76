/* SPDX-License-Identifier: BSD-2-Clause */
/* mm_sysctl.c — the memory sysctls: hw.physmem, vm.stats.free_bytes and
 * hw.pagesize, read from the page allocator (pmm_get_stats() takes its
 * lock). */
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/sysctl.h>

/* hw.physmem: bytes the page allocator manages. */
static void physmem_proc(char *buf, size_t len)
{
	struct pmm_stats p;
	pmm_get_stats(&p);
	ksnprintf(buf, len, "%lu", p.total_bytes);
}
SYSCTL_PROC(hw_physmem, "hw.physmem", physmem_proc, "bytes of RAM the page allocator manages");

/* vm.stats.free_bytes: bytes of free physical memory now. */
static void freemem_proc(char *buf, size_t len)
{
	struct pmm_stats p;
	pmm_get_stats(&p);
	ksnprintf(buf, len, "%lu", p.free_bytes);
}
SYSCTL_PROC(vm_freemem, "vm.stats.free_bytes", freemem_proc, "bytes of free physical memory");

static int64_t page_size = PAGE_SIZE;
SYSCTL_INT(hw_pagesize, "hw.pagesize", &page_size, 0, 0, 0, "bytes per page");
