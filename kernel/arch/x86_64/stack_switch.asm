; SPDX-License-Identifier: BSD-2-Clause
; stack_switch.asm — continue on a new stack.
bits 64
section .text
global arch_run_on_stack

; void arch_run_on_stack(void *stack_top, void (*fn)(void *), void *arg)
; Switches RSP to stack_top and calls fn(arg) with a fresh frame chain.
; fn must not return; if it does, the CPU halts.
arch_run_on_stack:
	mov rsp, rdi
	xor ebp, ebp
	mov rdi, rdx
	call rsi
.halt:
	cli
	hlt
	jmp .halt
