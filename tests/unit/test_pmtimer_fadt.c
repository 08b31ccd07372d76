/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the FADT's PM timer fields (kernel/arch/x86_64/clock/pmtimer_fadt.c):
 * ACPI 1.0 tables with PM_TMR_BLK only, X_PM_TMR_BLK as I/O port or
 * memory, the 24/32-bit flag, hardware-reduced ACPI, and tables that are
 * short or name something the kernel cannot read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <arch/x86_64/clock/pmtimer.h>

static uint8_t fadt[276];

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A FADT with PM_TMR_BLK = blk (length 4) and these flags. */
static void fadt_make(uint32_t blk, uint32_t flags)
{
	memset(fadt, 0, sizeof(fadt));
	memcpy(fadt, "FACP", 4);
	put32(fadt + 76, blk);
	fadt[91] = 4;
	put32(fadt + 112, flags);
}

/* X_PM_TMR_BLK: space id, address. */
static void fadt_x(uint8_t space, uint64_t addr)
{
	fadt[208] = space;
	fadt[209] = 32;
	put32(fadt + 212, (uint32_t)addr);
	put32(fadt + 216, (uint32_t)(addr >> 32));
}

static void test_acpi1_port(void **state)
{
	(void)state;
	struct pmtimer_loc loc;
	const char *why = NULL;
	fadt_make(0x608, 0);
	assert_int_equal(pmtimer_fadt_locate(fadt, 116, &loc, &why), 0);
	assert_int_equal(loc.io, 1);
	assert_int_equal(loc.address, 0x608);
	assert_int_equal(loc.mask, 0xFFFFFF);
}

static void test_extended_port_preferred_and_32_bit(void **state)
{
	(void)state;
	struct pmtimer_loc loc;
	const char *why;
	fadt_make(0x408, 1u << 8);
	fadt_x(1, 0x1808);
	assert_int_equal(pmtimer_fadt_locate(fadt, 276, &loc, &why), 0);
	assert_int_equal(loc.io, 1);
	assert_int_equal(loc.address, 0x1808);
	assert_int_equal(loc.mask, 0xFFFFFFFFu);
}

static void test_extended_memory(void **state)
{
	(void)state;
	struct pmtimer_loc loc;
	const char *why;
	fadt_make(0, 0);
	fadt_x(0, 0xFED80008ull | (1ull << 36));
	assert_int_equal(pmtimer_fadt_locate(fadt, 276, &loc, &why), 0);
	assert_int_equal(loc.io, 0);
	assert_int_equal(loc.address, 0xFED80008ull | (1ull << 36));
}

/* X_PM_TMR_BLK past the table's length is not read: PM_TMR_BLK is used. */
static void test_extended_field_beyond_length_ignored(void **state)
{
	(void)state;
	struct pmtimer_loc loc;
	const char *why;
	fadt_make(0x608, 0);
	fadt_x(1, 0x1808);
	assert_int_equal(pmtimer_fadt_locate(fadt, 219, &loc, &why), 0);
	assert_int_equal(loc.address, 0x608);
	assert_int_equal(pmtimer_fadt_locate(fadt, 220, &loc, &why), 0);
	assert_int_equal(loc.address, 0x1808);
}

static void test_refusals(void **state)
{
	(void)state;
	struct pmtimer_loc loc;
	const char *why;
	fadt_make(0x608, 0);
	assert_int_equal(pmtimer_fadt_locate(fadt, 115, &loc, &why), -1);
	assert_non_null(strstr(why, "too short"));

	fadt_make(0x608, 1u << 20);
	assert_int_equal(pmtimer_fadt_locate(fadt, 276, &loc, &why), -1);
	assert_non_null(strstr(why, "HW_REDUCED_ACPI"));

	fadt_make(0, 0);
	assert_int_equal(pmtimer_fadt_locate(fadt, 276, &loc, &why), -1);
	assert_non_null(strstr(why, "names no PM timer"));

	fadt_make(0x608, 0);
	fadt[91] = 2;
	assert_int_equal(pmtimer_fadt_locate(fadt, 276, &loc, &why), -1);
	assert_non_null(strstr(why, "PM_TMR_LEN"));

	fadt_make(0x1FFFE, 0);
	assert_int_equal(pmtimer_fadt_locate(fadt, 276, &loc, &why), -1);
	assert_non_null(strstr(why, "PM_TMR_BLK names an I/O port above"));

	fadt_make(0x608, 0);
	fadt_x(1, 0xFFFD);
	assert_int_equal(pmtimer_fadt_locate(fadt, 276, &loc, &why), -1);
	assert_non_null(strstr(why, "X_PM_TMR_BLK names an I/O port"));

	fadt_make(0x608, 0);
	fadt_x(2, 0x1000);   /* PCI configuration space */
	assert_int_equal(pmtimer_fadt_locate(fadt, 276, &loc, &why), -1);
	assert_non_null(strstr(why, "address space"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acpi1_port),
		cmocka_unit_test(test_extended_port_preferred_and_32_bit),
		cmocka_unit_test(test_extended_memory),
		cmocka_unit_test(test_extended_field_beyond_length_ignored),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
