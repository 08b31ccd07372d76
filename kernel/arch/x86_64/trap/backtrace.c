/* SPDX-License-Identifier: BSD-2-Clause */
/* backtrace.c — walk saved frame pointers and name each return address. */
#include <arch/x86_64/trap/backtrace.h>
#include <kern/printk.h>

struct ksym {
	uint64_t addr;
	uint64_t name_offset;
};

/* Generated at build time by tools/gen-ksyms.sh (section .ksyms). */
extern const uint64_t ksyms_count;
extern const struct ksym ksyms_table[];
extern const char ksyms_strings[];
extern const char __text_start[], __text_end[];

/* Binary search over the sorted table. No locks. */
const char *ksym_lookup(uint64_t addr, uint64_t *offset)
{
	if (addr < (uint64_t)__text_start || addr >= (uint64_t)__text_end || ksyms_count == 0)
		return NULL;
	uint64_t lo = 0, hi = ksyms_count;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (ksyms_table[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (ksyms_table[lo].addr > addr)
		return NULL;
	*offset = addr - ksyms_table[lo].addr;
	return ksyms_strings + ksyms_table[lo].name_offset;
}

static void print_frame(int n, uint64_t addr)
{
	uint64_t off;
	const char *name = ksym_lookup(addr, &off);
	if (name)
		printk("  #%d 0x%016lx %s+0x%lx\n", n, addr, name, off);
	else
		printk("  #%d 0x%016lx ?\n", n, addr);
}

/* A frame pointer is trusted only if it is aligned and in the kernel half. */
static int frame_ok(uint64_t rbp)
{
	return rbp && !(rbp & 7) && rbp >= 0xFFFF800000000000ULL;
}

void backtrace_print(uint64_t rip, uint64_t rbp)
{
	printk("backtrace:\n");
	int n = 0;
	print_frame(n++, rip);
	while (frame_ok(rbp) && n < 32) {
		const uint64_t *frame = (const uint64_t *)rbp;
		uint64_t ret = frame[1];
		if (!ret)
			break;
		/* A return address points after the call; name the call site. */
		print_frame(n++, ret - 1);
		if (frame[0] <= rbp)   /* the chain must move up the stack */
			break;
		rbp = frame[0];
	}
}
