/* SPDX-License-Identifier: BSD-2-Clause */
/* fs_err.c — names of the FS_E* codes (blkdev.h). */
#include <fs/blkdev.h>

/* See blkdev.h. */
const char *fs_strerror(int code)
{
	switch (code) {
	case 0: return "no error";
	case FS_EIO: return "I/O error";
	case FS_EGONE: return "device removed";
	case FS_EROFS: return "write-protected";
	case FS_ENOSPC: return "no room";
	case FS_ECORRUPT: return "damaged";
	case FS_EDIRTY: return "not cleanly unmounted";
	case FS_EEXIST: return "exists";
	case FS_ENOENT: return "not found";
	case FS_ENAME: return "bad name";
	case FS_EUNSUPP: return "not supported";
	case FS_ENOMEM: return "out of memory";
	case FS_EINVAL: return "outside the device";
	default: return "unknown error";
	}
}
