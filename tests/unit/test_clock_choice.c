/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the platform timing choices (kernel/arch/x86_64/clock/clock_choice.c):
 * the TSC reference chain with fake references, the tick's mode, the
 * local APIC's mode. The x2APIC and TSC-deadline paths cannot run under
 * QEMU TCG, so these decisions are tested here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <arch/x86_64/clock/clock_choice.h>

static char notes[512];
static int calls[5];
static uint32_t seen_ms;

/* Record each note as "none>next|", or "name=HZ>next|" for a frequency
 * out of range. */
static void note(const struct clock_tsc_ref *ref, uint64_t bad_hz, const char *next)
{
	size_t l = strlen(notes);
	if (bad_hz)
		snprintf(notes + l, sizeof(notes) - l, "%s=%llu>%s|", ref->name, (unsigned long long)bad_hz,
			 next ? next : "-");
	else
		snprintf(notes + l, sizeof(notes) - l, "%s>%s|", ref->none, next ? next : "-");
}

static uint64_t hz_of[5];
#define REF(i) static uint64_t ref##i(uint32_t ms) { calls[i]++; seen_ms = ms; return hz_of[i]; }
REF(0)
REF(1)
REF(2)
REF(3)
REF(4)

static const struct clock_tsc_ref refs[] = {
	{ "CPUID 0x15", ref0, "no crystal" },
	{ "HPET", ref1, "no usable HPET" },
	{ "ACPI PM timer", ref2, "no usable ACPI PM timer" },
	{ "PIT", ref3, "PIT does not count" },
	{ "CPUID 0x16", ref4, "no base frequency" },
};

static int setup(void **state)
{
	(void)state;
	memset(notes, 0, sizeof(notes));
	memset(calls, 0, sizeof(calls));
	memset(hz_of, 0, sizeof(hz_of));
	seen_ms = 0;
	return 0;
}

static void test_first_reference_wins_silently(void **state)
{
	(void)state;
	const char *src;
	hz_of[0] = 1900000000;
	hz_of[1] = 2000000000;
	assert_int_equal(clock_tsc_hz_choose(refs, 5, 50, &src, note), 1900000000);
	assert_string_equal(src, "CPUID 0x15");
	assert_string_equal(notes, "");
	assert_int_equal(calls[1], 0);
}

/* A NUC-like platform without HPET or PIT: the PM timer measures, and
 * every reference passed over is named with the next one tried. */
static void test_no_hpet_falls_to_pm_timer(void **state)
{
	(void)state;
	const char *src;
	hz_of[2] = 2600000000;
	hz_of[3] = 2500000000;
	assert_int_equal(clock_tsc_hz_choose(refs, 5, 50, &src, note), 2600000000);
	assert_string_equal(src, "ACPI PM timer");
	assert_string_equal(notes, "no crystal>HPET|no usable HPET>ACPI PM timer|");
	assert_int_equal(seen_ms, 50);
	assert_int_equal(calls[3], 0);
}

static void test_only_nominal_frequency(void **state)
{
	(void)state;
	const char *src;
	hz_of[4] = 1800000000;
	assert_int_equal(clock_tsc_hz_choose(refs, 5, 50, &src, note), 1800000000);
	assert_string_equal(src, "CPUID 0x16");
	assert_string_equal(notes, "no crystal>HPET|no usable HPET>ACPI PM timer|"
				   "no usable ACPI PM timer>PIT|PIT does not count>CPUID 0x16|");
}

static void test_nothing_gives_a_frequency(void **state)
{
	(void)state;
	const char *src = "stale";
	assert_int_equal(clock_tsc_hz_choose(refs, 5, 50, &src, note), 0);
	assert_null(src);
	assert_non_null(strstr(notes, "no base frequency>-|"));
	for (int i = 0; i < 5; i++)
		assert_int_equal(calls[i], 1);
	assert_int_equal(clock_tsc_hz_choose(refs, 0, 50, &src, note), 0);
	assert_null(src);
}

/* QEMU with pit=off: the missing PIT "measures" 0.651 MHz. Such a value,
 * or an absurdly high one, is passed over and named; the bounds hold. */
static void test_implausible_frequency_passed_over(void **state)
{
	(void)state;
	const char *src;
	hz_of[1] = CLOCK_TSC_MAX_HZ + 1;
	hz_of[3] = 651000;
	hz_of[4] = CLOCK_TSC_MIN_HZ;
	assert_int_equal(clock_tsc_hz_choose(refs, 5, 50, &src, note), CLOCK_TSC_MIN_HZ);
	assert_string_equal(src, "CPUID 0x16");
	assert_string_equal(notes, "no crystal>HPET|HPET=10000000001>ACPI PM timer|"
				   "no usable ACPI PM timer>PIT|PIT=651000>CPUID 0x16|");
	setup(NULL);
	hz_of[0] = CLOCK_TSC_MIN_HZ - 1;
	hz_of[1] = CLOCK_TSC_MAX_HZ;
	assert_int_equal(clock_tsc_hz_choose(refs, 5, 50, &src, note), CLOCK_TSC_MAX_HZ);
	assert_string_equal(src, "HPET");
	assert_string_equal(notes, "CPUID 0x15=199999999>HPET|");
}

static void test_tick_deadline_where_offered(void **state)
{
	(void)state;
	uint64_t period = 7;
	const char *why;
	assert_int_equal(clock_tick_choose(1, 1, 2600000000ull, 100, &period, &why), CLOCK_TICK_TSC_DEADLINE);
	assert_int_equal(period, 26000000);
	assert_non_null(strstr(why, "CPUID.1:ECX[24]"));
}

static void test_tick_periodic_reasons(void **state)
{
	(void)state;
	uint64_t period = 7;
	const char *why;
	assert_int_equal(clock_tick_choose(0, 1, 2600000000ull, 100, &period, &why), CLOCK_TICK_PERIODIC);
	assert_int_equal(period, 0);
	assert_string_equal(why, "no TSC-deadline mode (CPUID.1:ECX[24])");
	period = 7;
	assert_int_equal(clock_tick_choose(1, 0, 2600000000ull, 100, &period, &why), CLOCK_TICK_PERIODIC);
	assert_int_equal(period, 0);
	assert_string_equal(why, "TSC-deadline mode off (tsc_deadline=off)");
	/* Never a zero period: an unknown or absurd TSC rate keeps the periodic timer. */
	assert_int_equal(clock_tick_choose(1, 1, 0, 100, &period, &why), CLOCK_TICK_PERIODIC);
	assert_int_equal(clock_tick_choose(1, 1, 99, 100, &period, &why), CLOCK_TICK_PERIODIC);
	assert_int_equal(clock_tick_choose(1, 1, 2600000000ull, 0, &period, &why), CLOCK_TICK_PERIODIC);
	assert_int_equal(period, 0);
	assert_int_equal(clock_tick_choose(1, 1, 100, 100, &period, &why), CLOCK_TICK_TSC_DEADLINE);
	assert_int_equal(period, 1);
}

static void test_apic_left_on_by_firmware(void **state)
{
	(void)state;
	const char *why;
	/* Left on: kept, whatever the ids (leaving needs the APIC disabled). */
	assert_int_equal(clock_apic_choose(1, 1, 0, &why), CLOCK_APIC_X2APIC);
	assert_string_equal(why, "left on by the firmware");
	assert_int_equal(clock_apic_choose(1, 1, 1, &why), CLOCK_APIC_X2APIC);
	assert_string_equal(why, "left on by the firmware");
}

static void test_apic_ids_above_254(void **state)
{
	(void)state;
	const char *why;
	assert_int_equal(clock_apic_choose(0, 1, 1, &why), CLOCK_APIC_X2APIC);
	assert_string_equal(why, "switched on: APIC ids above 254");
	assert_int_equal(clock_apic_choose(0, 0, 1, &why), CLOCK_APIC_XAPIC);
	assert_non_null(strstr(why, "unreachable"));
	assert_int_equal(clock_apic_choose(0, 1, 0, &why), CLOCK_APIC_XAPIC);
	assert_string_equal(why, "as the firmware left it");
	assert_int_equal(clock_apic_choose(0, 0, 0, &why), CLOCK_APIC_XAPIC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_first_reference_wins_silently, setup),
		cmocka_unit_test_setup(test_no_hpet_falls_to_pm_timer, setup),
		cmocka_unit_test_setup(test_only_nominal_frequency, setup),
		cmocka_unit_test_setup(test_nothing_gives_a_frequency, setup),
		cmocka_unit_test_setup(test_implausible_frequency_passed_over, setup),
		cmocka_unit_test(test_tick_deadline_where_offered),
		cmocka_unit_test(test_tick_periodic_reasons),
		cmocka_unit_test(test_apic_left_on_by_firmware),
		cmocka_unit_test(test_apic_ids_above_254),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
