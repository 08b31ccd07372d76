/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_door.c — the emulated platform's side of the MSR/CPUID door
 * (door.h's emul_door_*): each access is offered to the emulated Thread
 * Director (emul_itd.c), then to the emulated RAPL counters (emul_rapl.c),
 * then to the emulated HFI device (emul_hfi.c); the first that owns it
 * answers. They own disjoint MSRs; for CPUID the Thread Director and the
 * HFI device each overwrite only the fields they present (RAPL has no
 * CPUID bit).
 */
#include <arch/x86_64/cpu/door.h>
#include <emul/emul_hfi.h>
#include <emul/emul_itd.h>
#include <emul/emul_rapl.h>

/* See door.h. */
int emul_door_rdmsr(uint32_t msr, uint64_t *v)
{
	int rc = emul_itd_door_rdmsr(msr, v);
	if (!rc)
		rc = emul_rapl_door_rdmsr(msr, v);
	return rc ? rc : emul_hfi_door_rdmsr(msr, v);
}

/* See door.h. */
int emul_door_wrmsr(uint32_t msr, uint64_t v)
{
	return emul_itd_door_wrmsr(msr, v) || emul_rapl_door_wrmsr(msr, v) || emul_hfi_door_wrmsr(msr, v);
}

/* See door.h. */
int emul_door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r)
{
	int itd = emul_itd_door_cpuid(leaf, subleaf, r);
	return emul_hfi_door_cpuid(leaf, subleaf, r) || itd;
}

/* See door.h. */
int emul_door_hreset(uint32_t eax)
{
	return emul_itd_door_hreset(eax);
}

/* See door.h. */
int emul_door_active(void)
{
	return emul_hfi_active() || emul_rapl_active();
}
