/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the HFI driver's interrupt path and publication
 * (kernel/dev/hfi/hfi_event.c, hfi_publish.c) on the scripted
 * machine of hfi_fake.h: the acknowledgement value, one CPU per package
 * handling an update, unchanged timestamps (still acknowledged), a
 * timestamp going backwards, shared rows, an all-zero table, rows beyond
 * the table, a storm coalesced by the rate limit, a class count that
 * changes, the other classes kept in the local copy. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <tests/unit/hfi_fake.h>

#define MS 1000000ull

static struct hfi_drv drv;

/* A started 4-CPU machine (rows 0, 0, 1, 1; ITD with 4 classes). */
static void start4(void)
{
	fake_reset(4, &drv);
	assert_int_equal(fake_start(&drv), 0);
	fake.ntrace = 0;
}

/* The thermal interrupt on cpu (the door acts on the calling CPU). */
static int event(int cpu)
{
	fake.self = cpu >= 0 && cpu < FAKE_CPUS ? (unsigned)cpu : 0;
	return hfi_event(&drv, cpu);
}

/* The hardware writes rows 0 and 1, then the interrupt reaches cpu. */
static int update(uint64_t ts, uint8_t p0, uint8_t e0, uint8_t p1, uint8_t e1, int cpu)
{
	const uint8_t perf[2] = { p0, p1 }, ee[2] = { e0, e1 };
	fake_hw_write(&drv, 0, ts, perf, ee, 2);
	return event(cpu);
}

/* 1 in every implemented log bit but 26, with and without PTS; other
 * drivers' log bits survive the acknowledgement; no fault either way. */
static void test_ack_mask(void **state)
{
	(void)state;
	struct hfi_features f = { .hfi = 1, .pts = 1 };
	assert_int_equal(hfi_ack_value(&f), 0xAAA);
	f.pts = 0;
	assert_int_equal(hfi_ack_value(&f), 0);

	start4();
	fake.pkg[0].status = 0x882;   /* PROCHOT, threshold and power-limit logs */
	assert_int_equal(update(100, 200, 50, 100, 150, 0), 1);
	assert_int_equal(fake.pkg[0].status, 0x882);
	assert_int_equal(fake.cleared_other_logs, 0);
	assert_int_equal(fake.faults, 0);
	assert_true(fake_trace_find("wrmsr 0x1b1 0xaaa", 0) >= 0);
	fake_free();

	fake_reset(4, &drv);   /* no PTS: bit 26 is the only bit, written 0 */
	fake_set_leaf6(HFI_CPUID6_EAX_HFI, 0, 0x3, NULL);
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(update(100, 200, 50, 100, 150, 0), 1);
	assert_true(fake_trace_find("wrmsr 0x1b1 0x0", 0) >= 0);
	assert_int_equal(fake.pkg[0].status, 0);
	assert_int_equal(fake.faults, 0);
	fake_free();
}

/* One CPU copies and acknowledges; CPUs sharing a row get the same
 * scores, x 4; the other CPUs of the package find bit 26 clear. */
static void test_update_shared_rows(void **state)
{
	(void)state;
	start4();
	assert_int_equal(hfi_publish_pending(&drv), 0);
	assert_int_equal(update(100, 200, 50, 100, 150, 1), 1);
	assert_int_equal(fake.pkg[0].status & HFI_STATUS_CHANGED, 0);
	for (int cpu = 0; cpu < 4; cpu++)
		if (cpu != 1)
			assert_int_equal(event(cpu), 0);
	const struct hfi_pkg *p = &drv.pkg[0];
	assert_int_equal(p->interrupts, 4);
	assert_int_equal(p->updates, 1);
	assert_int_equal(p->spurious, 3);
	assert_int_equal(hfi_copy_timestamp(&drv, 0), 100);
	assert_int_equal(fake.hmp_publishes, 0);   /* nothing from the interrupt itself */

	assert_int_equal(hfi_publish_pending(&drv), 1);
	assert_int_equal(hfi_publish_step(&drv, 1000 * MS), 0);
	assert_int_equal(fake.hmp_publishes, 1);
	const int perf[4] = { 800, 800, 400, 400 }, ee[4] = { 200, 200, 600, 600 };
	for (int cpu = 0; cpu < 4; cpu++) {
		assert_int_equal(fake.hmp_perf[cpu], perf[cpu]);
		assert_int_equal(fake.hmp_ee[cpu], ee[cpu]);
		assert_int_equal(fake.hmp_mask[cpu], 0x6);   /* HMP_PERF | HMP_EE */
		assert_int_equal(drv.cpu[cpu].perf, perf[cpu]);
	}
	assert_string_equal(fake.hmp_why, "table of 2 rows, 4 classes");
	assert_int_equal(hfi_publish_pending(&drv), 0);
	assert_int_equal(drv.publications + drv.coalesced, p->updates);
	fake_free();
}

/* The trylock: while another CPU of the package handles it, return at once. */
static void test_busy(void **state)
{
	(void)state;
	start4();
	drv.pkg[0].event_lock = 1;
	assert_int_equal(update(100, 1, 1, 1, 1, 2), 0);
	assert_int_equal(drv.pkg[0].busy, 1);
	assert_int_equal(fake_trace_find("rdmsr", 0), -1);
	drv.pkg[0].event_lock = 0;
	assert_int_equal(event(2), 1);
	fake_free();
}

/* Same timestamp: nothing copied, but acknowledged (else the hardware
 * never writes again). */
static void test_unchanged_still_acked(void **state)
{
	(void)state;
	start4();
	assert_int_equal(update(100, 200, 50, 100, 150, 0), 1);
	fake.pkg[0].status |= HFI_STATUS_CHANGED;
	int before = fake.ntrace;
	assert_int_equal(event(3), 0);
	assert_int_equal(drv.pkg[0].unchanged, 1);
	assert_int_equal(drv.pkg[0].updates, 1);
	assert_int_equal(fake.pkg[0].status & HFI_STATUS_CHANGED, 0);
	assert_true(fake_trace_find("cpu3 wrmsr 0x1b1 0xaaa", before) >= 0);
	/* A table never written (timestamp 0) at the enable's interrupt. */
	start4();
	fake.pkg[0].status |= HFI_STATUS_CHANGED;
	assert_int_equal(event(0), 0);
	assert_int_equal(drv.pkg[0].unchanged, 1);
	assert_int_equal(fake.pkg[0].status, 0);
	fake_free();
}

static void test_timestamp_backwards(void **state)
{
	(void)state;
	start4();
	assert_int_equal(update(100, 200, 50, 100, 150, 0), 1);
	assert_int_equal(update(50, 10, 20, 30, 40, 0), 1);
	assert_int_equal(drv.pkg[0].ts_backwards, 1);
	assert_int_equal(hfi_copy_timestamp(&drv, 0), 50);
	assert_int_equal(update(40, 11, 21, 31, 41, 0), 1);
	assert_int_equal(drv.pkg[0].ts_backwards, 2);
	assert_int_equal(fake_log_count("timestamp went backwards"), 1);
	assert_int_equal(hfi_publish_step(&drv, 1000 * MS), 0);
	assert_int_equal(fake.hmp_perf[0], 44);   /* the data is taken */
	assert_int_equal(fake.hmp_ee[3], 164);
	fake_free();
}

/* Every row perf 0: published (hmp decides), said in the log at most once
 * a minute, and in the status line. */
static void test_all_zero(void **state)
{
	(void)state;
	start4();
	assert_int_equal(update(100, 0, 50, 0, 150, 0), 1);
	assert_int_equal(hfi_publish_step(&drv, 1000 * MS), 0);
	assert_int_equal(fake.hmp_perf[2], 0);
	assert_int_equal(fake.hmp_ee[2], 600);
	assert_int_equal(drv.zero_tables, 1);
	assert_int_equal(fake_log_count("every row reports perf 0: taken as no information"), 1);
	assert_string_equal(fake.hmp_why, "table of 2 rows, 4 classes; every perf 0: no information");
	assert_int_equal(update(101, 0, 51, 0, 151, 0), 1);
	assert_int_equal(hfi_publish_step(&drv, 2000 * MS), 0);
	assert_int_equal(drv.zero_tables, 2);
	assert_int_equal(fake_log_count("every row reports perf 0"), 1);
	assert_int_equal(update(102, 0, 52, 0, 152, 0), 1);
	assert_int_equal(hfi_publish_step(&drv, 62000 * MS), 0);
	assert_int_equal(fake_log_count("every row reports perf 0"), 2);
	assert_int_equal(fake_log_count("(1 such tables not logged"), 1);
	/* One row back above 0: no longer "no information". */
	assert_int_equal(update(103, 0, 52, 9, 152, 0), 1);
	assert_int_equal(hfi_publish_step(&drv, 63000 * MS), 0);
	assert_int_equal(drv.zero_tables, 3);
	assert_string_equal(fake.hmp_why, "table of 2 rows, 4 classes");
	fake_free();
}

/* A CPU whose row does not fit is never published; the others are. */
static void test_row_beyond_not_published(void **state)
{
	(void)state;
	fake_reset(4, &drv);
	int rows[FAKE_CPUS] = { 0, 0, 1, 600 };
	fake_set_leaf6(HFI_CPUID6_EAX_HFI | HFI_CPUID6_EAX_PTS, 0, 0x3, rows);
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(update(5, 200, 50, 100, 150, 3), 1);   /* it still handles interrupts */
	assert_int_equal(hfi_publish_step(&drv, 1000 * MS), 0);
	assert_int_equal(fake.hmp_mask[3], 0);
	assert_int_equal(drv.cpu[3].published, 0);
	assert_int_equal(fake.hmp_perf[2], 400);
	assert_int_equal(fake.hmp_provides, 3);
	fake_free();
}

/* 100 updates within one publication interval: at most one publication
 * per 10 ms, the rest coalesced, the newest values win. */
static void test_storm_coalesced(void **state)
{
	(void)state;
	start4();
	uint64_t now = 1000 * MS;
	assert_int_equal(update(1, 1, 1, 1, 1, 0), 1);
	assert_int_equal(hfi_publish_step(&drv, now), 0);
	for (unsigned i = 0; i < 100; i++) {
		assert_int_equal(update(2 + i, (uint8_t)i, 7, 9, 9, (int)(i % 4)), 1);
		uint64_t wait = hfi_publish_step(&drv, now + i * 50000);   /* 50 us apart */
		assert_int_equal(wait, 10 * MS - i * 50000);
	}
	assert_int_equal(fake.hmp_publishes, 1);
	assert_int_equal(hfi_publish_step(&drv, now + 10 * MS), 0);
	assert_int_equal(fake.hmp_publishes, 2);
	assert_int_equal(drv.publications, 2);
	assert_int_equal(drv.coalesced, 99);
	assert_int_equal(drv.pkg[0].updates, drv.publications + drv.coalesced);
	assert_int_equal(fake.hmp_perf[0], 99 * 4);
	assert_int_equal(hfi_publish_step(&drv, now + 30 * MS), 0);   /* nothing pending */
	assert_int_equal(fake.hmp_publishes, 2);
	fake_free();
}

/* CPUID's class count changes after the start: the start layout is kept,
 * the change said once. */
static void test_classes_change(void **state)
{
	(void)state;
	start4();
	fake.classes_now = 2;
	assert_int_equal(update(1, 10, 10, 20, 20, 0), 1);
	assert_int_equal(hfi_publish_step(&drv, 1000 * MS), 0);
	assert_int_equal(fake_log_count("now enumerates 2 classes, 4 at start: keeping the start layout"),
			 1);
	assert_int_equal(update(2, 11, 10, 20, 20, 0), 1);
	assert_int_equal(hfi_publish_step(&drv, 2000 * MS), 0);
	assert_int_equal(fake.nlog, 1);
	assert_int_equal(drv.lay.ncls, 4);
	assert_int_equal(fake.hmp_perf[0], 44);
	fake_free();
}

/* The other classes stay in the local copy (Thread Director's later use). */
static void test_classes_kept(void **state)
{
	(void)state;
	start4();
	assert_int_equal(update(1, 0x40, 0x20, 0x80, 0x10, 0), 1);
	uint8_t perf, ee;
	assert_int_equal(hfi_copy_read(&drv, 0, 1, 3, &perf, &ee), 0);
	assert_int_equal(perf, 0x83);
	assert_int_equal(ee, 0x13);
	assert_int_equal(hfi_copy_read(&drv, 0, 0, 2, &perf, &ee), 0);
	assert_int_equal(perf, 0x42);
	assert_int_equal(hfi_copy_read(&drv, 0, 0, 4, &perf, &ee), -1);
	assert_int_equal(hfi_copy_read(&drv, 0, 510, 0, &perf, &ee), -1);
	assert_int_equal(hfi_copy_read(&drv, 1, 0, 0, &perf, &ee), -1);
	fake_free();
}

/* Without the energy-efficiency column: one column per class, perf only. */
static void test_perf_only(void **state)
{
	(void)state;
	fake_reset(4, &drv);
	fake_set_leaf6(HFI_CPUID6_EAX_HFI | HFI_CPUID6_EAX_ITD, 4u << 8, 0x1, NULL);
	assert_int_equal(fake_start(&drv), 0);
	assert_int_equal(drv.lay.ncap, 1);
	assert_int_equal(drv.lay.ee_col, -1);
	assert_int_equal(drv.lay.row_stride, 8);
	assert_int_equal(update(1, 30, 99, 40, 99, 0), 1);
	assert_int_equal(hfi_publish_step(&drv, 1000 * MS), 0);
	assert_int_equal(fake.hmp_mask[0], 0x2);   /* HMP_PERF */
	assert_int_equal(fake.hmp_perf[3], 160);
	assert_int_equal(fake.hmp_ee[3], 0);
	fake_free();
}

/* Interrupts on a CPU not linked to a table are counted, nothing read. */
static void test_unlinked(void **state)
{
	(void)state;
	fake_reset(4, &drv);
	fake.run_fails[3] = 1;
	assert_int_equal(fake_start(&drv), 0);
	fake.ntrace = 0;
	assert_int_equal(event(3), 0);
	assert_int_equal(event(300), 0);
	assert_int_equal(drv.unlinked, 2);
	assert_int_equal(fake.ntrace, 0);
	fake_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ack_mask),
		cmocka_unit_test(test_update_shared_rows),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_unchanged_still_acked),
		cmocka_unit_test(test_timestamp_backwards),
		cmocka_unit_test(test_all_zero),
		cmocka_unit_test(test_row_beyond_not_published),
		cmocka_unit_test(test_storm_coalesced),
		cmocka_unit_test(test_classes_change),
		cmocka_unit_test(test_classes_kept),
		cmocka_unit_test(test_perf_only),
		cmocka_unit_test(test_unlinked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
