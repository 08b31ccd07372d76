/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuid_decode.h — turn one logical CPU's CPUID (and MSR) values into a
 * struct cpu_desc. Portable: the values come through callbacks, so the same
 * code runs in the kernel (executing CPUID on the current CPU) and on the
 * host (replaying a dump). Rules: docs/cpuid.md (after the Intel SDM's
 * CPUID reference, Vol. 2A).
 */
#ifndef MOSAIC_CPUID_DECODE_H
#define MOSAIC_CPUID_DECODE_H
#include <stddef.h>
#include <stdint.h>
#include <lib/cpu_desc.h>

struct cpuid_source {
	/* Fill regs[0..3] = EAX, EBX, ECX, EDX of CPUID(leaf, sub); return 0,
	 * or non-zero when the value is not available (a leaf missing from a
	 * dump). The decoder never asks for a basic or extended leaf above the
	 * reported maximum. */
	int (*get)(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4]);
	/* Optional (may be NULL): read an MSR; 0 on success. Only called for
	 * MSRs that CPUID says exist. */
	int (*msr)(void *ctx, uint32_t msr, uint64_t *value);
	void *ctx;
};

/* Decode the CPU behind src into *out (fully overwritten, source set to
 * CPU_DESC_FROM_CPUID). Never fails: odd values take a documented fallback
 * and set a bit in out->notes. No locking; touches only *out. */
void cpuid_decode(const struct cpuid_source *src, struct cpu_desc *out);

/* cpuid_layout.c: out->layout from the leaves FreeBSD's topology probe
 * reads (cpu_desc.h), max_leaf being CPUID.0:EAX; needs out's apic_id,
 * vendor and family. Called by cpuid_decode(); no locking. */
void cpuid_decode_layout(const struct cpuid_source *src, struct cpu_desc *out, uint32_t max_leaf);

/* Short text for one CPU_DESC_NOTE_* bit ("?" for an unknown bit). */
const char *cpuid_decode_note_text(uint16_t note);
/* "P", "E", "LP-E" or "-". */
const char *cpu_core_type_name(unsigned type);

/* The descriptor columns of the `cpus` table: the header line and one line
 * per CPU (no newline), shared by the shell command (which adds its live
 * columns, online and ticks) and the host replay tool, so both print the
 * same. Return the length as ksnprintf does. */
int cpu_desc_format_header(char *buf, size_t size);
int cpu_desc_format_line(char *buf, size_t size, unsigned cpu, const struct cpu_desc *d);

#endif
