/* SPDX-License-Identifier: BSD-2-Clause */
/* msd_fake.c — a USB stick model behind the Bulk-Only Transport (see
 * msd_fake.h). */
#include <tests/unit/msd_fake.h>
#include <string.h>

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The command failed with this sense. */
static void failed(struct msd_fake *m, uint8_t key, uint8_t asc)
{
	m->status = 1;
	m->sense[0] = key;
	m->sense[1] = asc;
	m->sense[2] = 0;
}

/* The data stage of the command in m->cbw: in (device to host) fills buf
 * with up to want bytes; returns the bytes moved. */
static uint32_t data_stage(struct msd_fake *m, int in, uint8_t *buf, uint32_t want)
{
	const uint8_t *cdb = m->cbw + 15;
	uint8_t reply[64];
	uint32_t n = 0;
	memset(reply, 0, sizeof(reply));
	switch (cdb[0]) {
	case 0x12:                                         /* INQUIRY */
		memcpy(reply + 8, "FAKE    Stick           1.00", 28);
		reply[1] = 0x80;
		n = 36;
		break;
	case 0x03:                                         /* REQUEST SENSE: fixed format */
		reply[0] = 0x70;
		reply[2] = m->sense[0];
		reply[7] = 10;
		reply[12] = m->sense[1];
		reply[13] = m->sense[2];
		n = 18;
		break;
	case 0x25:                                         /* READ CAPACITY (10) */
		put_be32(reply, m->blocks - 1 > 0xFFFFFFFEu ? 0xFFFFFFFFu : (uint32_t)(m->blocks - 1));
		put_be32(reply + 4, m->block_size);
		n = 8;
		break;
	case 0x9E:                                         /* READ CAPACITY (16) */
		put_be32(reply, (uint32_t)((m->blocks - 1) >> 32));
		put_be32(reply + 4, (uint32_t)(m->blocks - 1));
		put_be32(reply + 8, m->block_size);
		n = 32;
		break;
	case 0x1A:                                         /* MODE SENSE (6) */
		reply[0] = 3;
		reply[2] = m->write_protected ? 0x80 : 0;
		n = 4;
		break;
	case 0x28: case 0x2A: {                            /* READ (10), WRITE (10) */
		uint64_t lba = be32(cdb + 2);
		uint32_t count = (uint32_t)cdb[7] << 8 | cdb[8];
		uint32_t bytes = count * m->block_size;
		if (lba + count > m->blocks) {
			failed(m, 0x5, 0x21);
			return 0;
		}
		if (cdb[0] == 0x2A && m->write_protected) {
			failed(m, 0x7, 0x27);
			return 0;
		}
		n = bytes < want ? bytes : want;
		if (in)
			memcpy(buf, m->disk + lba * m->block_size, n);
		else
			memcpy(m->disk + lba * m->block_size, buf, n);
		return n;
	}
	default:
		failed(m, 0x5, 0x20);
		return 0;
	}
	n = n < want ? n : want;
	if (in)
		memcpy(buf, reply, n);
	return n;
}

/* A CBW arrives: checks it, runs TEST UNIT READY and SYNCHRONIZE CACHE
 * (no data) at once. */
static void take_cbw(struct msd_fake *m, const uint8_t *cbw)
{
	memcpy(m->cbw, cbw, 31);
	m->have_cbw = 1;
	m->status = 0;
	m->residue = 0;
	m->commands++;
	if (m->cbw[15] == 0x00 && m->attentions > 0) {
		m->attentions--;
		failed(m, 0x6, 0x28);
	}
}

static int fake_bulk(void *ctx, int in, void *buf, uint32_t len, uint32_t *got, uint32_t timeout_ms)
{
	struct msd_fake *m = ctx;
	(void)timeout_ms;
	*got = 0;
	if (m->fault == MSD_GONE)
		return BOT_XFER_GONE;
	if ((in && m->stall_in) || (!in && m->stall_out))
		return BOT_XFER_STALL;
	uint32_t want = m->cbw[8] | m->cbw[9] << 8 | m->cbw[10] << 16 | (uint32_t)m->cbw[11] << 24;
	if (!in && !m->have_cbw) {                          /* the CBW */
		if (len != 31 || memcmp(buf, "USBC", 4)) {
			m->stall_in = m->stall_out = 1;            /* invalid CBW: both halt (6.6.1) */
			return BOT_XFER_STALL;
		}
		take_cbw(m, buf);
		*got = 31;
		return BOT_XFER_OK;
	}
	if (!m->have_cbw)
		return BOT_XFER_STALL;
	if (len == 13 && in && (want == 0 || m->have_cbw == 2)) {   /* the CSW */
		uint8_t csw[13];
		memcpy(csw, "USBS", 4);
		memcpy(csw + 4, m->cbw + 4, 4);
		csw[8] = (uint8_t)m->residue;
		csw[9] = (uint8_t)(m->residue >> 8);
		csw[10] = (uint8_t)(m->residue >> 16);
		csw[11] = (uint8_t)(m->residue >> 24);
		csw[12] = m->status;
		enum msd_fault f = m->fault;
		m->fault = MSD_OK;
		m->have_cbw = 0;
		if (f == MSD_BAD_TAG)
			csw[4] ^= 0x55;
		if (f == MSD_PHASE)
			csw[12] = 2;
		memcpy(buf, csw, 13);
		*got = f == MSD_SHORT_CSW ? 12 : 13;
		return BOT_XFER_OK;
	}
	/* the data stage */
	m->have_cbw = 2;
	if (m->fault == MSD_STALL_DATA) {
		m->fault = MSD_OK;
		failed(m, 0x3, 0x11);
		m->residue = want;
		if (in)
			m->stall_in = 1;
		else
			m->stall_out = 1;
		return BOT_XFER_STALL;
	}
	uint32_t n = data_stage(m, in, buf, len);
	m->residue = want - n;
	*got = n;
	if (m->status && n < len) {                         /* a failed command ends its data stage */
		if (in)
			m->stall_in = 1;
		else
			m->stall_out = 1;
		return BOT_XFER_STALL;
	}
	return BOT_XFER_OK;
}

static int fake_clear_halt(void *ctx, int in)
{
	struct msd_fake *m = ctx;
	if (m->fault == MSD_GONE)
		return -1;
	m->clears++;
	if (in)
		m->stall_in = 0;
	else
		m->stall_out = 0;
	return 0;
}

static int fake_reset(void *ctx)
{
	struct msd_fake *m = ctx;
	if (m->fault == MSD_GONE)
		return -1;
	m->resets++;
	m->have_cbw = 0;
	return 0;
}

/* See msd_fake.h. */
void msd_fake_init(struct msd_fake *m, uint8_t *disk, uint32_t block_size, uint64_t blocks)
{
	memset(m, 0, sizeof(*m));
	m->ops = (struct bot_ops){ m, fake_bulk, fake_clear_halt, fake_reset };
	m->disk = disk;
	m->block_size = block_size;
	m->blocks = blocks;
}
