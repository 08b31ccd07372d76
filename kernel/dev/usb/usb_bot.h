/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usb_bot.h — the USB mass storage Bulk-Only Transport (USB Mass Storage
 * Class Bulk-Only Transport 1.0): a SCSI command goes out in a 31-byte
 * Command Block Wrapper, its data in or out, and a 13-byte Command Status
 * Wrapper comes back. Every CSW is checked (its size, signature, the tag
 * of its CBW, a residue no larger than the transfer, a known status); a
 * stalled data or status stage is cleared with CLEAR_FEATURE(HALT) (5.3.3,
 * 6.7), and anything the specification calls a phase error or an invalid
 * CSW gets the reset recovery (5.3.4: Bulk-Only Mass Storage Reset, then
 * CLEAR_FEATURE(HALT) on both endpoints). Portable C: the bulk pipes are
 * the bot_ops callbacks (the xHCI driver in the kernel, a model of a
 * stick in tests/unit/msd_fake.c); one thread at a time.
 */
#ifndef MOSAIC_DEV_USB_BOT_H
#define MOSAIC_DEV_USB_BOT_H
#include <stddef.h>
#include <stdint.h>

#define BOT_CBW_LEN 31
#define BOT_CSW_LEN 13
#define BOT_CBW_SIG 0x43425355u   /* "USBC" */
#define BOT_CSW_SIG 0x53425355u   /* "USBS" */

/* Results of a bulk transfer (bot_ops.bulk). */
enum bot_xfer { BOT_XFER_OK, BOT_XFER_STALL, BOT_XFER_ERR, BOT_XFER_GONE };
/* Results of bot_command(). */
enum bot_result {
	BOT_OK = 0,          /* CSW status 0 ("passed") */
	BOT_FAILED = 1,      /* CSW status 1: the command failed, REQUEST SENSE says why */
	BOT_ERR = -1,        /* transport trouble (a reset recovery was done) */
	BOT_GONE = -2,       /* the device went away */
};

struct bot_ops {
	void *ctx;
	/* One bulk transfer of len bytes (in: device to host) within
	 * timeout_ms; *got the bytes moved. */
	int (*bulk)(void *ctx, int in, void *buf, uint32_t len, uint32_t *got, uint32_t timeout_ms);
	/* Clears a halt of the IN or OUT endpoint on both sides: 0 or -1. */
	int (*clear_halt)(void *ctx, int in);
	/* The class request Bulk-Only Mass Storage Reset: 0 or -1. */
	int (*reset)(void *ctx);
};

struct bot {
	const struct bot_ops *ops;
	uint32_t tag;             /* of the last CBW */
	uint8_t lun;
	uint64_t commands, stalls, recoveries;   /* counters (for `usb`) */
};

/* Checks a CSW of n bytes for the CBW with tag and data length want:
 * 0 with *status and *residue, or -1 with the reason (an invalid CSW
 * or one that is not meaningful, 6.3). */
int bot_csw_check(const uint8_t *csw, uint32_t n, uint32_t tag, uint32_t want, uint8_t *status,
		  uint32_t *residue, char *err, size_t err_len);
/* Fills a CBW for cdb (1..16 bytes), tag, len bytes of data in or out. */
void bot_cbw_build(uint8_t cbw[BOT_CBW_LEN], uint32_t tag, uint8_t lun, const uint8_t *cdb,
		   uint8_t cdb_len, uint32_t len, int in);
/* Runs one command: enum bot_result; *done the data bytes moved (the
 * transfer length less the residue). err says what went wrong. */
int bot_command(struct bot *b, const uint8_t *cdb, uint8_t cdb_len, int in, void *data, uint32_t len,
		uint32_t *done, uint32_t timeout_ms, char *err, size_t err_len);
/* The reset recovery (5.3.4): 0, or -1 when a step failed. */
int bot_reset_recovery(struct bot *b);

#endif
