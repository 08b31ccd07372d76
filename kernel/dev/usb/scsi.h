/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scsi.h — the SCSI commands a USB stick needs (SPC-4 and SBC-3, the
 * T10 command references): INQUIRY, TEST UNIT READY (retried while the
 * stick becomes ready or reports a unit attention), REQUEST SENSE (fixed
 * and descriptor formats), READ CAPACITY (10, then 16 when the disk is
 * larger than 10 can say), MODE SENSE (6) for the write-protect bit,
 * READ (10), WRITE (10) and SYNCHRONIZE CACHE (10), sent over the
 * Bulk-Only Transport (usb_bot.h). Every reply is parsed within the bytes
 * that arrived. Portable C; one thread at a time per disk.
 */
#ifndef MOSAIC_DEV_USB_SCSI_H
#define MOSAIC_DEV_USB_SCSI_H
#include <stddef.h>
#include <stdint.h>
#include <dev/usb/usb_bot.h>

#define SCSI_SENSE_NOT_READY       0x2
#define SCSI_SENSE_MEDIUM_ERROR    0x3
#define SCSI_SENSE_ILLEGAL_REQUEST 0x5
#define SCSI_SENSE_UNIT_ATTENTION  0x6
#define SCSI_SENSE_DATA_PROTECT    0x7

struct scsi_disk {
	struct bot *bot;
	void (*sleep_ms)(uint32_t ms);   /* between retries */
	char vendor[9], product[17], revision[5];
	uint8_t removable;
	uint32_t block_size;
	uint64_t blocks;
	int readonly;                    /* MODE SENSE's write-protect bit */
	int no_sync;                     /* SYNCHRONIZE CACHE refused once: not sent again */
	uint8_t key, asc, ascq;          /* sense of the last failure */
	uint64_t reads, writes, retries, failures;
};

/* Parsers of replies; each returns 0 or -1 with a reason. */
int scsi_parse_inquiry(const uint8_t *b, uint32_t n, struct scsi_disk *d, char *err, size_t len);
/* READ CAPACITY (10): 1 when the disk is too large for it (use 16). */
int scsi_parse_capacity10(const uint8_t *b, uint32_t n, uint64_t *blocks, uint32_t *bs, char *err,
			  size_t len);
int scsi_parse_capacity16(const uint8_t *b, uint32_t n, uint64_t *blocks, uint32_t *bs, char *err,
			  size_t len);
/* Sense data, fixed (0x70/0x71) or descriptor (0x72/0x73) format. */
int scsi_parse_sense(const uint8_t *b, uint32_t n, uint8_t *key, uint8_t *asc, uint8_t *ascq);
/* MODE SENSE (6): *wp the device-specific parameter's bit 7. */
int scsi_parse_mode_sense6(const uint8_t *b, uint32_t n, int *wp);
/* What a sense says, in words ("write-protected", "no medium", ...). */
const char *scsi_sense_text(uint8_t key, uint8_t asc, uint8_t ascq);

/* Brings the disk up: INQUIRY, TEST UNIT READY until ready (bounded),
 * capacity, write protection. 0, or an FS_E* code with the reason. */
int scsi_disk_init(struct scsi_disk *d, char *err, size_t len);
/* count blocks at lba (count * block_size bytes, within one transfer
 * the transport can move) from or to buf. 0 or FS_E*: FS_EROFS for a
 * write the stick refused as write-protected, FS_EGONE when it left. */
int scsi_disk_rw(struct scsi_disk *d, int write, uint64_t lba, uint32_t count, void *buf, char *err,
		 size_t len);
int scsi_disk_sync(struct scsi_disk *d, char *err, size_t len);

#endif
