/* SPDX-License-Identifier: BSD-2-Clause */
/* blk_ram.c — a block device over memory (see blk_ram.h). */
#include <tests/unit/blk_ram.h>
#include <stdio.h>
#include <string.h>

/* The request's byte range, or -1 when it leaves the device. */
static int range(struct blk_ram *r, uint64_t lba, uint32_t n, uint64_t *off, char *err, size_t len)
{
	uint64_t bs = r->dev.block_size;
	if (r->gone) {
		snprintf(err, len, "the device was removed");
		return FS_EGONE;
	}
	if (lba >= r->dev.blocks || n > r->dev.blocks - lba) {
		snprintf(err, len, "blocks %llu+%u outside %llu", (unsigned long long)lba, n,
			 (unsigned long long)r->dev.blocks);
		return FS_EINVAL;
	}
	*off = lba * bs;
	return 0;
}

static int ram_read(void *ctx, uint64_t lba, uint32_t n, void *buf, char *err, size_t len)
{
	struct blk_ram *r = ctx;
	uint64_t off;
	int rc = range(r, lba, n, &off, err, len);
	if (!rc)
		memcpy(buf, r->bytes + off, (size_t)n * r->dev.block_size);
	return rc;
}

static int ram_write(void *ctx, uint64_t lba, uint32_t n, const void *buf, char *err, size_t len)
{
	struct blk_ram *r = ctx;
	uint64_t off;
	int rc = range(r, lba, n, &off, err, len);
	if (rc)
		return rc;
	if (r->dev.readonly) {
		snprintf(err, len, "write-protected");
		return FS_EROFS;
	}
	if (r->cut_after && r->writes >= r->cut_after) {
		r->gone = 1;
		snprintf(err, len, "the device was removed");
		return FS_EGONE;
	}
	r->writes++;
	memcpy(r->bytes + off, buf, (size_t)n * r->dev.block_size);
	return 0;
}

static int ram_sync(void *ctx, char *err, size_t len)
{
	struct blk_ram *r = ctx;
	if (r->gone) {
		snprintf(err, len, "the device was removed");
		return FS_EGONE;
	}
	r->syncs++;
	return 0;
}

/* See blk_ram.h. */
void blk_ram_init(struct blk_ram *r, uint8_t *bytes, uint64_t size, uint32_t bs, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->bytes = bytes;
	r->size = size;
	snprintf(r->dev.name, sizeof(r->dev.name), "%s", name);
	r->dev.block_size = bs;
	r->dev.blocks = size / bs;
	r->dev.ctx = r;
	r->dev.read = ram_read;
	r->dev.write = ram_write;
	r->dev.sync = ram_sync;
}
