; SPDX-License-Identifier: BSD-2-Clause
; msr_safe.asm — rdmsr_safe() (cpu.h): RDMSR whose #GP is not fatal. The
; #GP handler (trap.c) sees RIP at msr_safe_rdmsr and resumes at
; msr_safe_fault (msr_safe.c, msr_safe_fixup()), which returns -1.
bits 64
section .text
global rdmsr_safe, msr_safe_rdmsr, msr_safe_fault

; int rdmsr_safe(uint32_t msr, uint64_t *val): rdi = msr, rsi = val
rdmsr_safe:
	mov ecx, edi
msr_safe_rdmsr:
	rdmsr
	shl rdx, 32
	mov eax, eax
	or rax, rdx
	mov [rsi], rax
	xor eax, eax
	ret

; The #GP handler resumes here after a fault of the RDMSR above.
msr_safe_fault:
	mov eax, -1
	ret
