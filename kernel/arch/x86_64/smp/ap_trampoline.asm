; SPDX-License-Identifier: BSD-2-Clause
; ap_trampoline.asm — first instructions of an application processor.
;
; smp_boot.c copies this blob to a page below 1 MiB and points the
; start-up IPI at it, so an AP begins here in real mode at CS:0000 with
; CS = page >> 4. It finds its own physical address from CS, fills in the
; linear addresses this copy needs (GDT base, far-jump targets), and goes
; real mode -> 32-bit protected mode -> long mode on the page table whose
; address smp_boot.c left in ap_trampoline_cr3 (the page itself
; identity-mapped, plus the kernel's upper half). Then it takes the stack
; in ap_trampoline_stack and jumps to ap_trampoline_entry(ap_trampoline_arg),
; which never returns. Position-independent: every address is an offset
; from ap_trampoline_start (the blob lies in .rodata and is never run there).

%define OFF(label) ((label) - ap_trampoline_start)

%define CR0_PE    (1 << 0)
%define CR0_PG    (1 << 31)
%define CR4_PAE   (1 << 5)
%define MSR_EFER  0xC0000080
%define EFER_LME  (1 << 8)
%define EFER_NXE  (1 << 11)

%define SEL_CODE32 0x08
%define SEL_DATA   0x10
%define SEL_CODE64 0x18

section .rodata
global ap_trampoline_start, ap_trampoline_end
global ap_trampoline_cr3, ap_trampoline_stack, ap_trampoline_entry, ap_trampoline_arg

align 16
bits 16
ap_trampoline_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	movzx ebx, ax
	shl ebx, 4                          ; ebx = physical address of this copy
	lea eax, [ebx + OFF(tr_gdt)]
	mov [OFF(tr_gdtr) + 2], eax
	lea eax, [ebx + OFF(tr_protected)]
	mov [OFF(tr_jump32)], eax
	lea eax, [ebx + OFF(tr_long)]
	mov [OFF(tr_jump64)], eax
	o32 lgdt [OFF(tr_gdtr)]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	jmp dword far [OFF(tr_jump32)]

bits 32
tr_protected:
	mov ax, SEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [ebx + OFF(ap_trampoline_cr3)]
	mov cr3, eax
	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME | EFER_NXE         ; the kernel's page tables use NX bits
	wrmsr
	mov eax, cr0
	or eax, CR0_PG
	mov cr0, eax                        ; long mode active (compatibility mode)
	jmp far [ebx + OFF(tr_jump64)]

bits 64
tr_long:
	mov ebx, ebx                        ; upper half of rbx is undefined after the switch
	mov ax, SEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rsp, [rbx + OFF(ap_trampoline_stack)]
	mov rdi, [rbx + OFF(ap_trampoline_arg)]
	mov rax, [rbx + OFF(ap_trampoline_entry)]
	xor ebp, ebp                        ; backtraces stop here
	push rbp                            ; a zero return address, ABI stack alignment
	jmp rax

align 16
tr_gdt:
	dq 0
	dq 0x00CF9A000000FFFF               ; SEL_CODE32: 32-bit code, flat
	dq 0x00CF92000000FFFF               ; SEL_DATA: data, flat
	dq 0x00AF9A000000FFFF               ; SEL_CODE64: 64-bit code
tr_gdt_end:
tr_gdtr:
	dw tr_gdt_end - tr_gdt - 1
	dd 0                                ; base: filled in at run time
tr_jump32:
	dd 0                                ; offset: filled in at run time
	dw SEL_CODE32
tr_jump64:
	dd 0                                ; offset: filled in at run time
	dw SEL_CODE64

align 8
ap_trampoline_cr3:   dq 0               ; filled in by smp_boot.c for each AP
ap_trampoline_stack: dq 0
ap_trampoline_entry: dq 0
ap_trampoline_arg:   dq 0
ap_trampoline_end:
