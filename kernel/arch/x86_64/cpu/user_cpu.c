/* SPDX-License-Identifier: BSD-2-Clause */
/* user_cpu.c — the CPU side of user mode (see user_cpu.h). Facts from the
 * Intel SDM: vol. 2B, SYSCALL and SYSRET (IA32_STAR, IA32_LSTAR,
 * IA32_FMASK, IA32_EFER.SCE); vol. 3A, "Paging", the supervisor-mode
 * execution and access prevention (CR4.SMEP bit 20, CR4.SMAP bit 21,
 * RFLAGS.AC), CR4.UMIP (bit 11); CPUID.(EAX=7,ECX=0):EBX[7] SMEP, EBX[20]
 * SMAP, ECX[2] UMIP. */
#include <arch/x86_64/cpu/user_cpu.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <arch/x86_64/smp/percpu.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/trap/trap.h>

#define MSR_STAR           0xC0000081u
#define MSR_LSTAR          0xC0000082u
#define MSR_FMASK          0xC0000084u
#define MSR_KERNEL_GS_BASE 0xC0000102u
#define EFER_SCE           (1u << 0)
#define CR4_UMIP           (1ull << 11)
#define CR4_SMEP           (1ull << 20)
#define CR4_SMAP           (1ull << 21)
/* Cleared on entry: TF, IF, DF, IOPL, NT, AC. */
#define FMASK_VALUE        ((1u << 8) | (1u << 9) | (1u << 10) | (3u << 12) | (1u << 14) | (1u << 18))
/* SYSCALL: CS = 0x08 (kernel code), SS = 0x10. SYSRET (64-bit): CS = 0x10 +
 * 16 = 0x20 (user code), SS = 0x10 + 8 = 0x18 (user data), both RPL 3: the
 * GDT order of gdt.c. */
#define STAR_VALUE         ((0x10ull << 48) | (0x08ull << 32))

void syscall_entry(void);
extern const char usercopy_start[], usercopy_end[], usercopy_fault[];

/* 1 once CR4.SMAP is on (usercopy.asm executes STAC/CLAC only then: they
 * are invalid opcodes on a CPU without SMAP). */
uint8_t user_smap_on;
static struct user_cpu_features features;

/* One CPU's set-up. smp_call_on()'s handler: interrupts off. */
static void user_cpu_setup(void *arg)
{
	(void)arg;
	wrmsr(MSR_STAR, STAR_VALUE);
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	wrmsr(MSR_FMASK, FMASK_VALUE);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* x87 and SSE for user programs (the kernel itself uses neither):
	 * each thread of a process has its own FXSAVE area (user_cpu_switch).
	 * No XSAVE: AVX state would not be saved, so AVX stays off. */
	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP);
	uint64_t cr4 = (read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT) & ~CR4_OSXSAVE;
	if (features.smep)
		cr4 |= CR4_SMEP;
	if (features.smap)
		cr4 |= CR4_SMAP;
	if (features.umip)
		cr4 |= CR4_UMIP;
	write_cr4(cr4);
}

/* See user_cpu.h. */
void user_cpu_init(struct user_cpu_features *out)
{
	uint32_t a, b, c, d;
	cpuid(0, 0, &a, &b, &c, &d);
	if (a >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		features.smep = (b >> 7) & 1;
		features.smap = (b >> 20) & 1;
		features.umip = (c >> 2) & 1;
	}
	tlb_init();
	for (unsigned cpu = 0; cpu < smp_cpu_count(); cpu++)
		if (smp_cpu_online(cpu) && smp_call_on(cpu, user_cpu_setup, NULL))
			printk("user: cpu %u did not take the system-call set-up\n", cpu);
	__atomic_store_n(&user_smap_on, (uint8_t)features.smap, __ATOMIC_RELEASE);
	*out = features;
}

/* See user_cpu.h. */
void user_cpu_switch(void *prev_fpu, void *next_fpu, uint64_t next_cr3, uint64_t next_stack_top)
{
	uint64_t cr3 = vmm_kernel_cr3();
	if (prev_fpu)
		fxsave64(prev_fpu);
	if (next_fpu) {
		struct percpu *p = percpu_self();
		fxrstor64(next_fpu);
		cr3 = next_cr3;
		p->kernel_rsp = next_stack_top;
		gdt_set_rsp0(p->cpu, next_stack_top);
	}
	if (read_cr3() != cr3) {
		tlb_note_cr3(next_fpu ? cr3 : 0);
		write_cr3(cr3);
	}
}

/* See user_cpu.h. */
int user_copy_fixup(struct trap_frame *tf)
{
	if ((tf->vector != 14 && tf->vector != 13) || tf->rip < (uint64_t)usercopy_start ||
	    tf->rip >= (uint64_t)usercopy_end)
		return 0;
	tf->rip = (uint64_t)usercopy_fault;
	return 1;
}
