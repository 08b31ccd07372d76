/* SPDX-License-Identifier: BSD-2-Clause */
/* time.c — TSC-based monotonic time (the periodic tick is tick.c's).
 *
 * The TSC frequency comes from the first source that gives one:
 * CPUID leaf 0x15 (exact on Intel parts that enumerate the crystal), the
 * HPET, the ACPI PM timer, PIT channel 2, and as a last resort CPUID
 * 0x16's nominal base frequency; each source passed over is logged.
 * Calls nothing above arch: every layer reads the time. */
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/clock/hpet.h>
#include <arch/x86_64/clock/pit.h>
#include <arch/x86_64/clock/pmtimer.h>
#include <arch/x86_64/clock/clock_choice.h>
#include <kern/printk.h>
#include <kern/panic.h>
#include <arch/x86_64/smp/percpu.h>

#define CALIBRATE_MS 50

static uint64_t tsc_hz;
static uint64_t tsc_base;
static uint64_t ns_mult;          /* ns = (tsc delta * ns_mult) >> 32 */

/* Highest CPUID leaf of the range starting at base (0 or 0x80000000). */
static uint32_t cpuid_max_leaf(uint32_t base)
{
	uint32_t a, b, c, d;
	cpuid(base, 0, &a, &b, &c, &d);
	return a;
}

/* TSC Hz from CPUID 0x15 (crystal Hz * EBX / EAX), 0 if not enumerated. */
static uint64_t tsc_hz_from_cpuid15(void)
{
	if (cpuid_max_leaf(0) < 0x15)
		return 0;
	uint32_t den, num, crystal, d;
	cpuid(0x15, 0, &den, &num, &crystal, &d);
	if (den == 0 || num == 0 || crystal == 0)
		return 0;
	return (uint64_t)crystal * num / den;
}

/* Nominal base frequency from CPUID 0x16 (MHz), 0 if not enumerated. */
static uint64_t tsc_hz_from_cpuid16(void)
{
	if (cpuid_max_leaf(0) < 0x16)
		return 0;
	uint32_t mhz, b, c, d;
	cpuid(0x16, 0, &mhz, &b, &c, &d);
	return (uint64_t)(mhz & 0xFFFF) * 1000000;
}

/* CPUID 0x80000007 EDX[8]: the TSC ticks at a constant rate in all states. */
static int tsc_is_invariant(void)
{
	if (cpuid_max_leaf(0x80000000) < 0x80000007)
		return 0;
	uint32_t a, b, c, d;
	cpuid(0x80000007, 0, &a, &b, &c, &d);
	return (d >> 8) & 1;
}

/* CPUID 0x15 as a TSC reference (nothing to measure: ms unused). */
static uint64_t ref_cpuid15(uint32_t ms)
{
	(void)ms;
	return tsc_hz_from_cpuid15();
}

/* CPUID 0x16's nominal frequency as the last resort (ms unused). */
static uint64_t ref_cpuid16(uint32_t ms)
{
	(void)ms;
	return tsc_hz_from_cpuid16();
}

/* The TSC references in the order they are tried (clock_choice.c). */
static const struct clock_tsc_ref tsc_refs[] = {
	{ "CPUID 0x15", ref_cpuid15, "CPUID 0x15 gives no crystal frequency" },
	{ "HPET", hpet_measure_tsc_hz, "no usable HPET" },
	{ "ACPI PM timer", pmtimer_measure_tsc_hz, "no usable ACPI PM timer" },
	{ "PIT", pit_measure_tsc_hz, "PIT channel 2 does not count" },
	{ "CPUID 0x16 nominal (uncalibrated)", ref_cpuid16, "no CPUID 0x16 base frequency" },
};

/* Log one reference passed over, why, and the next one tried. */
static void time_ref_note(const struct clock_tsc_ref *ref, uint64_t bad_hz, const char *next)
{
	const char *sep = next ? "; trying " : "";
	if (!next)
		next = "";
	if (bad_hz)
		printk("time: %s gives a TSC of %lu.%03lu MHz, outside %lu..%lu MHz, not used%s%s\n", ref->name,
		       bad_hz / 1000000, bad_hz / 1000 % 1000, (uint64_t)(CLOCK_TSC_MIN_HZ / 1000000),
		       (uint64_t)(CLOCK_TSC_MAX_HZ / 1000000), sep, next);
	else
		printk("time: %s%s%s\n", ref->none, sep, next);
}

/* See time.h. Boot-time, single CPU, interrupts off. */
void time_init(void)
{
	const char *source;
	uint64_t hz = clock_tsc_hz_choose(tsc_refs, sizeof(tsc_refs) / sizeof(tsc_refs[0]), CALIBRATE_MS,
					  &source, time_ref_note);
	if (!hz)
		panic("time: no way to learn the TSC frequency (no CPUID 0x15/0x16, HPET, ACPI PM timer or PIT)");
	ns_mult = (1000000000ull << 32) / hz;
	tsc_base = rdtsc();
	__atomic_store_n(&tsc_hz, hz, __ATOMIC_RELEASE);
	printk("time: TSC %lu.%03lu MHz from %s%s\n", hz / 1000000, hz / 1000 % 1000, source,
	       tsc_is_invariant() ? ", invariant" : ", not invariant");
}

/* See time.h. 0 before time_init(). */
uint64_t time_ns(void)
{
	if (__atomic_load_n(&tsc_hz, __ATOMIC_ACQUIRE) == 0)
		return 0;
	uint64_t delta = rdtsc() - tsc_base;
	return (uint64_t)(((unsigned __int128)delta * ns_mult) >> 32);
}

/* See time.h. Needs time_init(): there is no honest delay without a clock. */
void time_udelay(uint64_t us)
{
	uint64_t hz = __atomic_load_n(&tsc_hz, __ATOMIC_ACQUIRE);
	KASSERT(hz != 0, "time_udelay before time_init");
	uint64_t cycles = us * ((hz + 999999) / 1000000);
	uint64_t t0 = rdtsc();
	while (rdtsc() - t0 < cycles)
		cpu_pause();
}

/* See time.h. */
uint64_t time_tsc_hz(void)
{
	return __atomic_load_n(&tsc_hz, __ATOMIC_ACQUIRE);
}

/* See time.h. */
uint64_t time_ticks(void)
{
	return __atomic_load_n(&percpu_get(0)->ticks, __ATOMIC_RELAXED);
}
