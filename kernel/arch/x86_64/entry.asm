; SPDX-License-Identifier: BSD-2-Clause
; entry.asm — first kernel instructions. The loader jumps here with
; RDI = boot_info (direct-map address), interrupts off, its page tables live.
; We take our own boot stack, end the frame-pointer chain, and call C.

bits 64
section .text.entry
global kernel_entry
extern kernel_main

kernel_entry:
	cli
	cld
	lea rsp, [rel boot_stack_top]
	xor ebp, ebp            ; backtraces stop at a zero frame pointer
	call kernel_main        ; never returns
.halt:
	cli
	hlt
	jmp .halt

section .bss
align 16
boot_stack:
	resb 16384
boot_stack_top:
