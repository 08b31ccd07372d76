/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blkdev.h — a block device as the volume layer sees it: a name, a block
 * size, a block count, whether it may be written, and three operations.
 * A USB stick (kernel/dev/usb/usb_msd.c) is one; the host tests and fuzz
 * harnesses use a byte array (tests/unit/blk_ram.c). Portable C.
 *
 * Every operation returns 0 or one of the FS_E* codes below, with a
 * one-line reason in err (which does not name the device: callers prefix
 * the volume's name). No operation waits without bound.
 */
#ifndef MOSAIC_FS_BLKDEV_H
#define MOSAIC_FS_BLKDEV_H
#include <stddef.h>
#include <stdint.h>

/* Error codes of the block, partition and FAT layers (negative). */
#define FS_EIO       (-1)   /* the device reported an error or did not answer */
#define FS_EGONE     (-2)   /* the device was removed */
#define FS_EROFS     (-3)   /* write-protected */
#define FS_ENOSPC    (-4)   /* no room on the volume or in a directory */
#define FS_ECORRUPT  (-5)   /* a structure on the volume is not valid */
#define FS_EDIRTY    (-6)   /* the volume says it was not cleanly unmounted */
#define FS_EEXIST    (-7)
#define FS_ENOENT    (-8)
#define FS_ENAME     (-9)   /* a name FAT cannot hold */
#define FS_EUNSUPP   (-10)  /* a layout this code does not handle safely */
#define FS_ENOMEM    (-11)
#define FS_EINVAL    (-12)  /* a request outside the device */

#define BLK_SIZE_MIN 512
#define BLK_SIZE_MAX 4096

struct blkdev {
	char name[16];          /* "da0" */
	uint32_t block_size;    /* bytes: a power of two, BLK_SIZE_MIN..BLK_SIZE_MAX */
	uint64_t blocks;
	int readonly;           /* write-protected: write() fails with FS_EROFS */
	void *ctx;
	int (*read)(void *ctx, uint64_t lba, uint32_t count, void *buf, char *err, size_t err_len);
	int (*write)(void *ctx, uint64_t lba, uint32_t count, const void *buf, char *err,
		     size_t err_len);
	/* Make every completed write durable (SCSI SYNCHRONIZE CACHE). */
	int (*sync)(void *ctx, char *err, size_t err_len);
};

/* A printable name of an FS_E* code ("I/O error", ...). */
const char *fs_strerror(int code);

#endif
