/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * door.c — the MSR/CPUID door (door.h). Each call first offers the access
 * to the emulated platform (kernel/emul/emul_door.c: the HFI device, the
 * Thread Director, the RAPL counters), which answers only while a machine
 * description presenting them is applied and only for their own MSRs and
 * CPUID fields; everything else
 * is the RDMSR / WRMSR / CPUID instruction on the calling CPU (Intel SDM
 * vol. 2A, CPUID leaf 06H; vol. 2B, RDMSR and WRMSR). On real hardware
 * the device is never active, so the door is the instructions plus one
 * load of the device's "active" flag.
 */
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/cpu/door.h>

/* See door.h. */
uint64_t door_rdmsr(uint32_t msr)
{
	uint64_t v;
	if (emul_door_rdmsr(msr, &v))
		return v;
	return rdmsr(msr);
}

/* See door.h. */
void door_wrmsr(uint32_t msr, uint64_t v)
{
	if (!emul_door_wrmsr(msr, v))
		wrmsr(msr, v);
}

/* See door.h. */
int door_rdmsr_safe(uint32_t msr, uint64_t *v)
{
	int rc = emul_door_rdmsr(msr, v);
	if (rc)
		return rc < 0 ? -1 : 0;
	return rdmsr_safe(msr, v);
}

/* See door.h. HRESET imm8=0 is F3 0F 3A F0 C0 00 (the assembler may
 * predate it). */
void door_hreset(uint32_t eax)
{
	if (emul_door_hreset(eax))
		return;
	__asm__ volatile(".byte 0xf3, 0x0f, 0x3a, 0xf0, 0xc0, 0x00" ::"a"(eax) : "memory");
}

/* See door.h. The instruction runs first, so the device sees (and keeps)
 * every field it does not present. */
void door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r)
{
	cpuid(leaf, subleaf, &r->eax, &r->ebx, &r->ecx, &r->edx);
	emul_door_cpuid(leaf, subleaf, r);
}

/* See door.h. */
int door_emulated(void)
{
	return emul_door_active();
}
