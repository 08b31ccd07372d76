/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * part.h — the partition table of a block device: GPT (UEFI 2.10, chapter
 * 5: header and entry array with their CRC-32s, the backup header when
 * the primary is damaged), MBR (four primary entries; extended
 * partitions are listed, not followed), or none (a "superfloppy": a FAT
 * boot sector at block 0, as mkfs.fat makes on a whole device). A hybrid
 * MBR beside a GPT (build/mosaic.iso has one) counts as GPT. Every read
 * is bounded: at most PART_GPT_ARRAY_MAX bytes of entries, PART_MAX
 * partitions kept. Portable C, no locks.
 */
#ifndef MOSAIC_FS_PART_H
#define MOSAIC_FS_PART_H
#include <stdint.h>
#include <fs/blkdev.h>

#define PART_MAX 16
#define PART_GPT_ARRAY_MAX (256u * 1024u)   /* largest GPT entry array read */
#define PART_NOTE_MAX 120

enum part_scheme { PART_SCHEME_NONE, PART_SCHEME_MBR, PART_SCHEME_GPT };
enum part_kind {
	PART_KIND_DATA,        /* may hold FAT: MBR FAT types, GPT basic data, the whole device */
	PART_KIND_ESP,         /* EFI system partition (MBR 0xEF, GPT C12A7328-...) */
	PART_KIND_EXTENDED,    /* MBR extended partition: not followed */
	PART_KIND_OTHER,       /* any other type: not probed for FAT */
};

struct part_entry {
	uint32_t index;        /* 1-based: the MBR slot or the GPT entry number; 0 for the whole device */
	uint8_t kind;          /* enum part_kind */
	uint8_t mbr_type;      /* MBR type byte (0 for GPT) */
	uint64_t start, count; /* in device blocks; start + count <= the device's blocks */
	char label[37];        /* GPT name (ASCII, others as '?'); "" for MBR */
};

struct part_table {
	uint8_t scheme;        /* enum part_scheme */
	uint32_t count;
	struct part_entry e[PART_MAX];
	char note[PART_NOTE_MAX];   /* something odd that was worked around, "" when none */
};

/* Reads dev's partition table into t: 0, or an FS_E* code with the
 * reason in err (a read error, a protective MBR without any valid GPT).
 * A device with no table gets one entry for the whole device (scheme
 * NONE), whose FAT boot sector is checked later. Entries outside the
 * device or overlapping an earlier one are skipped and said in t->note.
 * Uses a scratch buffer of BLK_SIZE_MAX bytes on the stack. */
int part_scan(const struct blkdev *dev, struct part_table *t, char *err, size_t err_len);
/* The name of a partition of dev in FreeBSD's style: "da0" (whole
 * device), "da0s1" (MBR slice 1), "da0p4" (GPT entry 4). */
void part_name(const struct blkdev *dev, const struct part_table *t, const struct part_entry *e,
	       char *out, size_t len);

#endif
