/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpio_writer.h — writes cpio "newc" entries the way tools/make-archive.py
 * does, for the host tests and the fuzz harness of the boot archive reader
 * (kernel/user/archive.c).
 */
#ifndef MOSAIC_TEST_CPIO_WRITER_H
#define MOSAIC_TEST_CPIO_WRITER_H
#include <stdint.h>
#include <string.h>

#define CPIO_HEADER 110   /* bytes of a newc header */

struct cpio_out {
	uint8_t *buf;
	size_t cap, len;
};

/* The CPIO_HEADER characters of a newc header with these fields (ino 1,
 * nlink 1, every other field 0) into h, NUL-terminated: the magic, then
 * thirteen fields of eight upper-case hex digits. */
static inline void cpio_header(char h[CPIO_HEADER + 1], uint32_t mode, uint32_t filesize,
			       uint32_t namesize, uint32_t check)
{
	static const char fixed[CPIO_HEADER + 1] =
		"070701" "00000001" "00000000" "00000000" "00000000" "00000001" "00000000"
		"00000000" "00000000" "00000000" "00000000" "00000000" "00000000" "00000000";
	const uint32_t field[4] = { 1, 6, 11, 12 }, value[4] = { mode, filesize, namesize, check };
	memcpy(h, fixed, sizeof(fixed));
	for (int i = 0; i < 4; i++)
		for (int d = 0; d < 8; d++)
			h[6 + 8 * field[i] + d] = "0123456789ABCDEF"[value[i] >> (28 - 4 * d) & 15];
}

/* Appends one entry (mode 0100644 unless given) of size data bytes, writing
 * its header, name and padding but not the data: those bytes of o->buf stay
 * as they are, for the caller to fill (or not, for a large file in a zeroed
 * buffer). Returns where the data goes, NULL when the entry does not fit. */
static inline uint8_t *cpio_put_sparse(struct cpio_out *o, const char *name, size_t size,
				       uint32_t mode)
{
	char h[CPIO_HEADER + 1];
	size_t namesize = strlen(name) + 1, name_end = o->len + CPIO_HEADER + namesize;
	size_t data_off = (name_end + 3) & ~(size_t)3;
	size_t end = (data_off + size + 3) & ~(size_t)3;
	if (end > o->cap)
		return NULL;
	cpio_header(h, mode ? mode : 0100644u, (uint32_t)size, (uint32_t)namesize, 0);
	memcpy(o->buf + o->len, h, CPIO_HEADER);
	memcpy(o->buf + o->len + CPIO_HEADER, name, namesize);
	memset(o->buf + name_end, 0, data_off - name_end);
	memset(o->buf + data_off + size, 0, end - data_off - size);
	o->len = end;
	return o->buf + data_off;
}

/* Appends one entry (mode 0100644 unless given); returns 0, -1 when full. */
static inline int cpio_put(struct cpio_out *o, const char *name, const void *data, size_t size,
			   uint32_t mode)
{
	uint8_t *d = cpio_put_sparse(o, name, size, mode);
	if (!d)
		return -1;
	memcpy(d, data, size);
	return 0;
}

/* Appends the trailer entry. */
static inline int cpio_trailer(struct cpio_out *o)
{
	return cpio_put(o, "TRAILER!!!", "", 0, 0);
}

#endif
