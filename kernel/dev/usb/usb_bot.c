/* SPDX-License-Identifier: BSD-2-Clause */
/* usb_bot.c — Bulk-Only Transport (see usb_bot.h). */
#include <dev/usb/usb_bot.h>
#include <kern/printk.h>
#include <lib/string.h>

#define CBW_TIMEOUT_MS 2000

static uint32_t le32(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* See usb_bot.h. */
void bot_cbw_build(uint8_t cbw[BOT_CBW_LEN], uint32_t tag, uint8_t lun, const uint8_t *cdb,
		   uint8_t cdb_len, uint32_t len, int in)
{
	memset(cbw, 0, BOT_CBW_LEN);
	put32(cbw, BOT_CBW_SIG);
	put32(cbw + 4, tag);
	put32(cbw + 8, len);
	cbw[12] = in ? 0x80 : 0x00;
	cbw[13] = lun & 0x0F;
	cbw[14] = cdb_len & 0x1F;
	memcpy(cbw + 15, cdb, cdb_len > 16 ? 16 : cdb_len);
}

/* See usb_bot.h. */
int bot_csw_check(const uint8_t *csw, uint32_t n, uint32_t tag, uint32_t want, uint8_t *status,
		  uint32_t *residue, char *err, size_t err_len)
{
	if (n != BOT_CSW_LEN) {
		ksnprintf(err, err_len, "a status wrapper of %u bytes, not 13", n);
		return -1;
	}
	if (le32(csw) != BOT_CSW_SIG) {
		ksnprintf(err, err_len, "status wrapper signature 0x%08x, not USBS", le32(csw));
		return -1;
	}
	if (le32(csw + 4) != tag) {
		ksnprintf(err, err_len, "status wrapper tag 0x%x for a command of tag 0x%x", le32(csw + 4), tag);
		return -1;
	}
	if (csw[12] > 2) {
		ksnprintf(err, err_len, "status wrapper status %u (want 0, 1 or 2)", csw[12]);
		return -1;
	}
	if (csw[12] < 2 && le32(csw + 8) > want) {
		ksnprintf(err, err_len, "residue %u larger than the %u bytes asked for", le32(csw + 8), want);
		return -1;
	}
	*status = csw[12];
	*residue = le32(csw + 8);
	return 0;
}

/* See usb_bot.h. */
int bot_reset_recovery(struct bot *b)
{
	b->recoveries++;
	int rc = b->ops->reset(b->ops->ctx);
	rc |= b->ops->clear_halt(b->ops->ctx, 1);
	rc |= b->ops->clear_halt(b->ops->ctx, 0);
	return rc ? -1 : 0;
}

/* A transport failure: the reset recovery, then BOT_ERR (BOT_GONE when
 * the device left). */
static int transport_failed(struct bot *b, int xfer)
{
	if (xfer == BOT_XFER_GONE)
		return BOT_GONE;
	bot_reset_recovery(b);
	return BOT_ERR;
}

/* Reads the CSW; a stall is cleared and the read tried once more (6.7.2). */
static int read_csw(struct bot *b, uint8_t csw[BOT_CSW_LEN], uint32_t *got, uint32_t timeout_ms)
{
	int x = b->ops->bulk(b->ops->ctx, 1, csw, BOT_CSW_LEN, got, timeout_ms);
	if (x == BOT_XFER_STALL) {
		b->stalls++;
		if (b->ops->clear_halt(b->ops->ctx, 1))
			return BOT_XFER_ERR;
		x = b->ops->bulk(b->ops->ctx, 1, csw, BOT_CSW_LEN, got, timeout_ms);
	}
	return x;
}

/* See usb_bot.h. */
int bot_command(struct bot *b, const uint8_t *cdb, uint8_t cdb_len, int in, void *data, uint32_t len,
		uint32_t *done, uint32_t timeout_ms, char *err, size_t err_len)
{
	uint8_t cbw[BOT_CBW_LEN], csw[BOT_CSW_LEN];
	uint32_t got = 0, moved = 0, residue;
	uint8_t status;
	*done = 0;
	b->commands++;
	b->tag++;
	bot_cbw_build(cbw, b->tag, b->lun, cdb, cdb_len, len, in);
	int x = b->ops->bulk(b->ops->ctx, 0, cbw, BOT_CBW_LEN, &got, CBW_TIMEOUT_MS);
	if (x != BOT_XFER_OK || got != BOT_CBW_LEN) {
		ksnprintf(err, err_len, "the command wrapper was not taken (%s)",
			  x == BOT_XFER_STALL ? "stall" : x == BOT_XFER_GONE ? "device gone" : "error or timeout");
		return transport_failed(b, x == BOT_XFER_OK ? BOT_XFER_ERR : x);
	}
	if (len) {
		x = b->ops->bulk(b->ops->ctx, in, data, len, &moved, timeout_ms);
		if (x == BOT_XFER_STALL) {           /* the device ends the data stage early */
			b->stalls++;
			if (b->ops->clear_halt(b->ops->ctx, in)) {
				ksnprintf(err, err_len, "a stalled data stage could not be cleared");
				return transport_failed(b, BOT_XFER_ERR);
			}
		} else if (x != BOT_XFER_OK) {
			ksnprintf(err, err_len, "the data stage failed (%s)",
				  x == BOT_XFER_GONE ? "device gone" : "error or timeout");
			return transport_failed(b, x);
		}
	}
	x = read_csw(b, csw, &got, timeout_ms);
	if (x != BOT_XFER_OK) {
		ksnprintf(err, err_len, "no status wrapper (%s)", x == BOT_XFER_GONE ? "device gone" : "error or timeout");
		return transport_failed(b, x);
	}
	if (bot_csw_check(csw, got, b->tag, len, &status, &residue, err, err_len))
		return transport_failed(b, BOT_XFER_ERR);
	if (status == 2) {
		ksnprintf(err, err_len, "phase error");
		return transport_failed(b, BOT_XFER_ERR);
	}
	*done = len - residue < moved ? len - residue : moved;
	if (status == 1)
		ksnprintf(err, err_len, "the command failed");
	return status == 0 ? BOT_OK : BOT_FAILED;
}
