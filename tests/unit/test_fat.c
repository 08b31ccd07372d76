/* SPDX-License-Identifier: BSD-2-Clause */
/* test_fat.c — kernel/fs/fat_*.c on volumes made in memory
 * (tests/unit/fat_format.c) over tests/unit/blk_ram.c: FAT12, 16 and 32
 * mounted, folders and files with long names written and read back, the
 * refusals (write-protected, dirty, FATs that differ, no room, bad
 * names), and a power cut at every write of a save. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fs/fat.h>
#include <tests/unit/blk_ram.h>
#include <tests/unit/fat_format.h>

static struct fat_vol vol;
static char err[200];

/* A formatted image of mib MiB (FAT12 at 1, FAT16 at 8, FAT32 at 34). */
static uint8_t *image(uint32_t mib, struct blk_ram *r)
{
	uint8_t *img = calloc(1, (size_t)mib << 20);
	assert_non_null(img);
	fat_format(img, mib << 11, 1, "TEST");
	blk_ram_init(r, img, (uint64_t)mib << 20, 512, "da0");
	return img;
}

/* Content byte i of a test file. */
static uint8_t pattern(uint32_t i)
{
	return (uint8_t)(i * 7 + (i >> 9));
}

/* Writes MOSAIC/<folder>/<name> with len bytes of the pattern, committed. */
static int save_file(struct blk_ram *r, const char *folder, const char *name, uint32_t len)
{
	struct fat_dir top, dir;
	struct fat_file f;
	struct fat_dirent e;
	static uint8_t data[300000];
	int rc;
	for (uint32_t i = 0; i < len; i++)
		data[i] = pattern(i);
	if ((rc = fat_mount(&vol, &r->dev, 0, r->dev.blocks, "da0", 1, err, sizeof(err))))
		return rc;
	vol.now = (struct fat_time){ (46 << 9) | (12 << 5) | 7, (15 << 11) | (43 << 5) };
	rc = fat_lookup(&vol, fat_root(&vol), "MOSAIC", &e, err, sizeof(err));
	if (rc == FS_ENOENT)
		rc = fat_mkdir(&vol, fat_root(&vol), "MOSAIC", &top, err, sizeof(err));
	else
		top.cluster = e.cluster;
	if (rc || (rc = fat_mkdir(&vol, top, folder, &dir, err, sizeof(err))) ||
	    (rc = fat_create(&vol, dir, name, &f, err, sizeof(err))) ||
	    (rc = fat_append(&vol, &f, data, len, err, sizeof(err))) ||
	    (rc = fat_dir_update(&vol, &f, err, sizeof(err))))
		return rc;
	return fat_commit(&vol, err, sizeof(err));
}

/* Reads MOSAIC/<folder>/<name> back (mounted read-only) and compares. */
static void check_file(struct blk_ram *r, const char *folder, const char *name, uint32_t len)
{
	struct fat_dirent e;
	static uint8_t buf[300000];
	assert_int_equal(fat_mount(&vol, &r->dev, 0, r->dev.blocks, "da0", 0, err, sizeof(err)), 0);
	assert_int_equal(fat_lookup(&vol, fat_root(&vol), "mosaic", &e, err, sizeof(err)), 0);
	assert_true(e.attr & FAT_ATTR_DIR);
	assert_int_equal(fat_lookup(&vol, (struct fat_dir){ e.cluster }, folder, &e, err, sizeof(err)), 0);
	assert_int_equal(fat_lookup(&vol, (struct fat_dir){ e.cluster }, name, &e, err, sizeof(err)), 0);
	assert_string_equal(e.name, name);
	assert_int_equal(e.size, len);
	assert_int_equal(fat_read(&vol, &e, 0, buf, sizeof(buf), err, sizeof(err)), len);
	for (uint32_t i = 0; i < len; i++)
		if (buf[i] != pattern(i))
			fail_msg("byte %u of %s differs", i, name);
}

static void write_and_read(uint32_t mib, uint8_t type)
{
	struct blk_ram r;
	uint8_t *img = image(mib, &r);
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), 0);
	assert_int_equal(vol.g.type, type);
	uint32_t free0 = vol.free_clusters;
	assert_int_equal(save_file(&r, "i7-1370P-20261207-1543", "hfi-updates.csv", 70000), 0);
	assert_int_equal(save_file(&r, "second folder", "Mixed Case Name.txt", 5), 0);
	check_file(&r, "I7-1370P-20261207-1543", "hfi-updates.csv", 70000);
	check_file(&r, "second folder", "Mixed Case Name.txt", 5);
	uint32_t left;
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), 0);
	assert_int_equal(fat_count_free(&vol, &left, err, sizeof(err)), 0);
	uint32_t used = 1 + 2 + fat_clusters_for(&vol, 0, 70000) + 1;   /* MOSAIC, 2 folders, 2 files */
	assert_int_equal(left, free0 - used);
	free(img);
}

static void test_fat12(void **s) { (void)s; write_and_read(1, 12); }
static void test_fat16(void **s) { (void)s; write_and_read(8, 16); }
static void test_fat32(void **s) { (void)s; write_and_read(34, 32); }

/* A second file of an existing name is refused; bad names are refused. */
static void test_names(void **s)
{
	(void)s;
	struct blk_ram r;
	struct fat_file f;
	uint8_t *img = image(1, &r);
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), 0);
	assert_int_equal(fat_create(&vol, fat_root(&vol), "boot.log", &f, err, sizeof(err)), 0);
	assert_int_equal(fat_create(&vol, fat_root(&vol), "BOOT.LOG", &f, err, sizeof(err)), FS_EEXIST);
	assert_int_equal(fat_create(&vol, fat_root(&vol), "a*b", &f, err, sizeof(err)), FS_ENAME);
	assert_int_equal(fat_create(&vol, fat_root(&vol), "", &f, err, sizeof(err)), FS_ENAME);
	assert_int_equal(fat_create(&vol, fat_root(&vol), "bench-cpu.log", &f, err, sizeof(err)), 0);
	assert_int_equal(fat_create(&vol, fat_root(&vol), "bench-cpu-2.log", &f, err, sizeof(err)), 0);
	assert_int_equal(fat_commit(&vol, err, sizeof(err)), 0);
	struct fat_dirent e;
	uint32_t pos = 0;
	int seen = 0;
	while (fat_dir_next(&vol, fat_root(&vol), &pos, 1, &e, err, sizeof(err)) == 1) {
		if (strcmp(e.name, "bench-cpu.log") == 0)
			assert_memory_equal(e.short_name, "BENCH-~1LOG", 11);
		if (strcmp(e.name, "bench-cpu-2.log") == 0)
			assert_memory_equal(e.short_name, "BENCH-~2LOG", 11);
		seen++;
	}
	assert_int_equal(seen, 3);
	free(img);
}

/* Mounting for writing refuses what would be unsafe. */
static void test_refusals(void **s)
{
	(void)s;
	struct blk_ram r;
	uint8_t *img = image(8, &r);
	r.dev.readonly = 1;
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), FS_EROFS);
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 0, err, sizeof(err)), 0);
	r.dev.readonly = 0;
	img[37] |= 1;                                     /* the boot sector's dirty bit */
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), FS_EDIRTY);
	img[37] &= (uint8_t)~1;
	img[512 + 3] &= 0x7F;                              /* FAT[1]'s clean-shutdown bit */
	img[512 + 3 + vol.g.fat_sectors * 512] &= 0x7F;
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), FS_EDIRTY);
	assert_non_null(strstr(err, "not cleanly unmounted"));
	img[512 + 3] |= 0x80;
	img[512 + 3 + vol.g.fat_sectors * 512] |= 0x80;
	img[512 + 100] = 0x33;                             /* the copies differ */
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), FS_EDIRTY);
	assert_non_null(strstr(err, "differ"));
	img[512 + 100] = 0;
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), 0);
	free(img);
}

/* No room: nothing is allocated and the volume stays as it was. */
static void test_no_room(void **s)
{
	(void)s;
	struct blk_ram r;
	uint8_t *img = image(1, &r), *copy = malloc(1 << 20);
	memcpy(copy, img, 1 << 20);
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), 0);
	struct fat_file f;
	static uint8_t big[1100000];
	uint32_t free0 = vol.free_clusters;
	assert_int_equal(fat_create(&vol, fat_root(&vol), "big.bin", &f, err, sizeof(err)), 0);
	assert_int_equal(fat_append(&vol, &f, big, sizeof(big), err, sizeof(err)), FS_ENOSPC);
	assert_int_equal(vol.free_clusters, free0);
	assert_int_equal(fat_commit(&vol, err, sizeof(err)), 0);
	assert_int_equal(fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err)), 0);
	assert_int_equal(vol.free_clusters, free0);
	free(copy);
	free(img);
}

/* A power cut after each write of a save but the last: the volume then
 * either mounts for writing with the file absent and the boot sector as
 * before (the cut came before the first metadata write) or is refused
 * as not cleanly unmounted (fsck.fat or chkdsk then finds at most lost
 * clusters). Never anything else. */
static void test_power_cut_at_every_write(void **s)
{
	(void)s;
	struct blk_ram r;
	uint8_t *img = image(8, &r), *pristine = malloc(8 << 20);
	memcpy(pristine, img, 8 << 20);
	assert_int_equal(save_file(&r, "run", "data.csv", 20000), 0);
	uint64_t total = r.writes;
	assert_true(total > 6);
	int before = 0, dirty = 0;
	for (uint64_t cut = 1; cut < total; cut++) {
		memcpy(img, pristine, 8 << 20);
		blk_ram_init(&r, img, 8 << 20, 512, "da0");
		r.cut_after = cut;
		assert_int_not_equal(save_file(&r, "run", "data.csv", 20000), 0);
		blk_ram_init(&r, img, 8 << 20, 512, "da0");
		int rc = fat_mount(&vol, &r.dev, 0, r.dev.blocks, "da0", 1, err, sizeof(err));
		if (rc == FS_EDIRTY) {
			dirty++;
			continue;
		}
		assert_int_equal(rc, 0);
		struct fat_dirent e;
		assert_int_equal(fat_lookup(&vol, fat_root(&vol), "MOSAIC", &e, err, sizeof(err)), FS_ENOENT);
		assert_memory_equal(img, pristine, 512);
		before++;
	}
	assert_true(before > 0 && dirty > 0);
	free(pristine);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fat12),
		cmocka_unit_test(test_fat16),
		cmocka_unit_test(test_fat32),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_no_room),
		cmocka_unit_test(test_power_cut_at_every_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
