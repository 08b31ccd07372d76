/* SPDX-License-Identifier: BSD-2-Clause */
/* test_part.c — kernel/fs/part.c: MBR, GPT (and its backup when the
 * primary is damaged), a stick without a table, entries outside the
 * device or overlapping skipped with a note, a protective MBR without
 * any valid GPT refused, and the FreeBSD-style names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fs/part.h>
#include <tests/unit/blk_ram.h>
#include <tests/unit/fat_format.h>
#include <tests/unit/part_build.h>

#define BLOCKS 65536u   /* 32 MiB of 512-byte blocks */

static uint8_t img[BLOCKS * 512];
static struct blk_ram ram;
static struct part_table t;
static char err[160];

static void setup_img(void)
{
	memset(img, 0, sizeof(img));
	blk_ram_init(&ram, img, sizeof(img), 512, "da1");
}

static void test_mbr(void **s)
{
	(void)s;
	setup_img();
	const struct pb_part p[] = { { 0, 0x0C, 2048, 30000, 0 }, { 0, 0x83, 32048, 1000, 0 },
				     { 0, 0x0C, 32500, 100, 0 }, { 0, 0x0E, 60000, 9000, 0 } };
	pb_mbr(img, p, 4);
	assert_int_equal(part_scan(&ram.dev, &t, err, sizeof(err)), 0);
	assert_int_equal(t.scheme, PART_SCHEME_MBR);
	assert_int_equal(t.count, 2);      /* 3 overlaps 2, 4 runs past the end */
	assert_int_equal(t.e[0].kind, PART_KIND_DATA);
	assert_int_equal(t.e[1].kind, PART_KIND_OTHER);
	assert_non_null(strstr(t.note, "partition 3 overlaps partition 2"));
	char name[24];
	part_name(&ram.dev, &t, &t.e[0], name, sizeof(name));
	assert_string_equal(name, "da1s1");
}

static void test_gpt_and_backup(void **s)
{
	(void)s;
	setup_img();
	const struct pb_part p[] = { { pb_guid_esp, 0, 2048, 20000, "EFI" },
				     { pb_guid_basic, 0, 22048, 20000, "RESULTS" },
				     { pb_guid_linux, 0, 42048, 1000, "linux" } };
	pb_gpt(img, 512, BLOCKS, p, 3);
	assert_int_equal(part_scan(&ram.dev, &t, err, sizeof(err)), 0);
	assert_int_equal(t.scheme, PART_SCHEME_GPT);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.e[0].kind, PART_KIND_ESP);
	assert_int_equal(t.e[1].kind, PART_KIND_DATA);
	assert_int_equal(t.e[2].kind, PART_KIND_OTHER);
	assert_string_equal(t.e[1].label, "RESULTS");
	assert_string_equal(t.note, "");
	char name[24];
	part_name(&ram.dev, &t, &t.e[1], name, sizeof(name));
	assert_string_equal(name, "da1p2");
	img[512 + 50] ^= 1;                        /* the primary header's CRC now fails */
	assert_int_equal(part_scan(&ram.dev, &t, err, sizeof(err)), 0);
	assert_int_equal(t.count, 3);
	assert_non_null(strstr(t.note, "the backup was used"));
	img[(BLOCKS - 1) * 512 + 50] ^= 1;         /* and the backup's */
	assert_int_equal(part_scan(&ram.dev, &t, err, sizeof(err)), FS_ECORRUPT);
	assert_non_null(strstr(err, "no usable GPT"));
}

static void test_entry_array_crc(void **s)
{
	(void)s;
	setup_img();
	const struct pb_part p[] = { { pb_guid_basic, 0, 2048, 20000, "A" } };
	pb_gpt(img, 512, BLOCKS, p, 1);
	img[2 * 512 + 40] ^= 0x10;                 /* the primary array, not its CRC */
	assert_int_equal(part_scan(&ram.dev, &t, err, sizeof(err)), 0);
	assert_non_null(strstr(t.note, "CRC-32 does not match"));
	assert_int_equal(t.e[0].start, 2048);
}

static void test_superfloppy(void **s)
{
	(void)s;
	setup_img();
	fat_format(img, BLOCKS, 1, "STICK");
	assert_int_equal(part_scan(&ram.dev, &t, err, sizeof(err)), 0);
	assert_int_equal(t.scheme, PART_SCHEME_NONE);
	assert_int_equal(t.count, 1);
	assert_int_equal(t.e[0].start, 0);
	assert_int_equal(t.e[0].count, BLOCKS);
	char name[24];
	part_name(&ram.dev, &t, &t.e[0], name, sizeof(name));
	assert_string_equal(name, "da1");
}

static void test_unreadable(void **s)
{
	(void)s;
	setup_img();
	ram.gone = 1;
	assert_int_equal(part_scan(&ram.dev, &t, err, sizeof(err)), FS_EGONE);
	assert_non_null(strstr(err, "block 0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mbr),
		cmocka_unit_test(test_gpt_and_backup),
		cmocka_unit_test(test_entry_array_crc),
		cmocka_unit_test(test_superfloppy),
		cmocka_unit_test(test_unreadable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
