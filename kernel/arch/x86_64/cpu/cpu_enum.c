/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu_enum.c — CPUID enumeration of the current CPU: executes CPUID and
 * RDMSR here and lets the portable decoder (cpuid_decode.c) interpret them.
 */
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/cpu/cpu_enum.h>
#include <arch/x86_64/cpu/cpuid_decode.h>
#include <kern/printk.h>

/* Notes already reported, so a fallback every CPU takes is said once. */
static uint16_t cpu_enum_reported;

static int cpu_enum_get(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	(void)ctx;
	cpuid(leaf, sub, &regs[0], &regs[1], &regs[2], &regs[3]);
	return 0;
}

static int cpu_enum_msr(void *ctx, uint32_t msr, uint64_t *value)
{
	(void)ctx;
	*value = rdmsr(msr);
	return 0;
}

void cpu_enumerate_self(struct cpu_desc *out)
{
	const struct cpuid_source src = { cpu_enum_get, cpu_enum_msr, 0 };

	cpuid_decode(&src, out);
	uint16_t fresh = out->notes & ~__atomic_fetch_or(&cpu_enum_reported, out->notes,
							  __ATOMIC_RELAXED);
	for (unsigned i = 0; i < CPU_DESC_NOTE_COUNT; i++)
		if (fresh & (1u << i))
			printk("cpu: APIC id %u: %s\n", out->apic_id,
			       cpuid_decode_note_text((uint16_t)(1u << i)));
}
