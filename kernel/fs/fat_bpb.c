/* SPDX-License-Identifier: BSD-2-Clause */
/* fat_bpb.c — the FAT boot sector checked into a geometry (see fat_bpb.h). */
#include <fs/fat_bpb.h>
#include <fs/blkdev.h>
#include <kern/printk.h>
#include <lib/string.h>

/* Little-endian fields of the boot sector (offsets are below 512). */
static uint32_t le16(const uint8_t *b, unsigned off) { return b[off] | (uint32_t)b[off + 1] << 8; }
static uint32_t le32(const uint8_t *b, unsigned off)
{
	return le16(b, off) | le16(b, off + 2) << 16;
}

/* 1 when v is a power of two in lo..hi. */
static int pow2_in(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

/* The 11-byte label at off, trailing blanks removed, odd bytes as '?'. */
static void copy_label(const uint8_t *b, unsigned off, char out[12])
{
	int n = 11;
	while (n > 0 && b[off + n - 1] == ' ')
		n--;
	for (int i = 0; i < n; i++)
		out[i] = b[off + i] >= 0x20 && b[off + i] < 0x7F ? (char)b[off + i] : '?';
	out[n] = 0;
}

/* See fat_bpb.h. */
int fat_bpb_parse(const uint8_t *b, size_t len, uint64_t part_bytes, struct fat_geom *out,
		  char *err, size_t err_len)
{
	struct fat_geom g;
	memset(&g, 0, sizeof(g));
	if (len < 512) {
		ksnprintf(err, err_len, "boot sector shorter than 512 bytes");
		return FS_ECORRUPT;
	}
	if (!(b[0] == 0xEB && b[2] == 0x90) && b[0] != 0xE9) {
		ksnprintf(err, err_len, "no FAT boot sector (jump bytes %02x %02x %02x)", b[0], b[1], b[2]);
		return FS_ECORRUPT;
	}
	if (b[510] != 0x55 || b[511] != 0xAA) {
		ksnprintf(err, err_len, "no FAT boot sector (signature %02x%02x, not 55aa)", b[510], b[511]);
		return FS_ECORRUPT;
	}
	g.sector_size = le16(b, 11);
	g.sec_per_clus = b[13];
	g.reserved = le16(b, 14);
	g.nfats = b[16];
	g.root_entries = le16(b, 17);
	uint32_t tot16 = le16(b, 19), fat16 = le16(b, 22), tot32 = le32(b, 32), media = b[21];
	if (!pow2_in(g.sector_size, 512, 4096)) {
		ksnprintf(err, err_len, "bytes per sector %u is not 512, 1024, 2048 or 4096", g.sector_size);
		return FS_EUNSUPP;
	}
	if (!pow2_in(g.sec_per_clus, 1, 128) || g.sec_per_clus * g.sector_size > FAT_CLUSTER_MAX) {
		ksnprintf(err, err_len, "sectors per cluster %u (of %u bytes): not a power of two up to %u KiB",
			  g.sec_per_clus, g.sector_size, FAT_CLUSTER_MAX / 1024);
		return FS_EUNSUPP;
	}
	g.cluster_size = g.sec_per_clus * g.sector_size;
	if (g.reserved == 0 || g.nfats < 1 || g.nfats > 2 || (media != 0xF0 && media < 0xF8)) {
		ksnprintf(err, err_len, "reserved sectors %u, FATs %u, media byte 0x%02x: not a FAT volume",
			  g.reserved, g.nfats, media);
		return FS_ECORRUPT;
	}
	int style32 = fat16 == 0;
	g.fat_sectors = style32 ? le32(b, 36) : fat16;
	g.total_sectors = tot16 ? tot16 : tot32;
	if (g.fat_sectors == 0 || g.total_sectors == 0 || (tot16 && tot32 && tot16 != tot32)) {
		ksnprintf(err, err_len, "FAT size %u, total sectors %u/%u: not a FAT volume", g.fat_sectors,
			  tot16, tot32);
		return FS_ECORRUPT;
	}
	if (style32 && (g.root_entries || tot16)) {
		ksnprintf(err, err_len, "FAT32 boot sector with %u root entries and a 16-bit total", g.root_entries);
		return FS_ECORRUPT;
	}
	if ((uint64_t)g.total_sectors * g.sector_size > part_bytes) {
		ksnprintf(err, err_len, "the file system (%lu bytes) is larger than its partition (%lu bytes)",
			  (uint64_t)g.total_sectors * g.sector_size, part_bytes);
		return FS_ECORRUPT;
	}
	g.root_sectors = (g.root_entries * 32 + g.sector_size - 1) / g.sector_size;
	g.root_sector = g.reserved + g.nfats * g.fat_sectors;
	uint64_t meta = (uint64_t)g.root_sector + g.root_sectors;
	if (meta >= g.total_sectors) {
		ksnprintf(err, err_len, "FATs and root directory (%lu sectors) leave no room for data in %u sectors",
			  meta, g.total_sectors);
		return FS_ECORRUPT;
	}
	g.first_data = (uint32_t)meta;
	g.clusters = (g.total_sectors - g.first_data) / g.sec_per_clus;
	g.type = g.clusters < 4085 ? 12 : g.clusters < 65525 ? 16 : 32;
	if (g.clusters == 0 || (g.type == 32) != style32) {
		ksnprintf(err, err_len, "%s-style boot sector with %u clusters (Windows would read it as FAT%u)",
			  style32 ? "FAT32" : "FAT12/16", g.clusters, g.type);
		return FS_EUNSUPP;
	}
	if (g.type == 32 && g.clusters > 0x0FFFFFF5u) {
		ksnprintf(err, err_len, "%u clusters: more than FAT32 can number", g.clusters);
		return FS_ECORRUPT;
	}
	uint64_t fat_need = (((uint64_t)g.clusters + 2) * g.type + 7) / 8;
	if ((uint64_t)g.fat_sectors * g.sector_size < fat_need) {
		ksnprintf(err, err_len, "the FATs (%u sectors) have no room for %u clusters", g.fat_sectors,
			  g.clusters);
		return FS_ECORRUPT;
	}
	unsigned ext = 36;
	if (style32) {
		uint32_t flags = le16(b, 40), version = le16(b, 42), fsinfo = le16(b, 48);
		g.root_cluster = le32(b, 44);
		if (version != 0) {
			ksnprintf(err, err_len, "FAT32 version %u.%u (only 0.0 is defined)", version >> 8, version & 0xFF);
			return FS_EUNSUPP;
		}
		if (flags & 0x80) {
			ksnprintf(err, err_len, "FAT mirroring is off (only FAT %u is active)", flags & 0xF);
			return FS_EUNSUPP;
		}
		if (g.root_cluster < 2 || g.root_cluster > g.clusters + 1) {
			ksnprintf(err, err_len, "root directory cluster %u outside 2..%u", g.root_cluster,
				  g.clusters + 1);
			return FS_ECORRUPT;
		}
		g.fsinfo_sector = fsinfo >= 1 && fsinfo < g.reserved ? fsinfo : 0;
		ext = 64;
	}
	g.state_offset = (uint8_t)(ext + 1);
	if (b[ext + 2] == 0x29 || b[ext + 2] == 0x28) {
		g.dirty = b[ext + 1] & 1;
		g.serial = le32(b, ext + 3);
		if (b[ext + 2] == 0x29)
			copy_label(b, ext + 7, g.label);
	}
	*out = g;
	return 0;
}
