/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat_io.c — a FAT volume's sector I/O, the cache of FAT and directory
 * sectors, and the ordered commit of their changes (see fat.h for the
 * order and why).
 */
#include <fs/fat.h>
#include <kern/printk.h>
#include <lib/string.h>

#define FSINFO_FREE 488
#define FSINFO_NEXT 492

/* See fat.h. Sectors of the volume, bounded by its size. */
int fat_sec_read(struct fat_vol *v, uint32_t sector, uint32_t n, void *buf, char *err, size_t len)
{
	if (sector >= v->g.total_sectors || n > v->g.total_sectors - sector) {
		ksnprintf(err, len, "sector %u (+%u) is outside the volume", sector, n);
		return FS_EINVAL;
	}
	return v->dev->read(v->dev->ctx, v->start + (uint64_t)sector * v->spb, n * v->spb, buf, err, len);
}

/* See fat.h. Once a write failed, nothing more is written. */
int fat_sec_write(struct fat_vol *v, uint32_t sector, uint32_t n, const void *buf, char *err, size_t len)
{
	if (v->failed) {
		ksnprintf(err, len, "an earlier write failed; the volume takes no more writes");
		return FS_EIO;
	}
	if (sector >= v->g.total_sectors || n > v->g.total_sectors - sector) {
		ksnprintf(err, len, "sector %u (+%u) is outside the volume", sector, n);
		return FS_EINVAL;
	}
	int rc = v->dev->write(v->dev->ctx, v->start + (uint64_t)sector * v->spb, n * v->spb, buf, err, len);
	if (rc)
		v->failed = 1;
	return rc;
}

/* Makes the writes so far durable. */
static int fat_sync(struct fat_vol *v, char *err, size_t len)
{
	if (v->failed) {
		ksnprintf(err, len, "an earlier write failed");
		return FS_EIO;
	}
	int rc = v->dev->sync(v->dev->ctx, err, len);
	if (rc)
		v->failed = 1;
	return rc;
}

/* The slot a miss takes: an empty one, else the least recently used
 * clean one; -1 when every slot holds changes. */
static int cache_victim(const struct fat_vol *v)
{
	int victim = -1;
	for (int i = 0; i < FAT_CACHE_SLOTS; i++) {
		const struct fat_cache_slot *s = &v->slot[i];
		if (s->sector == UINT32_MAX)
			return i;
		if (!s->dirty && (victim < 0 || s->used < v->slot[victim].used))
			victim = i;
	}
	return victim;
}

/* See fat.h. A miss when every slot holds changes commits them first (in
 * the order of fat_commit()), so the cache never loses one. */
uint8_t *fat_cache_get(struct fat_vol *v, uint32_t sector, int kind, char *err, size_t len)
{
	for (int i = 0; i < FAT_CACHE_SLOTS; i++) {
		struct fat_cache_slot *s = &v->slot[i];
		if (s->sector == sector && s->kind == kind) {
			s->used = ++v->use_clock;
			return v->cache[i];
		}
	}
	int victim = cache_victim(v);
	if (victim < 0) {
		if (fat_commit(v, err, len))
			return NULL;
		victim = cache_victim(v);
	}
	struct fat_cache_slot *s = &v->slot[victim];
	s->sector = UINT32_MAX;
	if (fat_sec_read(v, sector, 1, v->cache[victim], err, len))
		return NULL;
	s->sector = sector;
	s->kind = (uint8_t)kind;
	s->dirty = 0;
	s->used = ++v->use_clock;
	return v->cache[victim];
}

/* See fat.h. */
int fat_cache_reserve(struct fat_vol *v, int n, char *err, size_t len)
{
	int clean = 0;
	for (int i = 0; i < FAT_CACHE_SLOTS; i++)
		clean += !v->slot[i].dirty;
	return clean < n ? fat_commit(v, err, len) : 0;
}

/* See fat.h. */
void fat_cache_dirty(struct fat_vol *v, const uint8_t *p)
{
	for (int i = 0; i < FAT_CACHE_SLOTS; i++)
		if (p >= v->cache[i] && p < v->cache[i] + BLK_SIZE_MAX)
			v->slot[i].dirty = 1;
}

/* The boot sector's state bit (bit 0 of the byte after the drive
 * number): set while a commit is under way. */
static int mark_state(struct fat_vol *v, int dirty, char *err, size_t len)
{
	int rc = fat_sec_read(v, 0, 1, v->scratch, err, len);
	if (rc)
		return rc;
	uint8_t *state = &v->scratch[v->g.state_offset];
	*state = (uint8_t)(dirty ? *state | 1 : *state & ~1);
	return fat_sec_write(v, 0, 1, v->scratch, err, len);
}

/* FSInfo's free count and next-free hint (FAT32 only); free UINT32_MAX
 * says "unknown", which every reader takes as "count it". */
static int write_fsinfo(struct fat_vol *v, uint32_t free, char *err, size_t len)
{
	if (v->g.type != 32 || !v->g.fsinfo_sector)
		return 0;
	int rc = fat_sec_read(v, v->g.fsinfo_sector, 1, v->scratch, err, len);
	if (rc)
		return rc;
	uint8_t *b = v->scratch;
	if (memcmp(b, "RRaA", 4) != 0 || memcmp(b + 484, "rrAa", 4) != 0)
		return 0;   /* no valid FSInfo to keep honest (fat_mount() noted it) */
	uint32_t next = v->next_free;
	for (int i = 0; i < 4; i++) {
		b[FSINFO_FREE + i] = (uint8_t)(free >> (8 * i));
		b[FSINFO_NEXT + i] = (uint8_t)(next >> (8 * i));
	}
	return fat_sec_write(v, v->g.fsinfo_sector, 1, b, err, len);
}

/* Writes the dirty slots of one kind; FAT sectors to FAT copy `copy`. */
static int write_slots(struct fat_vol *v, int kind, unsigned copy, char *err, size_t len)
{
	for (int i = 0; i < FAT_CACHE_SLOTS; i++) {
		struct fat_cache_slot *s = &v->slot[i];
		if (!s->dirty || s->kind != kind)
			continue;
		uint32_t sector = s->sector + (kind == FAT_SLOT_FAT ? copy * v->g.fat_sectors : 0);
		int rc = fat_sec_write(v, sector, 1, v->cache[i], err, len);
		if (rc)
			return rc;
	}
	return 0;
}

/* See fat.h. */
int fat_commit(struct fat_vol *v, char *err, size_t len)
{
	int any = 0, rc;
	for (int i = 0; i < FAT_CACHE_SLOTS; i++)
		any |= v->slot[i].dirty;
	if (!any)
		return 0;
	if (!v->writable) {
		ksnprintf(err, len, "changes on a volume mounted read-only");
		return FS_EROFS;
	}
	if ((rc = fat_sync(v, err, len)) ||                      /* 1: the data is on the stick */
	    (rc = mark_state(v, 1, err, len)) || (rc = write_fsinfo(v, UINT32_MAX, err, len)) ||
	    (rc = fat_sync(v, err, len)))                         /* 2: "check me" if cut from here */
		return rc;
	for (unsigned copy = 0; copy < v->g.nfats; copy++)       /* 3: FAT 1, then FAT 2 */
		if ((rc = write_slots(v, FAT_SLOT_FAT, copy, err, len)))
			return rc;
	if ((rc = fat_sync(v, err, len)) || (rc = write_slots(v, FAT_SLOT_DIR, 0, err, len)) ||
	    (rc = fat_sync(v, err, len)))                         /* 4: the directory entries */
		return rc;
	if ((rc = write_fsinfo(v, v->free_clusters, err, len)) || (rc = mark_state(v, 0, err, len)) ||
	    (rc = fat_sync(v, err, len)))                         /* 5: honest again, clean */
		return rc;
	for (int i = 0; i < FAT_CACHE_SLOTS; i++)
		v->slot[i].dirty = 0;
	return 0;
}
