/* SPDX-License-Identifier: BSD-2-Clause */
/* part.c — GPT, MBR or no partition table (see part.h). */
#include <fs/part.h>
#include <fs/fat_bpb.h>
#include <lib/crc32.h>
#include <kern/printk.h>
#include <lib/string.h>

#define MBR_TYPE_PROTECTIVE 0xEE
#define GPT_ENTRY_KEEP 128           /* bytes of each GPT entry that are read */
#define GPT_ENTRY_SIZE_MAX 4096

/* C12A7328-F81F-11D2-BA4B-00A0C93EC93B and EBD0A0A2-B9E5-4433-87C0-68B6B72699C7
 * as stored (the first three fields little-endian). */
static const uint8_t guid_esp[16] = { 0x28, 0x73, 0x2A, 0xC1, 0x1F, 0xF8, 0xD2, 0x11,
				      0xBA, 0x4B, 0x00, 0xA0, 0xC9, 0x3E, 0xC9, 0x3B };
static const uint8_t guid_basic[16] = { 0xA2, 0xA0, 0xD0, 0xEB, 0xE5, 0xB9, 0x33, 0x44,
					0x87, 0xC0, 0x68, 0xB6, 0xB7, 0x26, 0x99, 0xC7 };

static uint32_t le32(const uint8_t *b) { return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }
static uint64_t le64(const uint8_t *b) { return le32(b) | (uint64_t)le32(b + 4) << 32; }

/* A GPT header's fields that matter here. */
struct gpt_hdr {
	uint64_t first_usable, last_usable, entries_lba;
	uint32_t nent, esz, entries_crc;
};

/* Sets the note once (the first oddity is the one said). */
static void note(struct part_table *t, const char *fmt, uint64_t a, uint64_t b)
{
	if (!t->note[0])
		ksnprintf(t->note, sizeof(t->note), fmt, a, b);
}

/* Checks the GPT header in block b (block size bs) read from lba of a
 * device of `blocks` blocks. 0 or FS_ECORRUPT with the reason. */
static int gpt_header_check(const uint8_t *b, uint32_t bs, uint64_t lba, uint64_t blocks,
			    struct gpt_hdr *h, char *err, size_t len)
{
	uint8_t copy[512];
	uint32_t hsize = le32(b + 12);
	if (memcmp(b, "EFI PART", 8) != 0) {
		ksnprintf(err, len, "no GPT header at block %lu", lba);
		return FS_ECORRUPT;
	}
	if (hsize < 92 || hsize > bs || hsize > sizeof(copy)) {
		ksnprintf(err, len, "GPT header at block %lu: size %u outside 92..%u", lba, hsize,
			  bs < sizeof(copy) ? bs : (uint32_t)sizeof(copy));
		return FS_ECORRUPT;
	}
	memcpy(copy, b, hsize);
	memset(copy + 16, 0, 4);
	if (crc32_update(0, copy, hsize) != le32(b + 16)) {
		ksnprintf(err, len, "GPT header at block %lu: CRC-32 does not match", lba);
		return FS_ECORRUPT;
	}
	h->first_usable = le64(b + 40);
	h->last_usable = le64(b + 48);
	h->entries_lba = le64(b + 72);
	h->nent = le32(b + 80);
	h->esz = le32(b + 84);
	h->entries_crc = le32(b + 88);
	uint64_t array = (uint64_t)h->nent * h->esz, array_blocks = (array + bs - 1) / bs;
	if (le64(b + 24) != lba || h->first_usable > h->last_usable || h->last_usable >= blocks) {
		ksnprintf(err, len, "GPT header at block %lu: its own block or usable blocks %lu..%lu do not fit "
			  "the device", lba, h->first_usable, h->last_usable);
		return FS_ECORRUPT;
	}
	if (h->esz < GPT_ENTRY_KEEP || h->esz % 8 || h->esz > GPT_ENTRY_SIZE_MAX || h->nent == 0 ||
	    array > PART_GPT_ARRAY_MAX) {
		ksnprintf(err, len, "GPT header at block %lu: %u entries of %u bytes (at most %u KiB of entries "
			  "of 128..4096 bytes)", lba, h->nent, h->esz, PART_GPT_ARRAY_MAX / 1024);
		return FS_EUNSUPP;
	}
	if (h->entries_lba == 0 || h->entries_lba >= blocks || array_blocks > blocks - h->entries_lba ||
	    (lba >= h->entries_lba && lba < h->entries_lba + array_blocks)) {
		ksnprintf(err, len, "GPT header at block %lu: entry array at block %lu does not fit", lba,
			  h->entries_lba);
		return FS_ECORRUPT;
	}
	return 0;
}

/* Adds an entry after checking it against the device and the entries
 * kept so far; odd ones are skipped with a note. */
static void add_entry(struct part_table *t, uint64_t blocks, const struct part_entry *e)
{
	if (e->count == 0 || e->start == 0 || e->start >= blocks || e->count > blocks - e->start) {
		note(t, "partition %lu at block %lu lies outside the device: skipped", e->index, e->start);
		return;
	}
	for (uint32_t i = 0; i < t->count; i++) {
		const struct part_entry *o = &t->e[i];
		if (e->start < o->start + o->count && o->start < e->start + e->count) {
			note(t, "partition %lu overlaps partition %lu: skipped", e->index, o->index);
			return;
		}
	}
	if (t->count == PART_MAX) {
		note(t, "more than %lu partitions: partition %lu and later ignored", PART_MAX, e->index);
		return;
	}
	t->e[t->count++] = *e;
}

/* One GPT entry (its first GPT_ENTRY_KEEP bytes), number idx. */
static void gpt_entry(struct part_table *t, const struct gpt_hdr *h, uint64_t blocks, const uint8_t *b,
		      uint32_t idx)
{
	static const uint8_t zero[16];
	if (memcmp(b, zero, 16) == 0)
		return;
	struct part_entry e;
	memset(&e, 0, sizeof(e));
	e.index = idx;
	uint64_t first = le64(b + 32), last = le64(b + 40);
	if (first > last || first < h->first_usable || last > h->last_usable) {
		note(t, "GPT entry %lu (blocks %lu..) lies outside the usable blocks: skipped", idx, first);
		return;
	}
	e.start = first;
	e.count = last - first + 1;
	e.kind = memcmp(b, guid_esp, 16) == 0 ? PART_KIND_ESP
		 : memcmp(b, guid_basic, 16) == 0 ? PART_KIND_DATA : PART_KIND_OTHER;
	for (int i = 0; i < 36; i++) {
		uint32_t c = b[56 + 2 * i] | (uint32_t)b[57 + 2 * i] << 8;
		if (c == 0)
			break;
		e.label[i] = c >= 0x20 && c < 0x7F ? (char)c : '?';
	}
	add_entry(t, blocks, &e);
}

/* Reads the GPT whose header is at lba: header, then the entry array,
 * block by block, checked against its CRC-32 before any entry is kept. */
static int gpt_read(const struct blkdev *dev, uint64_t lba, struct part_table *t, uint8_t *blk,
		    char *err, size_t len)
{
	struct gpt_hdr h;
	char why[100];
	int rc = dev->read(dev->ctx, lba, 1, blk, why, sizeof(why));
	if (rc) {
		ksnprintf(err, len, "reading block %lu: %s", lba, why);
		return rc;
	}
	if ((rc = gpt_header_check(blk, dev->block_size, lba, dev->blocks, &h, err, len)))
		return rc;
	uint64_t total = (uint64_t)h.nent * h.esz;
	uint32_t crc = 0;
	for (int pass = 0; pass < 2; pass++) {      /* pass 0: the CRC; pass 1: the entries */
		uint8_t ent[GPT_ENTRY_KEEP];
		uint64_t off = 0;
		for (uint64_t blkno = h.entries_lba; off < total; blkno++) {
			if ((rc = dev->read(dev->ctx, blkno, 1, blk, why, sizeof(why)))) {
				ksnprintf(err, len, "reading GPT entries at block %lu: %s", blkno, why);
				return rc;
			}
			uint32_t n = total - off < dev->block_size ? (uint32_t)(total - off) : dev->block_size;
			if (pass == 0) {
				crc = crc32_update(crc, blk, n);
				off += n;
				continue;
			}
			for (uint32_t i = 0; i < n; i++, off++) {
				uint64_t in_entry = off % h.esz;
				if (in_entry < GPT_ENTRY_KEEP)
					ent[in_entry] = blk[i];
				if (in_entry == h.esz - 1)
					gpt_entry(t, &h, dev->blocks, ent, (uint32_t)(off / h.esz) + 1);
			}
		}
		if (pass == 0 && crc != h.entries_crc) {
			ksnprintf(err, len, "GPT at block %lu: the entry array's CRC-32 does not match", lba);
			return FS_ECORRUPT;
		}
	}
	return 0;
}

/* The four MBR entries of blk: 1 when they look like a partition table
 * (boot flags 0x00 or 0x80, some entry in use), then kept in t. */
static int mbr_read(const uint8_t *blk, uint64_t blocks, struct part_table *t)
{
	int used = 0;
	for (int i = 0; i < 4; i++) {
		const uint8_t *p = blk + 446 + 16 * i;
		if (p[4] == 0)
			continue;
		if (p[0] != 0 && p[0] != 0x80)
			return 0;
		used++;
	}
	if (!used)
		return 0;
	for (int i = 0; i < 4; i++) {
		const uint8_t *p = blk + 446 + 16 * i;
		if (p[4] == 0 || p[4] == MBR_TYPE_PROTECTIVE)
			continue;
		struct part_entry e;
		memset(&e, 0, sizeof(e));
		e.index = (uint32_t)i + 1;
		e.mbr_type = p[4];
		e.start = le32(p + 8);
		e.count = le32(p + 12);
		switch (p[4]) {
		case 0x01: case 0x04: case 0x06: case 0x0B: case 0x0C: case 0x0E:
		case 0x07:   /* NTFS/exFAT ids; some tools put FAT32 there too */
			e.kind = PART_KIND_DATA;
			break;
		case 0xEF:
			e.kind = PART_KIND_ESP;
			break;
		case 0x05: case 0x0F: case 0x85:
			e.kind = PART_KIND_EXTENDED;
			break;
		default:
			e.kind = PART_KIND_OTHER;
			break;
		}
		add_entry(t, blocks, &e);
	}
	return 1;
}

/* See part.h. */
int part_scan(const struct blkdev *dev, struct part_table *t, char *err, size_t err_len)
{
	uint8_t blk[BLK_SIZE_MAX];
	char why[100];
	memset(t, 0, sizeof(*t));
	if (dev->block_size < BLK_SIZE_MIN || dev->block_size > BLK_SIZE_MAX ||
	    (dev->block_size & (dev->block_size - 1)) || dev->blocks < 2) {
		ksnprintf(err, err_len, "%lu blocks of %u bytes: not a device this code reads", dev->blocks,
			  dev->block_size);
		return FS_EUNSUPP;
	}
	int rc = dev->read(dev->ctx, 0, 1, blk, why, sizeof(why));
	if (rc) {
		ksnprintf(err, err_len, "reading block 0: %s", why);
		return rc;
	}
	int signed55aa = blk[510] == 0x55 && blk[511] == 0xAA, protective = 0;
	for (int i = 0; i < 4 && signed55aa; i++)
		protective |= blk[446 + 16 * i + 4] == MBR_TYPE_PROTECTIVE;
	if (protective) {
		char first[120];
		t->scheme = PART_SCHEME_GPT;
		if (gpt_read(dev, 1, t, blk, first, sizeof(first)) == 0)
			return 0;
		memset(t->e, 0, sizeof(t->e));
		t->count = 0;
		t->note[0] = 0;
		if (gpt_read(dev, dev->blocks - 1, t, blk, why, sizeof(why)) == 0) {
			ksnprintf(t->note, sizeof(t->note), "primary GPT unusable (%s); the backup was used", first);
			return 0;
		}
		ksnprintf(err, err_len, "protective MBR, but no usable GPT: %s", first);
		return FS_ECORRUPT;
	}
	struct fat_geom g;
	if (fat_bpb_parse(blk, dev->block_size, dev->blocks * dev->block_size, &g, why, sizeof(why)) != 0 &&
	    signed55aa && mbr_read(blk, dev->blocks, t)) {
		t->scheme = PART_SCHEME_MBR;
		return 0;
	}
	t->scheme = PART_SCHEME_NONE;
	t->count = 1;
	t->e[0].kind = PART_KIND_DATA;
	t->e[0].count = dev->blocks;
	return 0;
}

/* See part.h. */
void part_name(const struct blkdev *dev, const struct part_table *t, const struct part_entry *e,
	       char *out, size_t len)
{
	if (t->scheme == PART_SCHEME_NONE)
		ksnprintf(out, len, "%s", dev->name);
	else
		ksnprintf(out, len, "%s%c%u", dev->name, t->scheme == PART_SCHEME_GPT ? 'p' : 's', e->index);
}
