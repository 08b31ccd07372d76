; SPDX-License-Identifier: BSD-2-Clause
; isr.asm — one entry point per vector. Each pushes a uniform frame
; (struct trap_frame in trap.h) and calls trap_dispatch(frame).
;
; GS: while the CPU runs kernel code the GS base is its per-CPU record
; (percpu.h); in user mode it is the user's, and SWAPGS exchanges the two
; (IA32_KERNEL_GS_BASE holds the other). An interrupt or exception from
; user mode (saved CS with RPL 3) swaps on entry and again on exit. NMI,
; double fault and machine check can arrive anywhere, also between a
; SWAPGS and the SYSRET/IRETQ after it (syscall.asm), so they look at the
; GS base itself: a user value (upper half clear) is swapped, and swapped
; back on exit.

bits 64
section .text
extern trap_dispatch

; Vectors where the CPU pushes an error code.
%define HAS_ERROR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

%macro ISR 1
isr_%1:
%if HAS_ERROR(%1) == 0
	push 0
%endif
	push %1
	jmp isr_common
%endmacro

%assign v 0
%rep 256
ISR v
%assign v v + 1
%endrep

isr_common:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	xor ebx, ebx            ; 1: swap GS again on the way out (RBX survives the call)
	mov rax, [rsp + 15*8]   ; vector
	cmp rax, 2
	je .paranoid
	cmp rax, 8
	je .paranoid
	cmp rax, 18
	je .paranoid
	test qword [rsp + 18*8], 3   ; saved CS: from user mode?
	jz .gs_ready
	swapgs
	mov ebx, 1
	jmp .gs_ready
.paranoid:
	mov ecx, 0xC0000101     ; IA32_GS_BASE
	rdmsr
	test edx, edx
	js .gs_ready            ; a kernel address: the kernel's GS already
	swapgs
	mov ebx, 1
.gs_ready:
	lfence                  ; no kernel loads speculated under the user's GS
	push qword 2
	popfq                   ; DF and AC clear (AC: SMAP applies), IF stays off
	mov rdi, rsp
	; Build a fake call frame (interrupted RBP, interrupted RIP) so that
	; frame-pointer backtraces walk on into the interrupted code.
	mov rbp, [rsp + 8*8]    ; saved rbp
	push qword [rsp + 17*8] ; saved rip, as a return address
	push rbp
	mov rbp, rsp
	call trap_dispatch
	add rsp, 16
	test ebx, ebx
	jz .gs_restored
	swapgs
.gs_restored:
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16          ; vector and error code
	iretq

section .rodata
global isr_table
align 8
isr_table:
%assign v 0
%rep 256
	dq isr_ %+ v
%assign v v + 1
%endrep
