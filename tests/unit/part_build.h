/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * part_build.h — partition tables written into a disk image in memory
 * (UEFI 2.10, 5.2 and 5.3: an MBR, or a protective MBR with a primary GPT
 * at block 1 and its backup at the last block, CRC-32s filled in), for
 * tests/unit/test_part.c and tests/fuzz/fuzz_part.c. Header-only.
 */
#ifndef MOSAIC_TEST_PART_BUILD_H
#define MOSAIC_TEST_PART_BUILD_H
#include <stdint.h>
#include <string.h>
#include <lib/crc32.h>

struct pb_part {
	const uint8_t *type;      /* GPT type GUID (16 bytes, on-disk order) */
	uint8_t mbr_type;
	uint64_t start, count;    /* blocks */
	const char *label;
};

static const uint8_t pb_guid_esp[16] = { 0x28, 0x73, 0x2A, 0xC1, 0x1F, 0xF8, 0xD2, 0x11,
					 0xBA, 0x4B, 0x00, 0xA0, 0xC9, 0x3E, 0xC9, 0x3B };
static const uint8_t pb_guid_basic[16] = { 0xA2, 0xA0, 0xD0, 0xEB, 0xE5, 0xB9, 0x33, 0x44,
					   0x87, 0xC0, 0x68, 0xB6, 0xB7, 0x26, 0x99, 0xC7 };
static const uint8_t pb_guid_linux[16] = { 0xAF, 0x3D, 0xC6, 0x0F, 0x83, 0x84, 0x72, 0x47,
					   0x8E, 0x79, 0x3D, 0x69, 0xD8, 0x47, 0x7D, 0xE4 };

/* The usable blocks of pb_gpt()'s layout: after the MBR, the primary
 * header and its 16 KiB array; before the backup array and header. */
#define PB_FIRST_USABLE(bs) (2 + 128 * 128 / (bs))
#define PB_LAST_USABLE(bs, blocks) ((blocks) - 2 - 128 * 128 / (bs))

static inline void pb_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void pb_put64(uint8_t *p, uint64_t v)
{
	pb_put32(p, (uint32_t)v);
	pb_put32(p + 4, (uint32_t)(v >> 32));
}

/* An MBR with up to four entries in block 0 of img. */
static inline void pb_mbr(uint8_t *img, const struct pb_part *p, int n)
{
	memset(img + 446, 0, 64);
	for (int i = 0; i < n && i < 4; i++) {
		uint8_t *e = img + 446 + 16 * i;
		e[4] = p[i].mbr_type;
		pb_put32(e + 8, (uint32_t)p[i].start);
		pb_put32(e + 12, (uint32_t)p[i].count);
	}
	img[510] = 0x55;
	img[511] = 0xAA;
}

/* A GPT header at block lba (its array at array_lba) with its CRC. */
static inline void pb_gpt_header(uint8_t *img, uint32_t bs, uint64_t blocks, uint64_t lba, uint64_t other,
				 uint64_t array_lba, uint32_t nent, uint32_t array_crc)
{
	uint8_t *h = img + lba * bs;
	memset(h, 0, bs);
	memcpy(h, "EFI PART", 8);
	pb_put32(h + 8, 0x00010000);
	pb_put32(h + 12, 92);
	pb_put64(h + 24, lba);
	pb_put64(h + 32, other);
	pb_put64(h + 40, PB_FIRST_USABLE(bs));
	pb_put64(h + 48, PB_LAST_USABLE(bs, blocks));
	pb_put64(h + 72, array_lba);
	pb_put32(h + 80, nent);
	pb_put32(h + 84, 128);
	pb_put32(h + 88, array_crc);
	pb_put32(h + 16, crc32_update(0, h, 92));
}

/* A protective MBR, the entries, the primary and backup GPT (128
 * entries of 128 bytes, as most tools write). Blocks of bs bytes. */
static inline void pb_gpt(uint8_t *img, uint32_t bs, uint64_t blocks, const struct pb_part *p, int n)
{
	const struct pb_part prot = { 0, 0xEE, 1, blocks - 1 > 0xFFFFFFFFu ? 0xFFFFFFFFu : blocks - 1, 0 };
	memset(img, 0, bs);
	pb_mbr(img, &prot, 1);
	uint8_t array[128 * 128];
	memset(array, 0, sizeof(array));
	for (int i = 0; i < n && i < 128; i++) {
		uint8_t *e = array + 128 * i;
		memcpy(e, p[i].type, 16);
		e[16] = (uint8_t)(i + 1);
		pb_put64(e + 32, p[i].start);
		pb_put64(e + 40, p[i].start + p[i].count - 1);
		for (int k = 0; p[i].label && p[i].label[k] && k < 36; k++)
			e[56 + 2 * k] = (uint8_t)p[i].label[k];
	}
	uint32_t crc = crc32_update(0, array, sizeof(array));
	uint64_t array_blocks = sizeof(array) / bs;
	memcpy(img + 2 * bs, array, sizeof(array));
	memcpy(img + (blocks - 1 - array_blocks) * bs, array, sizeof(array));
	pb_gpt_header(img, bs, blocks, 1, blocks - 1, 2, 128, crc);
	pb_gpt_header(img, bs, blocks, blocks - 1, 1, blocks - 1 - array_blocks, 128, crc);
}

#endif
