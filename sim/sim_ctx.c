/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_ctx.c — the simulator's coroutines: a stack per simulated thread
 * (and per simulated CPU's idle loop) and a switch between them.
 *
 * glibc's swapcontext() saves and restores the signal mask with a system
 * call on every switch; the simulator switches once or twice per
 * simulated work item, so it uses its own switch: the System V x86-64
 * callee-saved registers (rbx, rbp, r12-r15), the x87 control word and
 * MXCSR are pushed on the old stack, the stack pointer saved, the new one
 * loaded and the same popped. Host: x86-64 only (as is the project).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sim/sim.h>

/* void sim_ctx_switch(struct sim_ctx *from, struct sim_ctx *to) */
__asm__(".text\n"
	".globl sim_ctx_switch\n"
	".type sim_ctx_switch, @function\n"
	"sim_ctx_switch:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	subq $8, %rsp\n"
	"	stmxcsr (%rsp)\n"
	"	fnstcw 4(%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq (%rsi), %rsp\n"
	"	ldmxcsr (%rsp)\n"
	"	fldcw 4(%rsp)\n"
	"	addq $8, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size sim_ctx_switch, .-sim_ctx_switch\n"
	/* First entry of a new context: r12 = argument, r13 = function. The
	 * function never returns (sim_ctx_make's contract). */
	".globl sim_ctx_start\n"
	".type sim_ctx_start, @function\n"
	"sim_ctx_start:\n"
	"	movq %r12, %rdi\n"
	"	callq *%r13\n"
	"	ud2\n"
	".size sim_ctx_start, .-sim_ctx_start\n");

void sim_ctx_start(void);

/* See sim.h. The frame sim_ctx_switch pops: control words, r15..rbp and
 * the return address sim_ctx_start; after the ret the stack pointer is the
 * 16-byte aligned top, as the ABI wants at the call in sim_ctx_start. */
void sim_ctx_make(struct sim_ctx *c, void *stack, size_t size, void (*fn)(void *), void *arg)
{
	uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
	uint64_t *sp = (uint64_t *)top;
	*--sp = (uint64_t)(uintptr_t)sim_ctx_start;
	*--sp = 0;                        /* rbp */
	*--sp = 0;                        /* rbx */
	*--sp = (uint64_t)(uintptr_t)arg; /* r12 */
	*--sp = (uint64_t)(uintptr_t)fn;  /* r13 */
	*--sp = 0;                        /* r14 */
	*--sp = 0;                        /* r15 */
	*--sp = 0x037F00001F80ull;        /* MXCSR default (low), x87 control word (high half) */
	c->sp = sp;
}
