/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu_enum.h — enumerate the current CPU from its own CPUID and MSRs into a
 * struct cpu_desc (decoding: cpuid_decode.h).
 */
#ifndef MOSAIC_CPU_ENUM_H
#define MOSAIC_CPU_ENUM_H
#include <lib/cpu_desc.h>

/* Fill *out for the CPU this runs on (call it on every CPU as it comes up,
 * before it takes interrupts or after: it does not care). Each kind of
 * fallback the decoder took is reported once per boot. No locks; touches
 * only *out and a report mask. */
void cpu_enumerate_self(struct cpu_desc *out);

#endif
