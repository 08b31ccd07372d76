/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the HFI driver's detection and enable sequence
 * (kernel/dev/hfi/hfi_start.c, hfi_table.c) on the scripted
 * machine of hfi_fake.h: the order of the steps (LVT masked, linked, then
 * unmasked; PTR before CONFIG), Thread Director only with several classes,
 * the reasons for "not supported", firmware-owned LVTs, rows beyond the
 * table, a stale status bit, CPUs that do not answer, several packages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <tests/unit/hfi_fake.h>

static struct hfi_drv drv;

/* Trace index of "cpuN <what>" (what: e.g. "lvt 0x100fa"). */
static int at(unsigned cpu, const char *what)
{
	char s[64];
	snprintf(s, sizeof(s), "cpu%u %s", cpu, what);
	return fake_trace_find(s, 0);
}

static void test_enable_order(void **state)
{
	(void)state;
	fake_reset(4, &drv);
	assert_int_equal(fake_start(&drv), 0);
	int ptr = fake_trace_find("wrmsr 0x17d0", 0), config = fake_trace_find("wrmsr 0x17d1", 0);
	assert_true(ptr >= 0 && config > ptr);
	assert_string_equal(fake.trace[ptr], "cpu0 wrmsr 0x17d0 0x100001");   /* table | valid */
	assert_string_equal(fake.trace[config], "cpu0 wrmsr 0x17d1 0x3");     /* HFI + ITD */
	for (unsigned i = 0; i < 4; i++) {
		int masked = at(i, "lvt 0x100fa"), unmasked = at(i, "lvt 0xfa");
		assert_true(masked >= 0 && unmasked > masked);
		assert_true(unmasked < config);   /* no interrupt of the enable is lost */
		assert_int_equal(fake.lvt[i], 0xFA);
		assert_int_equal(drv.cpu[i].linked, 1);
		assert_int_equal(drv.cpu[i].row, (int)i / 2);
	}
	assert_int_equal(fake.unmasked_unlinked, 0);
	assert_int_equal(fake.config_before_ptr, 0);
	assert_int_equal(fake.faults, 0);
	assert_true(fake.pkg[0].intr & HFI_THERM_INT_HFI);
	assert_int_equal(drv.on, 1);
	assert_int_equal(drv.rows_used, 2);
	assert_int_equal(drv.itd_on, 1);
	assert_int_equal(drv.lay.ncls, 4);
	assert_int_equal(drv.lay.row_stride, 8);
	assert_int_equal(drv.lay.rows_off, 16);
	assert_int_equal(drv.lay.rows_fit, 510);
	assert_int_equal(fake.hmp_active, 1);
	assert_string_equal(fake.hmp_why, "table of 2 rows, 4 classes; no update yet");
	assert_int_equal(fake.nlog, 0);
	fake_free();
}

/* An enable bit already set in IA32_PACKAGE_THERM_INTERRUPT is left alone:
 * read-modify-write, never a write that drops other bits. */
static void test_interrupt_enable_rmw(void **state)
{
	(void)state;
	fake_reset(2, &drv);
	fake.pkg[0].intr = 0x3;   /* high/low temperature interrupts, firmware's */
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(fake.pkg[0].intr, 0x3 | HFI_THERM_INT_HFI);
	fake_free();
}

static void test_itd_needs_classes(void **state)
{
	(void)state;
	fake_reset(2, &drv);   /* ITD enumerated, one class: HFI only */
	fake_set_leaf6(HFI_CPUID6_EAX_HFI | HFI_CPUID6_EAX_ITD | HFI_CPUID6_EAX_PTS, 1u << 8, 0x3, NULL);
	assert_int_equal(fake_start(&drv), 0);
	assert_true(fake_trace_find("wrmsr 0x17d1 0x1", 0) >= 0);
	assert_int_equal(drv.lay.ncls, 1);
	fake_free();

	fake_reset(2, &drv);   /* four classes, no ITD bit */
	fake_set_leaf6(HFI_CPUID6_EAX_HFI | HFI_CPUID6_EAX_PTS, 4u << 8, 0x3, NULL);
	assert_int_equal(fake_start(&drv), 0);
	assert_true(fake_trace_find("wrmsr 0x17d1 0x1", 0) >= 0);
	assert_int_equal(drv.itd_on, 0);
	assert_int_equal(drv.lay.ncls, 1);
	assert_string_equal(fake.hmp_why, "table of 1 row, 1 class; no update yet");
	fake_free();

	fake_reset(2, &drv);   /* eight classes: rows of 16 bytes */
	fake_set_leaf6(HFI_CPUID6_EAX_HFI | HFI_CPUID6_EAX_ITD, 8u << 8, 0x103, NULL);
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(drv.lay.row_stride, 16);
	assert_int_equal(drv.lay.size, 8192);
	assert_int_equal(drv.lay.rows_fit, (8192 - 24) / 16);
	fake_free();
}

/* Nothing is written anywhere when the interface is not there. */
static void expect_unsupported(const char *why)
{
	assert_int_equal(fake_start(&drv), -1);
	assert_string_equal(drv.why, why);
	assert_string_equal(fake.hmp_why, why);
	assert_int_equal(fake.hmp_active, 0);
	assert_int_equal(fake_trace_find("wrmsr", 0), -1);
	assert_int_equal(fake_trace_find("lvt", 0), -1);
	assert_int_equal(drv.on, 0);
}

static void test_not_supported(void **state)
{
	(void)state;
	fake_reset(2, &drv);
	fake_set_leaf6(HFI_CPUID6_EAX_PTS | 0x4, 0, 0, NULL);
	expect_unsupported("not supported: CPUID.06H:EAX[19] clear");

	fake_reset(2, &drv);   /* leaf 6 beyond the maximum is not even read */
	fake.leaf0.eax = 5;
	expect_unsupported("not supported: CPUID max basic leaf 0x5 is below 0x6");
	assert_int_equal(fake.cpuid6_reads, 0);

	fake_reset(2, &drv);
	fake_set_leaf6(HFI_CPUID6_EAX_HFI, 0, 0x2, NULL);
	expect_unsupported("not supported: no performance capability (CPUID.06H:EDX[0] clear)");
}

static void test_firmware_lvt(void **state)
{
	(void)state;
	fake_reset(4, &drv);
	fake.lvt[0] = HFI_LVT_DM_SMI;             /* SMI delivery... */
	fake.misc_enable[0] = HFI_MISC_ENABLE_TM1;   /* ...and TM1: firmware's */
	fake.lvt[1] = HFI_LVT_DM_SMI;             /* SMI without TM1: ours */
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(at(0, "lvt"), -1);
	assert_int_equal(fake.lvt[0], HFI_LVT_DM_SMI);
	assert_int_equal(drv.cpu[0].lvt, HFI_LVT_FIRMWARE);
	assert_int_equal(fake_log_count("cpu 0: firmware owns the thermal interrupt"), 1);
	assert_int_equal(fake.lvt[1], 0xFA);
	assert_int_equal(drv.cpu[1].lvt, HFI_LVT_OURS);
	assert_int_equal(drv.pkg[0].irq_cpus, 3);
	assert_true(fake_trace_find("cpu1 wrmsr 0x17d0", 0) >= 0);   /* enabled on a CPU of ours */
	fake_free();

	fake_reset(2, &drv);   /* no CPU takes the interrupt: left off */
	fake.lvt_absent[0] = fake.lvt_absent[1] = 1;
	assert_int_equal(fake_start(&drv), -1);
	assert_int_equal(fake_log_count("no CPU takes the thermal interrupt"), 1);
	assert_int_equal(fake_trace_find("wrmsr 0x17d1", 0), -1);
	assert_string_equal(fake.hmp_why, "off: no package could be enabled");
	fake_free();
}

static void test_rows_beyond_table(void **state)
{
	(void)state;
	fake_reset(4, &drv);
	int rows[FAKE_CPUS] = { 0, 0, 1, 0xFFFF };
	fake_set_leaf6(HFI_CPUID6_EAX_HFI | HFI_CPUID6_EAX_PTS, 0, 0x3, rows);
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(drv.cpu[3].row_ok, 0);
	assert_int_equal(drv.cpu[3].linked, 1);   /* it still takes the interrupt */
	assert_int_equal(drv.rows_used, 2);
	assert_int_equal(fake_log_count("cpu 3: row 65535 does not fit the table (510 rows fit"), 1);
	assert_int_equal(fake.nlog, 1);
	fake_free();
}

static void test_stale_status(void **state)
{
	(void)state;
	fake_reset(2, &drv);
	fake.pkg[0].status = HFI_STATUS_CHANGED | 0x2;   /* and a PROCHOT log, not ours */
	assert_int_equal(fake_start(&drv), 0);
	int ack = fake_trace_find("wrmsr 0x1b1 0xaaa", 0);
	assert_true(ack >= 0 && ack < fake_trace_find("wrmsr 0x17d0", 0));
	assert_int_equal(fake.pkg[0].status, 0x2);
	assert_int_equal(fake.cleared_other_logs, 0);
	assert_int_equal(fake_log_count("status bit 26 was already set"), 1);
	fake_free();
}

static void test_cpu_does_not_answer(void **state)
{
	(void)state;
	fake_reset(4, &drv);
	fake.run_fails[2] = 1;
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(fake_log_count("cpu 2 did not answer"), 1);
	assert_int_equal(drv.cpu[2].linked, 0);
	assert_int_equal(drv.cpu[3].linked, 1);
	assert_int_equal(at(2, "lvt"), -1);
	fake_free();

	fake_reset(2, &drv);
	fake.alloc_fails = 1;
	assert_int_equal(fake_start(&drv), -1);
	assert_int_equal(fake_log_count("out of memory"), 1);
	assert_int_equal(fake_trace_find("lvt 0xfa", 0), -1);   /* never unmasked */
	fake_free();
}

static void test_packages(void **state)
{
	(void)state;
	fake_reset(4, &drv);
	fake.pkg_of[2] = fake.pkg_of[3] = 1;
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(drv.npkg, 2);
	assert_int_equal(drv.pkg[1].first_cpu, 2);
	assert_true(drv.pkg[0].table != drv.pkg[1].table);
	assert_true(fake_trace_find("cpu0 wrmsr 0x17d0 0x100001", 0) >= 0);
	assert_true(fake_trace_find("cpu2 wrmsr 0x17d0 0x300001", 0) >= 0);
	assert_int_equal(fake.pkg[1].config, 0x3);
	assert_int_equal(drv.cpu[3].pkg, 1);
	fake_free();
}

/* CONFIG found enabled (a previous kernel): reprogrammed and said. */
static void test_already_enabled(void **state)
{
	(void)state;
	fake_reset(2, &drv);
	fake.pkg[0].ptr = 0x5000 | HFI_PTR_VALID;
	fake.pkg[0].config = HFI_CONFIG_ENABLE;
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(fake.pkg[0].ptr, 0x100001);
	assert_int_equal(fake_log_count("IA32_HW_FEEDBACK_CONFIG was already enabled"), 1);
	fake_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enable_order),
		cmocka_unit_test(test_interrupt_enable_rmw),
		cmocka_unit_test(test_itd_needs_classes),
		cmocka_unit_test(test_not_supported),
		cmocka_unit_test(test_firmware_lvt),
		cmocka_unit_test(test_rows_beyond_table),
		cmocka_unit_test(test_stale_status),
		cmocka_unit_test(test_cpu_does_not_answer),
		cmocka_unit_test(test_packages),
		cmocka_unit_test(test_already_enabled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
