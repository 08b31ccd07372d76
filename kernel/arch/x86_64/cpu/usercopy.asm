; SPDX-License-Identifier: BSD-2-Clause
; usercopy.asm — the only code that touches user memory through user
; addresses (kernel/user/usercopy.c checks the ranges first).
;
; With SMAP on (CR4.SMAP, user_cpu.c) a supervisor access to a user page
; faults unless RFLAGS.AC is set: each routine sets it (STAC) for the copy
; alone and clears it (CLAC) after. A page fault inside a routine (an
; unmapped page, a write to a read-only one) is not a kernel bug: the
; fault handler sees the RIP inside [usercopy_start, usercopy_end) and
; resumes at usercopy_fault, which returns ERR_FAULT (trap.c,
; user_copy_fixup()).
bits 64
section .text
global usercopy_start, usercopy_end, usercopy_fault
global arch_copy_user, arch_copy_user_str
extern user_smap_on

%define ERR_FAULT -2
%define ERR_TOOBIG -16

%macro USER_ACCESS_BEGIN 0
	cmp byte [rel user_smap_on], 0
	je %%plain
	stac
%%plain:
%endmacro

%macro USER_ACCESS_END 0
	cmp byte [rel user_smap_on], 0
	je %%plain
	clac
%%plain:
%endmacro

usercopy_start:

; int64_t arch_copy_user(void *dst, const void *src, uint64_t n)
; Copies n bytes; 0, or ERR_FAULT.
arch_copy_user:
	USER_ACCESS_BEGIN
	mov rcx, rdx
	rep movsb
	USER_ACCESS_END
	xor eax, eax
	ret

; int64_t arch_copy_user_str(char *dst, const char *src, uint64_t max)
; Copies the string at src with its NUL, at most max bytes: its length
; without the NUL, ERR_TOOBIG when no NUL came within max bytes (dst then
; holds max bytes and no NUL), or ERR_FAULT.
arch_copy_user_str:
	USER_ACCESS_BEGIN
	xor eax, eax
.next:
	cmp rax, rdx
	je .too_long
	mov cl, [rsi + rax]
	mov [rdi + rax], cl
	test cl, cl
	jz .done
	inc rax
	jmp .next
.done:
	USER_ACCESS_END
	ret
.too_long:
	USER_ACCESS_END
	mov rax, ERR_TOOBIG
	ret

; The page-fault handler resumes here after a fault in a routine above.
usercopy_fault:
	USER_ACCESS_END
	mov rax, ERR_FAULT
	ret

usercopy_end:
