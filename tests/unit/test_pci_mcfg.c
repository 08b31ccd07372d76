/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the ACPI MCFG parser (kernel/dev/pci_mcfg.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <dev/pci_mcfg.h>

/* Build an MCFG with n entries into b; returns its length. */
static size_t build(uint8_t *b, int n, const uint64_t *bases, const uint8_t *ends)
{
	size_t len = 44 + 16 * (size_t)n;
	memset(b, 0, len);
	memcpy(b, "MCFG", 4);
	b[4] = (uint8_t)len;
	b[5] = (uint8_t)(len >> 8);
	for (int i = 0; i < n; i++) {
		uint8_t *e = b + 44 + 16 * i;
		for (int k = 0; k < 8; k++)
			e[k] = (uint8_t)(bases[i] >> (8 * k));
		e[8] = (uint8_t)i;           /* segment */
		e[10] = 0;
		e[11] = ends[i];
	}
	return len;
}

static void test_qemu_q35_table(void **state)
{
	(void)state;
	uint8_t b[256];
	struct pci_mcfg m;
	char err[128];
	size_t len = build(b, 1, (const uint64_t[]){ 0xB0000000 }, (const uint8_t[]){ 255 });
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), 0);
	assert_int_equal(m.count, 1);
	assert_int_equal(m.ecam[0].base, 0xB0000000);
	assert_int_equal(m.ecam[0].segment, 0);
	assert_int_equal(m.ecam[0].end_bus, 255);
}

static void test_two_segments(void **state)
{
	(void)state;
	uint8_t b[256];
	struct pci_mcfg m;
	char err[128];
	size_t len = build(b, 2, (const uint64_t[]){ 0xC0000000, 0x4000000000ull },
			   (const uint8_t[]){ 0x7F, 0x0F });
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), 0);
	assert_int_equal(m.count, 2);
	assert_int_equal(m.ecam[1].segment, 1);
	assert_int_equal(m.ecam[1].base, 0x4000000000ull);
}

static void test_bad_tables_are_refused_whole(void **state)
{
	(void)state;
	uint8_t b[512];
	struct pci_mcfg m;
	char err[128];
	size_t len = build(b, 1, (const uint64_t[]){ 0xB0000000 }, (const uint8_t[]){ 255 });
	/* shorter than the header, length beyond the bytes, partial entry */
	assert_int_equal(pci_mcfg_parse(b, 43, &m, err, sizeof(err)), -1);
	assert_int_equal(pci_mcfg_parse(b, len - 1, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "length 60 outside 44..59"));
	b[4] = 50;
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "partial entry"));
	/* unaligned and zero base, empty bus range, window past 2^52 */
	len = build(b, 1, (const uint64_t[]){ 0xB0001000 }, (const uint8_t[]){ 255 });
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "entry 0"));
	len = build(b, 1, (const uint64_t[]){ 0 }, (const uint8_t[]){ 255 });
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), -1);
	len = build(b, 1, (const uint64_t[]){ 0xB0000000 }, (const uint8_t[]){ 255 });
	b[44 + 10] = 9;
	b[44 + 11] = 8;
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "9-8 is empty"));
	len = build(b, 1, (const uint64_t[]){ (1ull << 52) - (1u << 20) }, (const uint8_t[]){ 1 });
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), -1);
	/* more entries than kept: refused, not cut */
	uint64_t bases[PCI_MCFG_MAX + 1];
	uint8_t ends[PCI_MCFG_MAX + 1];
	for (int i = 0; i <= PCI_MCFG_MAX; i++) {
		bases[i] = 0x100000000ull * (uint64_t)(i + 1);
		ends[i] = 0;
	}
	len = build(b, PCI_MCFG_MAX + 1, bases, ends);
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), -1);
	assert_int_equal(m.count, 0);
	/* wrong signature */
	len = build(b, 1, (const uint64_t[]){ 0xB0000000 }, (const uint8_t[]){ 255 });
	b[0] = 'X';
	assert_int_equal(pci_mcfg_parse(b, len, &m, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_q35_table),
		cmocka_unit_test(test_two_segments),
		cmocka_unit_test(test_bad_tables_are_refused_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
