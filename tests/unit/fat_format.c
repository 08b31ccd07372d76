/* SPDX-License-Identifier: BSD-2-Clause */
/* fat_format.c — a FAT volume laid out in memory (see fat_format.h). */
#include <tests/unit/fat_format.h>
#include <string.h>

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }

/* See fat_format.h. The FAT size is found by iterating to a fixed point,
 * as the FAT specification's formula intends. */
uint32_t fat_format(uint8_t *img, uint32_t sectors, uint8_t spc, const char *label)
{
	uint32_t fat = 1, clusters = 0, type = 12, reserved = 1, root = 512;
	for (int round = 0; round < 8; round++) {
		reserved = type == 32 ? 32 : 1;
		root = type == 32 ? 0 : 512;
		uint32_t meta = reserved + 2 * fat + root * 32 / 512;
		clusters = (sectors - meta) / spc;
		type = clusters < 4085 ? 12 : clusters < 65525 ? 16 : 32;
		fat = (uint32_t)((((uint64_t)clusters + 2) * type / 8 + 511) / 512);
	}
	uint8_t *b = img;
	memset(b, 0, 512);
	memcpy(b, type == 32 ? "\xEB\x58\x90" : "\xEB\x3C\x90", 3);
	memcpy(b + 3, "MOSAICFS", 8);
	put16(b + 11, 512);
	b[13] = spc;
	put16(b + 14, reserved);
	b[16] = 2;
	put16(b + 17, root);
	if (sectors < 65536 && type != 32)
		put16(b + 19, sectors);
	else
		put32(b + 32, sectors);
	b[21] = 0xF8;
	put16(b + 24, 32);
	put16(b + 26, 64);
	unsigned ext = 36;
	if (type == 32) {
		put32(b + 36, fat);
		put32(b + 44, 2);
		put16(b + 48, 1);
		put16(b + 50, 6);
		ext = 64;
	} else {
		put16(b + 22, fat);
	}
	b[ext] = 0x80;
	b[ext + 2] = 0x29;
	put32(b + ext + 3, 0x1234ABCD);
	char lab[11];
	memset(lab, ' ', 11);
	memcpy(lab, label, strlen(label) < 11 ? strlen(label) : 11);
	memcpy(b + ext + 7, lab, 11);
	memcpy(b + ext + 18, type == 12 ? "FAT12   " : type == 16 ? "FAT16   " : "FAT32   ", 8);
	b[510] = 0x55;
	b[511] = 0xAA;
	if (type == 32) {
		uint8_t *fsi = img + 512;
		memset(fsi, 0, 512);
		put32(fsi, 0x41615252);
		put32(fsi + 484, 0x61417272);
		put32(fsi + 488, clusters - 1);
		put32(fsi + 492, 3);
		put32(fsi + 508, 0xAA550000);
		memcpy(img + 6 * 512, img, 1024);   /* the backup boot sector and FSInfo */
	}
	for (int k = 0; k < 2; k++) {
		uint8_t *f = img + (reserved + (uint32_t)k * fat) * 512;
		memset(f, 0, (size_t)fat * 512);
		if (type == 12)
			memcpy(f, "\xF8\xFF\xFF", 3);
		else if (type == 16)
			memcpy(f, "\xF8\xFF\xFF\xFF", 4);
		else
			memcpy(f, "\xF8\xFF\xFF\x0F\xFF\xFF\xFF\x0F\xFF\xFF\xFF\x0F", 12);
	}
	uint32_t data = reserved + 2 * fat;
	memset(img + (uint64_t)data * 512, 0, type == 32 ? (size_t)spc * 512 : (size_t)root * 32);
	return clusters;
}
