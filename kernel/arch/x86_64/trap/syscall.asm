; SPDX-License-Identifier: BSD-2-Clause
; syscall.asm — the system-call entry (SYSCALL), the return to user mode
; (SYSRET, or IRETQ for a thread's first entry) (docs/userland.md).
;
; SYSCALL (Intel SDM vol. 2B) leaves RCX = the user RIP, R11 = the user
; RFLAGS, switches CS/SS to IA32_STAR[47:32] (+8) and masks RFLAGS with
; IA32_FMASK (IF, TF, DF, AC, NT, IOPL: user_cpu.c), but does not switch
; stacks: the entry swaps GS to this CPU's record (percpu.h), keeps the user
; RSP there and loads the running thread's kernel stack top. It saves a
; struct trap_frame (trap.h) exactly as an interrupt from user mode would,
; with vector VEC_SYSCALL, so the C side reads and writes every user
; register in one place and a killed thread leaves the same way from both.
;
; SYSRET loads RIP from RCX; with a non-canonical RCX it raises #GP in ring
; 0 on the user's stack. The user half ends one page below the canonical
; boundary (USER_TOP, ulayout.h) and syscall_dispatch() refuses to return
; to any RIP at or above it, so that never happens.
bits 64
section .text
global syscall_entry
global arch_user_return
extern syscall_dispatch

%define PCPU_KERNEL_RSP 8
%define PCPU_USER_RSP   16
%define USER_CS 0x23
%define USER_SS 0x1b
%define VEC_SYSCALL 0x100

%macro SAVE_GPRS 0
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
%endmacro

%macro RESTORE_GPRS 0
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
%endmacro

syscall_entry:
	swapgs
	lfence                          ; no kernel loads speculated under the user's GS
	mov [gs:PCPU_USER_RSP], rsp
	mov rsp, [gs:PCPU_KERNEL_RSP]
	push qword USER_SS
	push qword [gs:PCPU_USER_RSP]
	push r11                        ; RFLAGS
	push qword USER_CS
	push rcx                        ; RIP
	push qword 0                    ; error code
	push qword VEC_SYSCALL
	SAVE_GPRS
	mov rdi, rsp
	xor ebp, ebp                    ; kernel backtraces end here
	sti
	call syscall_dispatch           ; may change any saved register
	cli
	RESTORE_GPRS
	add rsp, 16                     ; vector, error code
	mov rcx, [rsp]                  ; RIP
	mov r11, [rsp + 16]             ; RFLAGS
	mov rsp, [rsp + 24]             ; the user's stack
	swapgs
	o64 sysret

; void arch_user_return(struct trap_frame *tf) — enter user mode with the
; registers of tf (a new thread's first entry). Interrupts off; never
; returns. tf lies on the thread's kernel stack, which is empty after this.
arch_user_return:
	mov rsp, rdi
	RESTORE_GPRS
	add rsp, 16
	swapgs
	iretq
