/*
 * cpio_writer.h — writes cpio "newc" entries the way tools/make-archive.py
 * does, for the host tests and the fuzz harness of the boot archive reader
 * (kernel/user/archive.c).
 */
#ifndef MOSAIC_TEST_CPIO_WRITER_H
#define MOSAIC_TEST_CPIO_WRITER_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct cpio_out {
	uint8_t *buf;
	size_t cap, len;
};

/* Appends one entry (mode 0100644 unless given); returns 0, -1 when full. */
static inline int cpio_put(struct cpio_out *o, const char *name, const void *data, size_t size,
			   uint32_t mode)
{
	char h[111];
	size_t namesize = strlen(name) + 1;
	size_t data_off = (o->len + 110 + namesize + 3) & ~(size_t)3;
	size_t end = (data_off + size + 3) & ~(size_t)3;
	if (end > o->cap)
		return -1;
	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", 1u,
		 mode ? mode : 0100644u, 0u, 0u, 1u, 0u, (unsigned)size, 0u, 0u, 0u, 0u,
		 (unsigned)namesize, 0u);
	memset(o->buf + o->len, 0, end - o->len);
	memcpy(o->buf + o->len, h, 110);
	memcpy(o->buf + o->len + 110, name, namesize);
	memcpy(o->buf + data_off, data, size);
	o->len = end;
	return 0;
}

/* Appends the trailer entry. */
static inline int cpio_trailer(struct cpio_out *o)
{
	return cpio_put(o, "TRAILER!!!", "", 0, 0);
}

#endif
