; SPDX-License-Identifier: BSD-2-Clause
; switch.asm — the kernel thread context switch.
;
; A thread switched out leaves on its own stack exactly what the SysV ABI
; says a call must preserve: RBX, RBP, R12-R15 and the return address; its
; stack pointer goes to its thread record. Everything else is dead across
; the call.
bits 64
section .text
global arch_context_switch
global arch_thread_start
extern thread_start

; void arch_context_switch(uint64_t *save_rsp, volatile uint32_t *old_on_cpu,
;                          uint64_t *load_rsp, volatile uint32_t *new_on_cpu)
; Interrupts off. Saves the caller's context to *save_rsp, then clears
; *old_on_cpu: from that store on, the old stack is never touched again and
; another CPU may resume the old thread. Only then waits until *new_on_cpu
; is 0 (the new thread's last CPU has saved it), claims it and resumes the
; context saved at *load_rsp. Releasing before waiting means two CPUs that
; swap threads can never wait for each other.
arch_context_switch:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov dword [rsi], 0      ; x86 stores are release-ordered
.wait:
	mov eax, [rcx]
	test eax, eax
	jz .claim
	pause
	jmp .wait
.claim:
	mov dword [rcx], 1
	mov rsp, [rdx]          ; loads are not reordered with the load above
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

; First code of a new thread: thread_create() builds a stack on which
; arch_context_switch "returns" here with R12 = fn and R13 = arg.
arch_thread_start:
	xor ebp, ebp
	mov rdi, r12
	mov rsi, r13
	call thread_start       ; never returns
.halt:
	cli
	hlt
	jmp .halt
