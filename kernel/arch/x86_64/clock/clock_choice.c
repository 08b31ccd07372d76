/* SPDX-License-Identifier: BSD-2-Clause */
/* clock_choice.c — see clock_choice.h. Portable C, no kernel calls. */
#include <arch/x86_64/clock/clock_choice.h>

/* See clock_choice.h. */
uint64_t clock_tsc_hz_choose(const struct clock_tsc_ref *refs, size_t n, uint32_t ms, const char **source,
			     void (*note)(const struct clock_tsc_ref *ref, uint64_t bad_hz, const char *next))
{
	for (size_t i = 0; i < n; i++) {
		uint64_t hz = refs[i].hz(ms);
		if (hz >= CLOCK_TSC_MIN_HZ && hz <= CLOCK_TSC_MAX_HZ) {
			*source = refs[i].name;
			return hz;
		}
		note(&refs[i], hz, i + 1 < n ? refs[i + 1].name : NULL);
	}
	*source = NULL;
	return 0;
}

/* See clock_choice.h. */
enum clock_tick_mode clock_tick_choose(int has_deadline, int allowed, uint64_t tsc_hz, uint32_t hz,
				       uint64_t *period, const char **why)
{
	*period = 0;
	if (!has_deadline) {
		*why = "no TSC-deadline mode (CPUID.1:ECX[24])";
		return CLOCK_TICK_PERIODIC;
	}
	if (!allowed) {
		*why = "TSC-deadline mode off (tsc_deadline=off)";
		return CLOCK_TICK_PERIODIC;
	}
	if (hz == 0 || tsc_hz < hz) {
		*why = "TSC frequency unknown or below the tick rate";
		return CLOCK_TICK_PERIODIC;
	}
	*period = tsc_hz / hz;
	*why = "the CPU has it (CPUID.1:ECX[24])";
	return CLOCK_TICK_TSC_DEADLINE;
}

/* See clock_choice.h. */
enum clock_apic_mode clock_apic_choose(int firmware_x2apic, int has_x2apic, int ids_above_254,
				       const char **why)
{
	if (firmware_x2apic) {
		*why = "left on by the firmware";
		return CLOCK_APIC_X2APIC;
	}
	if (ids_above_254 && has_x2apic) {
		*why = "switched on: APIC ids above 254";
		return CLOCK_APIC_X2APIC;
	}
	if (ids_above_254) {
		*why = "APIC ids above 254 but no x2APIC (CPUID.1:ECX[21]): those CPUs stay unreachable";
		return CLOCK_APIC_XAPIC;
	}
	*why = "as the firmware left it";
	return CLOCK_APIC_XAPIC;
}
