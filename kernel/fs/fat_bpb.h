/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat_bpb.h — the FAT boot sector (BIOS parameter block) read and checked
 * into a geometry: where the FATs, the root directory and the clusters
 * are, and which FAT it is. The rules are Microsoft's "FAT: General
 * Overview of On-Disk Format" (version 1.03): the type follows from the
 * count of data clusters alone (below 4085 FAT12, below 65525 FAT16, else
 * FAT32), every count must fit the partition, and the FATs must be large
 * enough for every cluster. Portable C, no locks.
 */
#ifndef MOSAIC_FS_FAT_BPB_H
#define MOSAIC_FS_FAT_BPB_H
#include <stddef.h>
#include <stdint.h>

#define FAT_CLUSTER_MAX (64u * 1024u)     /* largest cluster handled, bytes */

struct fat_geom {
	uint8_t type;             /* 12, 16 or 32 */
	uint8_t nfats;            /* 1 or 2 */
	uint8_t dirty;            /* the boot sector's state byte says "not cleanly unmounted" */
	uint8_t state_offset;     /* offset of that byte in the boot sector (37 or 65) */
	uint32_t sector_size;     /* bytes per FAT sector: 512..4096 */
	uint32_t sec_per_clus;
	uint32_t cluster_size;    /* bytes */
	uint32_t reserved;        /* sectors before the first FAT */
	uint32_t fat_sectors;     /* sectors per FAT */
	uint32_t root_entries;    /* FAT12/16: entries of the fixed root directory */
	uint32_t root_sector;     /* FAT12/16: first sector of the root directory */
	uint32_t root_sectors;    /* FAT12/16: its sectors (0 on FAT32) */
	uint32_t first_data;      /* sector of cluster 2 */
	uint32_t total_sectors;
	uint32_t clusters;        /* data clusters: valid cluster numbers are 2..clusters+1 */
	uint32_t root_cluster;    /* FAT32: first cluster of the root directory */
	uint32_t fsinfo_sector;   /* FAT32: the FSInfo sector, 0 when there is none */
	uint32_t serial;
	char label[12];           /* volume label of the boot sector, blanks trimmed */
};

/* Checks the boot sector b[0..len) (len >= 512) of a partition of
 * part_bytes bytes and fills g. 0, or FS_EUNSUPP / FS_ECORRUPT with the
 * reason in err ("bytes per sector 700 is not 512..4096", "FAT32-style
 * boot sector with 4000 clusters (Windows would read FAT12)", "the FATs
 * have room for 1000 clusters, the volume has 2000", ...); g is left alone
 * then. Never reads outside b. */
int fat_bpb_parse(const uint8_t *b, size_t len, uint64_t part_bytes, struct fat_geom *g,
		  char *err, size_t err_len);

#endif
