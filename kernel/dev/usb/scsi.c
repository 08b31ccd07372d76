/* SPDX-License-Identifier: BSD-2-Clause */
/* scsi.c — the SCSI commands of a USB stick (see scsi.h). */
#include <dev/usb/scsi.h>
#include <fs/blkdev.h>
#include <kern/printk.h>
#include <lib/string.h>

#define CMD_TIMEOUT_MS   5000
#define IO_TIMEOUT_MS    20000
#define SYNC_TIMEOUT_MS  30000
#define READY_TRIES      50       /* TEST UNIT READY, 100 ms apart: 5 s */
#define IO_TRIES         3        /* a unit attention or a transport error: tried again */

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* Copies a fixed-width text field, trailing blanks dropped, odd bytes '?'. */
static void text_field(char *out, const uint8_t *b, uint32_t off, uint32_t width, uint32_t n)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < width && off + i < n; i++)
		out[k++] = b[off + i] >= 0x20 && b[off + i] < 0x7F ? (char)b[off + i] : '?';
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = 0;
}

/* See scsi.h. Peripheral device type 0 (direct access) only; the text
 * fields as far as they arrived. */
int scsi_parse_inquiry(const uint8_t *b, uint32_t n, struct scsi_disk *d, char *err, size_t len)
{
	if (n < 5) {
		ksnprintf(err, len, "INQUIRY answered %u bytes", n);
		return -1;
	}
	if ((b[0] & 0xE0) || (b[0] & 0x1F) != 0) {
		ksnprintf(err, len, "INQUIRY: peripheral qualifier %u, device type 0x%02x: not a disk", b[0] >> 5,
			  b[0] & 0x1F);
		return -1;
	}
	d->removable = b[1] >> 7;
	text_field(d->vendor, b, 8, 8, n);
	text_field(d->product, b, 16, 16, n);
	text_field(d->revision, b, 32, 4, n);
	return 0;
}

/* A block size and count a disk may have. */
static int check_capacity(uint64_t blocks, uint32_t bs, char *err, size_t len)
{
	if (bs < 512 || bs > 4096 || (bs & (bs - 1))) {
		ksnprintf(err, len, "blocks of %u bytes (want 512, 1024, 2048 or 4096)", bs);
		return -1;
	}
	if (blocks == 0 || blocks > 0x100000000ull) {
		ksnprintf(err, len, "%lu blocks (READ (10) reaches 1..2^32)", blocks);
		return -1;
	}
	return 0;
}

/* See scsi.h. */
int scsi_parse_capacity10(const uint8_t *b, uint32_t n, uint64_t *blocks, uint32_t *bs, char *err,
			  size_t len)
{
	if (n < 8) {
		ksnprintf(err, len, "READ CAPACITY (10) answered %u bytes", n);
		return -1;
	}
	if (be32(b) == 0xFFFFFFFFu)
		return 1;
	if (check_capacity((uint64_t)be32(b) + 1, be32(b + 4), err, len))
		return -1;
	*blocks = (uint64_t)be32(b) + 1;
	*bs = be32(b + 4);
	return 0;
}

/* See scsi.h. */
int scsi_parse_capacity16(const uint8_t *b, uint32_t n, uint64_t *blocks, uint32_t *bs, char *err,
			  size_t len)
{
	if (n < 12) {
		ksnprintf(err, len, "READ CAPACITY (16) answered %u bytes", n);
		return -1;
	}
	uint64_t last = (uint64_t)be32(b) << 32 | be32(b + 4);
	if (last == UINT64_MAX || check_capacity(last + 1, be32(b + 8), err, len))
		return -1;
	*blocks = last + 1;
	*bs = be32(b + 8);
	return 0;
}

/* See scsi.h. */
int scsi_parse_sense(const uint8_t *b, uint32_t n, uint8_t *key, uint8_t *asc, uint8_t *ascq)
{
	if (n < 1)
		return -1;
	uint8_t code = b[0] & 0x7F;
	if ((code == 0x70 || code == 0x71) && n >= 14) {
		*key = b[2] & 0x0F;
		*asc = b[12];
		*ascq = b[13];
		return 0;
	}
	if ((code == 0x72 || code == 0x73) && n >= 4) {
		*key = b[1] & 0x0F;
		*asc = b[2];
		*ascq = b[3];
		return 0;
	}
	return -1;
}

/* See scsi.h. */
int scsi_parse_mode_sense6(const uint8_t *b, uint32_t n, int *wp)
{
	if (n < 4 || b[0] + 1u < 4)
		return -1;
	*wp = b[2] >> 7;
	return 0;
}

/* See scsi.h. */
const char *scsi_sense_text(uint8_t key, uint8_t asc, uint8_t ascq)
{
	(void)ascq;
	if (key == SCSI_SENSE_DATA_PROTECT || asc == 0x27)
		return "write-protected";
	if (asc == 0x3A)
		return "no medium";
	if (key == SCSI_SENSE_NOT_READY)
		return asc == 0x04 ? "becoming ready" : "not ready";
	if (key == SCSI_SENSE_UNIT_ATTENTION)
		return asc == 0x28 ? "medium changed" : asc == 0x29 ? "reset" : "unit attention";
	if (key == SCSI_SENSE_MEDIUM_ERROR)
		return "medium error";
	if (key == 0x4)
		return "hardware error";
	if (key == SCSI_SENSE_ILLEGAL_REQUEST)
		return asc == 0x21 ? "block address out of range" : "illegal request";
	if (key == 0xB)
		return "aborted command";
	return "error";
}

/* REQUEST SENSE into d->key/asc/ascq (all 0 when it failed too). */
static void request_sense(struct scsi_disk *d)
{
	static const uint8_t cdb[6] = { 0x03, 0, 0, 0, 18, 0 };
	uint8_t buf[18];
	uint32_t got;
	char why[80];
	d->key = d->asc = d->ascq = 0;
	if (bot_command(d->bot, cdb, 6, 1, buf, sizeof(buf), &got, CMD_TIMEOUT_MS, why, sizeof(why)) == BOT_OK)
		scsi_parse_sense(buf, got, &d->key, &d->asc, &d->ascq);
}

/* One command with its sense on failure: 0, or an FS_E* code with the
 * reason in err. */
static int command(struct scsi_disk *d, const uint8_t *cdb, uint8_t cdb_len, int in, void *buf,
		   uint32_t n, uint32_t *got, uint32_t timeout, char *err, size_t len)
{
	char why[96];
	int rc = bot_command(d->bot, cdb, cdb_len, in, buf, n, got, timeout, why, sizeof(why));
	if (rc == BOT_OK)
		return 0;
	if (rc == BOT_GONE) {
		ksnprintf(err, len, "the stick was removed");
		return FS_EGONE;
	}
	if (rc == BOT_ERR) {
		d->key = d->asc = d->ascq = 0;
		ksnprintf(err, len, "command 0x%02x: %s", cdb[0], why);
		return FS_EIO;
	}
	request_sense(d);
	ksnprintf(err, len, "command 0x%02x: %s (sense %x/%02x/%02x)", cdb[0],
		  scsi_sense_text(d->key, d->asc, d->ascq), d->key, d->asc, d->ascq);
	return d->key == SCSI_SENSE_DATA_PROTECT || d->asc == 0x27 ? FS_EROFS : FS_EIO;
}

/* 1 when the last failure is worth another try. */
static int transient(const struct scsi_disk *d, int rc)
{
	if (rc == FS_EGONE || rc == FS_EROFS)
		return 0;
	return d->key == SCSI_SENSE_UNIT_ATTENTION || (d->key == SCSI_SENSE_NOT_READY && d->asc == 0x04) ||
	       (d->key == 0 && rc == FS_EIO);
}

/* See scsi.h. */
int scsi_disk_init(struct scsi_disk *d, char *err, size_t len)
{
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 36, 0 }, tur[6] = { 0 };
	static const uint8_t cap10[10] = { 0x25 }, cap16[16] = { 0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0 };
	static const uint8_t mode6[6] = { 0x1A, 0, 0x3F, 0, 192, 0 };
	uint8_t buf[192];
	uint32_t got;
	int rc;
	if ((rc = command(d, inquiry, 6, 1, buf, 36, &got, CMD_TIMEOUT_MS, err, len)))
		return rc;
	if (scsi_parse_inquiry(buf, got, d, err, len))
		return FS_EUNSUPP;
	for (int i = 0;; i++) {
		rc = command(d, tur, 6, 0, NULL, 0, &got, CMD_TIMEOUT_MS, err, len);
		if (!rc)
			break;
		if (i + 1 == READY_TRIES || !transient(d, rc))
			return rc;
		d->retries++;
		d->sleep_ms(100);
	}
	if ((rc = command(d, cap10, 10, 1, buf, 8, &got, CMD_TIMEOUT_MS, err, len)))
		return rc;
	rc = scsi_parse_capacity10(buf, got, &d->blocks, &d->block_size, err, len);
	if (rc == 1) {
		if ((rc = command(d, cap16, 16, 1, buf, 32, &got, CMD_TIMEOUT_MS, err, len)))
			return rc;
		rc = scsi_parse_capacity16(buf, got, &d->blocks, &d->block_size, err, len);
	}
	if (rc)
		return FS_EUNSUPP;
	d->readonly = 0;
	if (command(d, mode6, 6, 1, buf, sizeof(buf), &got, CMD_TIMEOUT_MS, err, len) == 0)
		scsi_parse_mode_sense6(buf, got, &d->readonly);
	return 0;   /* without MODE SENSE: writable until a write says otherwise */
}

/* See scsi.h. */
int scsi_disk_rw(struct scsi_disk *d, int write, uint64_t lba, uint32_t count, void *buf, char *err,
		 size_t len)
{
	uint8_t cdb[10] = { write ? 0x2A : 0x28, 0, (uint8_t)(lba >> 24), (uint8_t)(lba >> 16),
			    (uint8_t)(lba >> 8), (uint8_t)lba, 0, (uint8_t)(count >> 8), (uint8_t)count, 0 };
	uint32_t want = count * d->block_size, got = 0;
	if (count == 0 || count > 0xFFFF || lba >= d->blocks || count > d->blocks - lba) {
		ksnprintf(err, len, "blocks %lu+%u outside the disk's %lu", lba, count, d->blocks);
		return FS_EINVAL;
	}
	int rc = 0;
	for (int i = 0; i < IO_TRIES; i++) {
		rc = command(d, cdb, 10, !write, buf, want, &got, IO_TIMEOUT_MS, err, len);
		if (!rc && got != want) {
			ksnprintf(err, len, "%s of %u blocks moved %u of %u bytes", write ? "WRITE" : "READ", count,
				  got, want);
			rc = FS_EIO;
			d->key = 0;
		}
		if (!rc || !transient(d, rc))
			break;
		d->retries++;
	}
	if (rc)
		d->failures++;
	else if (write)
		d->writes++;
	else
		d->reads++;
	return rc;
}

/* See scsi.h. A stick that refuses the command (illegal request) is
 * taken to have no write cache; it is not asked again. */
int scsi_disk_sync(struct scsi_disk *d, char *err, size_t len)
{
	static const uint8_t cdb[10] = { 0x35 };
	uint32_t got;
	if (d->no_sync)
		return 0;
	int rc = command(d, cdb, 10, 0, NULL, 0, &got, SYNC_TIMEOUT_MS, err, len);
	if (rc == FS_EIO && d->key == SCSI_SENSE_ILLEGAL_REQUEST) {
		d->no_sync = 1;
		return 0;
	}
	return rc;
}
