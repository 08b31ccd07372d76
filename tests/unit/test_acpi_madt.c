/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the MADT parser (kernel/arch/x86_64/acpi/acpi_madt.c) on
 * synthetic tables shaped like real firmware's: x2APIC entries, disabled
 * and online-capable processors, sparse APIC ids with the boot CPU at
 * 0x20 (Meteor Lake), ids listed twice, broken entries. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <arch/x86_64/acpi/acpi.h>

static uint8_t tbl[8192];
static size_t tlen;

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Start a MADT: local APIC at 0xFEE00000, flags (bit 0: 8259s). */
static void madt_begin(uint32_t flags)
{
	memset(tbl, 0, sizeof(tbl));
	memcpy(tbl, "APIC", 4);
	put32(tbl + 36, 0xFEE00000u);
	put32(tbl + 40, flags);
	tlen = 44;
	put32(tbl + 4, (uint32_t)tlen);
}

static void add(const uint8_t *e)
{
	memcpy(tbl + tlen, e, e[1]);
	tlen += e[1];
	put32(tbl + 4, (uint32_t)tlen);
}

static void lapic(uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t e[8] = { 0, 8, uid, id };
	put32(e + 4, flags);
	add(e);
}

static void x2apic(uint32_t id, uint32_t flags)
{
	uint8_t e[16] = { 9, 16 };
	put32(e + 4, id);
	put32(e + 8, flags);
	add(e);
}

static void test_qemu_like_table(void **state)
{
	(void)state;
	struct acpi_madt_info m;
	madt_begin(1);
	for (int i = 0; i < 4; i++)
		lapic((uint8_t)i, (uint8_t)i, 1);
	add((const uint8_t[]){ 1, 12, 0, 0, 0x00, 0x00, 0xC0, 0xFE, 0, 0, 0, 0 });
	add((const uint8_t[]){ 2, 10, 0, 0, 2, 0, 0, 0, 0, 0 });
	add((const uint8_t[]){ 2, 10, 0, 9, 9, 0, 0, 0, 0x0D, 0 });
	assert_int_equal(acpi_madt_parse(tbl, tlen, &m), 0);
	assert_true(m.present);
	assert_true(m.has_8259);
	assert_int_equal(m.lapic_phys, 0xFEE00000u);
	assert_int_equal(m.cpu_count, 4);
	assert_int_equal(m.cpu_total, 4);
	assert_int_equal(m.ioapic_count, 1);
	assert_int_equal(m.ioapics[0].phys, 0xFEC00000u);
	assert_int_equal(m.override_count, 2);
	assert_int_equal(m.overrides[0].gsi, 2);
	assert_int_equal(m.overrides[1].flags, 0x0D);
	assert_int_equal(m.malformed_at, 0);
}

/* Meteor Lake-like: the boot CPU is APIC 0x20, ids sparse, in x2APIC
 * entries, plus online-capable and disabled slots and a duplicate. */
static void test_sparse_x2apic_and_flags(void **state)
{
	(void)state;
	struct acpi_madt_info m;
	static const uint32_t ids[] = { 0x20, 0x22, 0x00, 0x02, 0x08, 0x09, 0x0A, 0x0B, 0x48, 0x4A };
	madt_begin(0);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		x2apic(ids[i], 1);
	x2apic(0x60, 2);             /* online-capable: not started */
	x2apic(0x61, 0);             /* disabled */
	lapic(0, 0x20, 1);           /* the boot CPU again, as an xAPIC entry */
	x2apic(0xFFFFFFFFu, 1);      /* invalid id */
	lapic(0, 0xFF, 1);           /* invalid id */
	add((const uint8_t[]){ 5, 12, 0, 0, 0x00, 0x00, 0xE0, 0xFE, 0, 0, 0, 0 });
	assert_int_equal(acpi_madt_parse(tbl, tlen, &m), 0);
	assert_int_equal(m.cpu_count, 10);
	assert_int_equal(m.cpu_total, 10);
	assert_int_equal(m.x2apic_entries, 10);
	assert_int_equal(m.online_capable, 1);
	assert_int_equal(m.disabled, 1);
	assert_int_equal(m.duplicates, 1);
	assert_int_equal(m.bad_ids, 2);
	assert_false(m.has_8259);
	assert_int_equal(m.lapic_phys, 0xFEE00000u);
	for (size_t i = 0; i < 10; i++)
		assert_int_equal(m.cpu_apic_ids[i], ids[i]);
}

static void test_more_cpus_than_kept(void **state)
{
	(void)state;
	struct acpi_madt_info m;
	madt_begin(0);
	for (uint32_t i = 0; i < ACPI_MAX_CPUS + 20; i++)
		x2apic(i * 2, 1);
	assert_int_equal(acpi_madt_parse(tbl, tlen, &m), 0);
	assert_int_equal(m.cpu_count, ACPI_MAX_CPUS);
	assert_int_equal(m.cpu_total, ACPI_MAX_CPUS + 20);
}

static void test_broken_entries(void **state)
{
	(void)state;
	struct acpi_madt_info m;
	madt_begin(0);
	lapic(0, 0, 1);
	add((const uint8_t[]){ 0, 6, 1, 1, 1, 0 });       /* too short for its type */
	add((const uint8_t[]){ 9, 12, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 });
	lapic(2, 2, 1);
	size_t bad = tlen;
	add((const uint8_t[]){ 0, 8, 3, 3, 1, 0, 0, 0 });
	tbl[bad + 1] = 1;                                 /* length 1: would never advance */
	lapic(4, 4, 1);                                   /* after it: not read */
	assert_int_equal(acpi_madt_parse(tbl, tlen, &m), 0);
	assert_int_equal(m.cpu_count, 2);
	assert_int_equal(m.short_entries, 2);
	assert_int_equal(m.malformed_at, (int)bad);
	/* an entry running past the table's end */
	madt_begin(0);
	lapic(0, 0, 1);
	lapic(1, 1, 1);
	put32(tbl + 4, (uint32_t)tlen - 3);
	assert_int_equal(acpi_madt_parse(tbl, tlen, &m), 0);
	assert_int_equal(m.cpu_count, 1);
	assert_int_equal(m.malformed_at, 52);
	/* the header's length beyond the bytes given: only those are read */
	madt_begin(0);
	lapic(0, 0, 1);
	lapic(1, 1, 1);
	assert_int_equal(acpi_madt_parse(tbl, tlen - 8, &m), 0);
	assert_int_equal(m.cpu_count, 1);
	/* too short for the fixed fields */
	assert_int_equal(acpi_madt_parse(tbl, 43, &m), -1);
	assert_false(m.present);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_like_table),
		cmocka_unit_test(test_sparse_x2apic_and_flags),
		cmocka_unit_test(test_more_cpus_than_kept),
		cmocka_unit_test(test_broken_entries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
