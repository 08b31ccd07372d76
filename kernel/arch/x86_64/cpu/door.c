/*
 * door.c — the MSR/CPUID door (door.h). Each call first offers the access
 * to the emulated HFI device (kernel/emul/emul_hfi.c), which
 * answers only while a machine description with HFI rows is applied and
 * only for its own MSRs and CPUID leaf 06H's HFI fields; everything else
 * is the RDMSR / WRMSR / CPUID instruction on the calling CPU (Intel SDM
 * vol. 2A, CPUID leaf 06H; vol. 2B, RDMSR and WRMSR). On real hardware
 * the device is never active, so the door is the instructions plus one
 * load of the device's "active" flag.
 */
#include <cpu.h>
#include "door.h"

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
