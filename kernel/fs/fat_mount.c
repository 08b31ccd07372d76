/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat_mount.c — a FAT volume mounted: its boot sector checked, and for
 * writing everything that could make a write unsafe refused (see
 * fat_mount() in fat.h); the free clusters counted rather than taken
 * from FSInfo, so the count written back is true.
 */
#include <fs/fat.h>
#include <kern/printk.h>
#include <lib/string.h>

/* FAT[1]'s "clean shutdown" and "no hard error" bits (FAT16: 15 and 14,
 * FAT32: 27 and 26; FAT12 has none). 0, or FS_EDIRTY with the reason. */
static int check_fat1(struct fat_vol *v, char *err, size_t len)
{
	uint32_t val;
	int rc;
	if (v->g.type == 12)
		return 0;
	if ((rc = fat_get(v, 1, &val, err, len)))
		return rc;
	uint32_t clean = v->g.type == 16 ? 1u << 15 : 1u << 27, sound = clean >> 1;
	if (!(val & clean) || !(val & sound)) {
		ksnprintf(err, len, "the FAT says the volume %s: check it (fsck.fat, chkdsk) before writing",
			  !(val & clean) ? "was not cleanly unmounted" : "had disk errors");
		return FS_EDIRTY;
	}
	return 0;
}

/* Sectors of the first FAT that hold entries 0..clusters + 1. */
static uint32_t fat_used_sectors(const struct fat_vol *v)
{
	uint64_t bytes = (((uint64_t)v->g.clusters + 2) * v->g.type + 7) / 8;
	return (uint32_t)((bytes + v->g.sector_size - 1) / v->g.sector_size);
}

/* Reads n sectors of FAT copy k from FAT sector s into run[k]. */
static int read_run(struct fat_vol *v, int k, uint32_t s, uint32_t n, char *err, size_t len)
{
	return fat_sec_read(v, v->g.reserved + (uint32_t)k * v->g.fat_sectors + s, n, v->run[k], err, len);
}

/* Compares the FAT copies, FAT_RUN_BYTES at a time. */
static int check_fats(struct fat_vol *v, char *err, size_t len)
{
	uint32_t per = FAT_RUN_BYTES / v->g.sector_size;
	int rc;
	for (uint32_t s = 0; v->g.nfats == 2 && s < v->g.fat_sectors; s += per) {
		uint32_t n = v->g.fat_sectors - s < per ? v->g.fat_sectors - s : per;
		if ((rc = read_run(v, 0, s, n, err, len)) || (rc = read_run(v, 1, s, n, err, len)))
			return rc;
		for (uint32_t i = 0; i < n; i++)
			if (memcmp(v->run[0] + i * v->g.sector_size, v->run[1] + i * v->g.sector_size,
				   v->g.sector_size) != 0) {
				ksnprintf(err, len, "the two FATs differ (sector %u): an interrupted write? Check it "
					  "(fsck.fat, chkdsk) before writing", s + i);
				return FS_EDIRTY;
			}
	}
	return 0;
}

/* Entry c's value, c in the piece of the FAT in run[0] that starts at
 * byte base (FAT16 and FAT32: an entry never straddles two pieces). */
static uint32_t run_entry(const struct fat_vol *v, uint32_t c, uint64_t base)
{
	const uint8_t *p = v->run[0] + ((uint64_t)c * (v->g.type / 8) - base);
	if (v->g.type == 16)
		return p[0] | (uint32_t)p[1] << 8;
	return (p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24) & 0x0FFFFFFF;
}

/* See fat.h. FAT12 (at most 6 KiB of FAT) entry by entry through the
 * cache; FAT16/32 FAT_RUN_BYTES at a time. */
int fat_count_free(struct fat_vol *v, uint32_t *count, char *err, size_t len)
{
	uint32_t free = 0, first_free = 0, val;
	uint32_t per = FAT_RUN_BYTES / v->g.sector_size, used = fat_used_sectors(v), bpe = v->g.type / 8;
	int rc;
	if (v->g.type == 12) {
		for (uint32_t c = 2; c <= v->g.clusters + 1; c++) {
			if ((rc = fat_get(v, c, &val, err, len)))
				return rc;
			if (val == 0 && !free++)
				first_free = c;
		}
	}
	for (uint32_t s = 0; v->g.type != 12 && s < used; s += per) {
		uint32_t n = used - s < per ? used - s : per;
		uint64_t base = (uint64_t)s * v->g.sector_size, end = base + (uint64_t)n * v->g.sector_size;
		if ((rc = read_run(v, 0, s, n, err, len)))
			return rc;
		uint32_t c = (uint32_t)(base / bpe);
		for (c = c < 2 ? 2 : c; c <= v->g.clusters + 1 && (uint64_t)(c + 1) * bpe <= end; c++)
			if (run_entry(v, c, base) == 0 && !free++)
				first_free = c;
	}
	v->free_clusters = free;
	v->next_free = first_free ? first_free : 2;
	*count = free;
	return 0;
}

/* See fat.h. */
int fat_mount(struct fat_vol *v, const struct blkdev *dev, uint64_t start, uint64_t count,
	      const char *name, int for_write, char *err, size_t len)
{
	uint8_t blk[BLK_SIZE_MAX];
	char why[96];
	memset(v, 0, offsetof(struct fat_vol, slot));
	for (int i = 0; i < FAT_CACHE_SLOTS; i++) {
		v->slot[i].sector = UINT32_MAX;
		v->slot[i].dirty = 0;
	}
	v->dev = dev;
	v->start = start;
	ksnprintf(v->name, sizeof(v->name), "%s", name);
	int rc = dev->read(dev->ctx, start, 1, blk, why, sizeof(why));
	if (rc) {
		ksnprintf(err, len, "reading its boot sector: %s", why);
		return rc;
	}
	if ((rc = fat_bpb_parse(blk, dev->block_size, count * dev->block_size, &v->g, err, len)))
		return rc;
	if (v->g.sector_size % dev->block_size) {
		ksnprintf(err, len, "FAT sectors of %u bytes on a device of %u-byte blocks", v->g.sector_size,
			  dev->block_size);
		return FS_EUNSUPP;
	}
	v->spb = v->g.sector_size / dev->block_size;
	v->fat_mask = v->g.type == 12 ? 0xFFF : v->g.type == 16 ? 0xFFFF : 0x0FFFFFFF;
	if (!for_write)
		return 0;
	if (dev->readonly) {
		ksnprintf(err, len, "the stick is write-protected");
		return FS_EROFS;
	}
	if (v->g.dirty) {
		ksnprintf(err, len, "its boot sector says it was not cleanly unmounted: check it (fsck.fat, "
			  "chkdsk) before writing");
		return FS_EDIRTY;
	}
	uint32_t free;
	if ((rc = check_fat1(v, err, len)) || (rc = check_fats(v, err, len)) ||
	    (rc = fat_count_free(v, &free, err, len)))
		return rc;
	v->writable = 1;
	return 0;
}
