/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_fault.c — deliberate failures, to see (and test) what the kernel does
 * on a panic and on each kind of exception. Every one of them ends the run. */
#include <shell/shell.h>
#include <kern/panic.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <mm/mm.h>

static int cmd_panic(int argc, char **argv)
{
	char msg[128] = "panic requested from the shell";
	size_t n = 0;
	for (int i = 1; i < argc; i++) {
		size_t len = strlen(argv[i]);
		if (n + len + 2 > sizeof(msg))
			break;
		if (n)
			msg[n++] = ' ';
		memcpy(msg + n, argv[i], len + 1);
		n += len;
	}
	panic("%s", msg);
}
SHELL_COMMAND(panic, 0, SHELL_ARGS_MAX, "[message]", "stop the kernel with a panic and backtrace", cmd_panic);

/* Recurses until the stack's guard page is hit (long before the bound). */
static int __attribute__((noipa)) overflow_stack(int depth)
{
	volatile char pad[512];
	pad[0] = (char)depth;
	if (depth > 1000000)
		return 0;
	return overflow_stack(depth + 1) + pad[0];
}

/* An address the compiler cannot reason about, so the bad access stays. */
static volatile uint64_t *opaque_address(uint64_t addr)
{
	__asm__ volatile("" : "+r"(addr));
	return (volatile uint64_t *)addr;
}

/* A real DIV instruction (the compiler turns 1/x into a comparison). */
static void __attribute__((noinline)) fault_divide(void)
{
	uint64_t rax = 1, rdx = 0, divisor = 0;
	__asm__ volatile("divq %2" : "+a"(rax), "+d"(rdx) : "r"(divisor));
}

/* A machine check (vector 18, raised with INT) while RSP holds a user
 * stack address, as in syscall_entry before its stack switch: only an IST
 * stack of its own lets the handler run (otherwise pushing the frame
 * faults, and that fault becomes a double fault). */
static void __attribute__((noinline)) fault_machine_check_on_user_rsp(void)
{
	__asm__ volatile("mov %%rsp, %%rbx\n\t"
			 "mov %0, %%rsp\n\t"
			 "int $18\n\t"
			 "mov %%rbx, %%rsp" :: "r"(0x7ffffffff000ull) : "rbx", "memory");
}

extern char __text_start[];

static const char *const fault_kinds =
	"pf (unmapped read), wp (write to kernel text), nx (execute heap), ud (invalid opcode),\n"
	"  de (divide by zero), gp (non-canonical address), stack (overflow into the guard page),\n"
	"  mc (machine check while RSP is a user stack address)";

static int cmd_fault(int argc, char **argv)
{
	(void)argc;
	const char *k = argv[1];
	printk("fault: triggering '%s'\n", k);
	if (strcmp(k, "pf") == 0) {
		(void)*opaque_address(0x10);
	} else if (strcmp(k, "wp") == 0) {
		*(volatile char *)__text_start = 0;
	} else if (strcmp(k, "nx") == 0) {
		unsigned char *code = kmalloc(16);
		if (!code) {
			printk("fault: out of memory\n");
			return 1;
		}
		code[0] = 0xC3;   /* ret: would return if the heap were executable */
		((void (*)(void))code)();
	} else if (strcmp(k, "ud") == 0) {
		__asm__ volatile("ud2");
	} else if (strcmp(k, "de") == 0) {
		fault_divide();
	} else if (strcmp(k, "gp") == 0) {
		(void)*opaque_address(0x8000000000000000ULL);
	} else if (strcmp(k, "stack") == 0) {
		overflow_stack(0);
	} else if (strcmp(k, "mc") == 0) {
		fault_machine_check_on_user_rsp();
	} else {
		printk("fault: unknown kind '%s'; kinds: %s\n", k, fault_kinds);
		return 1;
	}
	printk("fault: '%s' did not fault\n", k);
	return 1;
}
SHELL_COMMAND(fault, 1, 1, "pf|wp|nx|ud|de|gp|stack|mc", "raise a CPU exception on purpose (see 'help fault')", cmd_fault);
