/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blk_ram.h — a block device (kernel/fs/blkdev.h) over bytes in memory,
 * for the host tests and the fuzz harnesses: reads
 * and writes are bounds-checked, counted, and can be made to fail like a
 * stick pulled out after a given number of writes.
 */
#ifndef MOSAIC_TEST_BLK_RAM_H
#define MOSAIC_TEST_BLK_RAM_H
#include <stdint.h>
#include <fs/blkdev.h>

struct blk_ram {
	struct blkdev dev;
	uint8_t *bytes;
	uint64_t size;
	uint64_t writes, syncs;     /* write and sync calls so far */
	uint64_t cut_after;         /* writes allowed before the device "is removed"; 0: no limit */
	int gone;
};

/* dev over bytes[0..size) in blocks of bs (size is rounded down). */
void blk_ram_init(struct blk_ram *r, uint8_t *bytes, uint64_t size, uint32_t bs, const char *name);

#endif
