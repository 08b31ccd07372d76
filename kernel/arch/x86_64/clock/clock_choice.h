/* SPDX-License-Identifier: BSD-2-Clause */
/* clock_choice.h — the timing and APIC choices a real machine forces, as
 * portable decisions (no hardware access; host-tested in
 * tests/unit/test_clock_choice.c). The kernel probes (time.c, lapic.c),
 * these functions decide and say why, and the kernel logs the reason. */
#ifndef MOSAIC_ARCH_CLOCK_CHOICE_H
#define MOSAIC_ARCH_CLOCK_CHOICE_H
#include <stddef.h>
#include <stdint.h>

/* One way to learn the TSC frequency. */
struct clock_tsc_ref {
	const char *name;               /* the source, as logged: "HPET" */
	uint64_t (*hz)(uint32_t ms);    /* TSC Hz measured over ms, 0 when absent or broken */
	const char *none;               /* why it gave nothing: "no usable HPET" */
};

/* A TSC frequency outside this range is a broken reference (a PIT that
 * is not there can "measure" well under 1 MHz), not a CPU. */
#define CLOCK_TSC_MIN_HZ 200000000ull
#define CLOCK_TSC_MAX_HZ 10000000000ull

/* Try refs[0..n) in order over ms milliseconds each; the first frequency
 * within CLOCK_TSC_MIN_HZ..CLOCK_TSC_MAX_HZ wins and *source names it.
 * Each reference passed over is reported through note(it, the frequency
 * it gave when that was out of range, else 0, the next one's name or NULL
 * after the last). Returns 0 with *source NULL when none gives one. */
uint64_t clock_tsc_hz_choose(const struct clock_tsc_ref *refs, size_t n, uint32_t ms, const char **source,
			     void (*note)(const struct clock_tsc_ref *ref, uint64_t bad_hz, const char *next));

enum clock_tick_mode {
	CLOCK_TICK_PERIODIC = 1,        /* LAPIC timer periodic, measured against the TSC */
	CLOCK_TICK_TSC_DEADLINE = 2,    /* LAPIC timer in TSC-deadline mode */
};

/* The tick's mode for hz ticks per second: TSC deadline when the CPU has
 * it (has_deadline: CPUID.1:ECX[24]), the command line allows it and the
 * TSC frequency is known and at least hz; then *period is TSC cycles per
 * tick. Else periodic, *period 0. *why is the reason, for the log. */
enum clock_tick_mode clock_tick_choose(int has_deadline, int allowed, uint64_t tsc_hz, uint32_t hz,
				       uint64_t *period, const char **why);

enum clock_apic_mode {
	CLOCK_APIC_XAPIC = 1,           /* MMIO registers, 8-bit APIC ids */
	CLOCK_APIC_X2APIC = 2,          /* MSR registers, 32-bit APIC ids */
};

/* The local APIC's mode: x2APIC when the firmware left it on (going back
 * needs the APIC disabled on every CPU, Intel SDM vol. 3A "x2APIC State
 * Transitions") or when some CPU's APIC id is above 254 and the CPU has
 * x2APIC (has_x2apic: CPUID.1:ECX[21]); else xAPIC. *why is the reason
 * (naming the CPUs left unreachable when ids above 254 exist but x2APIC
 * does not). */
enum clock_apic_mode clock_apic_choose(int firmware_x2apic, int has_x2apic, int ids_above_254,
				       const char **why);
#endif
