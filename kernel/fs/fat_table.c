/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat_table.c — the file allocation table: entries of 12, 16 or 32 bits
 * read and written through the sector cache (a FAT12 entry may straddle
 * two sectors), chains followed with every step checked, free clusters
 * found and taken.
 */
#include <fs/fat.h>
#include <kern/printk.h>
#include <lib/string.h>

/* Byte offset of cluster c's entry in a FAT. */
static uint64_t entry_offset(const struct fat_vol *v, uint32_t c)
{
	return v->g.type == 12 ? (uint64_t)c + c / 2 : (uint64_t)c * (v->g.type / 8);
}

/* The cached sectors holding cluster c's entry (c may be 0 or 1, the
 * FAT's own entries) in the first FAT: both fetched before either is used, so neither evicts the other. */
static int entry_bytes(struct fat_vol *v, uint32_t c, uint8_t *p[4], char *err, size_t len)
{
	uint32_t width = v->g.type == 12 ? 2 : v->g.type / 8, ss = v->g.sector_size;
	uint64_t off = entry_offset(v, c);
	uint32_t s0 = (uint32_t)(off / ss), s1 = (uint32_t)((off + width - 1) / ss);
	if (c > v->g.clusters + 1 || s1 >= v->g.fat_sectors) {
		ksnprintf(err, len, "cluster %u is outside 2..%u", c, v->g.clusters + 1);
		return FS_ECORRUPT;
	}
	uint8_t *a = fat_cache_get(v, v->g.reserved + s0, FAT_SLOT_FAT, err, len);
	uint8_t *b = a && s1 != s0 ? fat_cache_get(v, v->g.reserved + s1, FAT_SLOT_FAT, err, len) : a;
	if (!a || !b)
		return FS_EIO;
	if (s1 != s0 && !(a = fat_cache_get(v, v->g.reserved + s0, FAT_SLOT_FAT, err, len)))
		return FS_EIO;   /* (a hit unless the second fetch committed and evicted it) */
	for (uint32_t i = 0; i < width; i++) {
		uint64_t o = off + i;
		p[i] = (o / ss == s0 ? a : b) + o % ss;
	}
	return 0;
}

/* See fat.h. The value of cluster c's entry. */
int fat_get(struct fat_vol *v, uint32_t c, uint32_t *val, char *err, size_t len)
{
	uint8_t *p[4];
	int rc = entry_bytes(v, c, p, err, len);
	if (rc)
		return rc;
	if (v->g.type == 12) {
		uint32_t w = *p[0] | (uint32_t)*p[1] << 8;
		*val = c & 1 ? w >> 4 : w & 0xFFF;
	} else if (v->g.type == 16) {
		*val = *p[0] | (uint32_t)*p[1] << 8;
	} else {
		*val = (*p[0] | (uint32_t)*p[1] << 8 | (uint32_t)*p[2] << 16 | (uint32_t)*p[3] << 24) & 0x0FFFFFFF;
	}
	return 0;
}

/* See fat.h. Sets cluster c's entry (FAT32: the top four bits kept, as the
 * specification asks) in the cache; fat_commit() writes every FAT copy. */
int fat_set(struct fat_vol *v, uint32_t c, uint32_t val, char *err, size_t len)
{
	uint8_t *p[4];
	int rc = entry_bytes(v, c, p, err, len);
	if (rc)
		return rc;
	if (v->g.type == 12) {
		uint32_t w = *p[0] | (uint32_t)*p[1] << 8;
		w = c & 1 ? (w & 0x000F) | (val & 0xFFF) << 4 : (w & 0xF000) | (val & 0xFFF);
		*p[0] = (uint8_t)w;
		*p[1] = (uint8_t)(w >> 8);
	} else if (v->g.type == 16) {
		*p[0] = (uint8_t)val;
		*p[1] = (uint8_t)(val >> 8);
	} else {
		val = (val & 0x0FFFFFFF) | ((uint32_t)*p[3] & 0xF0) << 24;
		for (int i = 0; i < 4; i++)
			*p[i] = (uint8_t)(val >> (8 * i));
	}
	fat_cache_dirty(v, p[0]);
	fat_cache_dirty(v, p[v->g.type == 32 ? 3 : 1]);
	return 0;
}

/* See fat.h. */
uint32_t fat_eoc(const struct fat_vol *v)
{
	return v->fat_mask;
}

/* See fat.h. End-of-chain values are 0x?FF8..0x?FFF. */
int fat_is_eoc(const struct fat_vol *v, uint32_t val)
{
	return val >= (v->fat_mask & ~7u);
}

/* See fat.h. */
int fat_next(struct fat_vol *v, uint32_t c, uint32_t *next, char *err, size_t len)
{
	uint32_t val;
	if (c < 2) {
		ksnprintf(err, len, "cluster %u is outside 2..%u", c, v->g.clusters + 1);
		return FS_ECORRUPT;
	}
	int rc = fat_get(v, c, &val, err, len);
	if (rc)
		return rc;
	if (fat_is_eoc(v, val)) {
		*next = 0;
		return 0;
	}
	if (val < 2 || val > v->g.clusters + 1) {
		ksnprintf(err, len, "cluster %u's FAT entry is %s (0x%x)", c,
			  val == 0 ? "free: the chain is broken" : val == (v->fat_mask & ~8u) ? "bad" : "outside the volume",
			  val);
		return FS_ECORRUPT;
	}
	*next = val;
	return 0;
}

/* See fat.h. Searches from the hint, wrapping once. */
int fat_alloc(struct fat_vol *v, uint32_t *out, char *err, size_t len)
{
	if (v->free_clusters == 0) {
		ksnprintf(err, len, "no free cluster left");
		return FS_ENOSPC;
	}
	uint32_t n = v->g.clusters, c = v->next_free >= 2 && v->next_free <= n + 1 ? v->next_free : 2;
	for (uint32_t i = 0; i < n; i++, c = c == n + 1 ? 2 : c + 1) {
		uint32_t val;
		int rc = fat_get(v, c, &val, err, len);
		if (rc)
			return rc;
		if (val != 0)
			continue;
		if ((rc = fat_set(v, c, fat_eoc(v), err, len)))
			return rc;
		v->free_clusters--;
		v->next_free = c == n + 1 ? 2 : c + 1;
		*out = c;
		return 0;
	}
	ksnprintf(err, len, "the free count said %u, but no cluster is free", v->free_clusters);
	return FS_ECORRUPT;
}

/* See fat.h. */
uint32_t fat_cluster_sector(const struct fat_vol *v, uint32_t c)
{
	return v->g.first_data + (c - 2) * v->g.sec_per_clus;
}

/* See fat.h. Zeroes cluster c on the volume now (a new directory's
 * cluster: no metadata points at it yet). */
int fat_zero_cluster(struct fat_vol *v, uint32_t c, char *err, size_t len)
{
	memset(v->scratch, 0, v->g.sector_size);
	uint32_t s = fat_cluster_sector(v, c);
	for (uint32_t i = 0; i < v->g.sec_per_clus; i++) {
		int rc = fat_sec_write(v, s + i, 1, v->scratch, err, len);
		if (rc)
			return rc;
	}
	return 0;
}

/* See fat.h. */
uint32_t fat_clusters_for(const struct fat_vol *v, uint32_t size, uint32_t len)
{
	uint64_t cs = v->g.cluster_size;
	uint64_t have = (size + cs - 1) / cs, need = ((uint64_t)size + len + cs - 1) / cs;
	return (uint32_t)(need - have);
}
