/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usb_storage.h — USB sticks (kernel/dev/usb/usb_msd.c) as block devices
 * (kernel/fs/blkdev.h) for the threads that read and write them. A stick
 * is "da<unit>"; its block device stays valid while a reference is held,
 * also after the stick is pulled out (every operation then fails with
 * FS_EGONE), so a unit number is reused only once nobody holds it.
 */
#ifndef MOSAIC_USB_STORAGE_H
#define MOSAIC_USB_STORAGE_H
#include <stddef.h>

#define USB_STORAGE_MAX 8
struct blkdev;

/* Stick da<unit> with a reference held, or NULL when none is attached.
 * Any thread. */
struct blkdev *usb_storage_get(unsigned unit);
/* Lets go of a reference from usb_storage_get(). */
void usb_storage_put(struct blkdev *b);
/* "QEMU QEMU HARDDISK 2.5+, port 3" for messages; "" when gone. */
void usb_storage_describe(const struct blkdev *b, char *out, size_t len);

#endif
