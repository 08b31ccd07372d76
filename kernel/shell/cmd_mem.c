/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_mem.c — physical memory and heap usage: the `mem` command (the hw./vm.
 * sysctls are kernel/mm/mm_sysctl.c). */
#include <shell/shell.h>
#include <mm/mm.h>
#include <kern/printk.h>

static void print_kib(const char *what, uint64_t bytes)
{
	printk("  %-22s %10lu KiB (%lu MiB)\n", what, bytes / 1024, bytes >> 20);
}

static int cmd_mem(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct pmm_stats p;
	struct heap_stats h;
	pmm_get_stats(&p);
	heap_get_stats(&h);
	printk("physical memory:\n");
	print_kib("managed", p.total_bytes);
	print_kib("free", p.free_bytes);
	print_kib("used", p.total_bytes - p.free_bytes);
	print_kib("reclaimed from boot", p.reclaimed_bytes);
	print_kib("kernel+modules", p.kernel_bytes);
	print_kib("allocator metadata", p.meta_bytes);
	print_kib("firmware/reserved", p.reserved_bytes);
	printk("kernel heap:\n");
	print_kib("arena", h.arena_bytes);
	print_kib("in use", h.used_bytes);
	print_kib("free", h.free_bytes);
	printk("  %-22s %10lu\n", "live allocations", h.allocations);
	return 0;
}
SHELL_COMMAND(mem, 0, 0, "", "physical memory and kernel heap usage", cmd_mem);
