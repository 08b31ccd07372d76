/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of a USB stick's outside input: the mass storage interface
 * of a configuration (kernel/dev/usb/usb_desc_msd.c), the Command Status
 * Wrappers (usb_bot.c) and the SCSI replies (scsi.c). Three kinds of
 * inputs: (1) configurations from a grammar, often mutated: an accepted
 * one must describe a usable interface, a refused one must say why and
 * leave the output alone, an unmutated one must be found as generated;
 * (2) a hostile stick whose every transfer returns random bytes, lengths
 * and results: bring-up, reads, writes and syncs must end (bounded
 * retries) with 0 or an FS_E* code, never move more than asked, and the
 * parsers must stay inside exact-size buffers (ASan); (3) the model stick
 * of tests/unit/msd_fake.c with random faults between random reads and
 * writes: every command that succeeds leaves the disk as a reference copy
 * says. */
#include <tests/fuzz/fuzz.h>
#include <dev/usb/scsi.h>
#include <dev/usb/usb_desc_msd.h>
#include <fs/blkdev.h>
#include <tests/unit/msd_fake.h>

static void no_sleep(uint32_t ms) { (void)ms; }

/* ---- (1) descriptors ---- */

static size_t gen_config(struct fuzz *f, uint8_t *b, size_t cap, uint8_t *want_in, uint8_t *want_out)
{
	size_t n = 9;
	*want_in = *want_out = 0;
	int ifaces = 1 + (int)fuzz_below(f, 3), msd_done = 0;
	for (int i = 0; i < ifaces && n + 9 <= cap; i++) {
		int msd = !msd_done && fuzz_below(f, 2);
		uint8_t *d = b + n;
		uint8_t other = (uint8_t)fuzz_below(f, 9);   /* any class but 8 */
		memcpy(d, (const uint8_t[]){ 9, 4, (uint8_t)i, 0, 2, msd ? 8 : other == 8 ? 9 : other,
					     msd ? 6 : (uint8_t)fuzz_below(f, 8), msd ? 0x50 : 0, 0 }, 9);
		n += 9;
		for (int e = 0; e < 2 && n + 13 <= cap; e++) {
			uint8_t addr = (uint8_t)((e == 0 ? 0x80 : 0) | (1 + fuzz_below(f, 15)));
			uint16_t mps = (uint16_t)(8u << fuzz_below(f, 8));
			memcpy(b + n, (const uint8_t[]){ 7, 5, addr, 2, (uint8_t)mps, (uint8_t)(mps >> 8), 0 }, 7);
			n += 7;
			if (fuzz_below(f, 2)) {
				memcpy(b + n, (const uint8_t[]){ 6, 0x30, (uint8_t)fuzz_below(f, 16), 0, 0, 0 }, 6);
				n += 6;
			}
			if (msd && e == 0)
				*want_in = addr;
			else if (msd)
				*want_out = addr;
		}
		msd_done |= msd;
	}
	memcpy(b, (const uint8_t[]){ 9, 2, (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)ifaces, 1, 0, 0x80, 50 }, 9);
	return n;
}

static void descriptors(struct fuzz *f)
{
	uint8_t b[300], want_in, want_out;
	size_t len = gen_config(f, b, 200, &want_in, &want_out);
	int mutated = fuzz_below(f, 2);
	if (mutated)
		fuzz_mutate(f, b, &len, sizeof(b));
	uint8_t *copy = malloc(len ? len : 1);
	memcpy(copy, b, len);
	struct usb_msd_info mi;
	memset(&mi, 0x5A, sizeof(mi));
	const struct usb_msd_info untouched = mi;
	char err[128] = "";
	int r = usb_parse_msd(copy, len, &mi, err, sizeof(err));
	if (r) {
		if (!err[0] || memcmp(&mi, &untouched, sizeof(mi)))
			fuzz_fail(f, "refused without a reason, or output written");
	} else if (mi.found) {
		if (!(mi.ep_in & 0x80) || (mi.ep_out & 0x80) || !(mi.ep_in & 15) || !(mi.ep_out & 15) ||
		    mi.mps_in < 8 || mi.mps_in > 1024 || (mi.mps_in & (mi.mps_in - 1)) || mi.mps_out < 8 ||
		    mi.mps_out > 1024 || (mi.mps_out & (mi.mps_out - 1)) || mi.burst_in > 15 || mi.burst_out > 15 ||
		    mi.subclass != 6 || mi.protocol != 0x50)
			fuzz_fail(f, "accepted an unusable interface: in 0x%x/%u out 0x%x/%u", mi.ep_in, mi.mps_in,
				  mi.ep_out, mi.mps_out);
	}
	if (!mutated && (r || mi.found != (want_in != 0) || (want_in && (mi.ep_in != want_in || mi.ep_out != want_out))))
		fuzz_fail(f, "generated stick: %d found %d in 0x%x (0x%x) out 0x%x (0x%x): %s", r, mi.found, mi.ep_in,
			  want_in, mi.ep_out, want_out, err);
	free(copy);
}

/* ---- (2) a hostile stick ---- */

struct hostile {
	struct bot_ops ops;
	struct fuzz *f;
	uint64_t calls;
};

static int hostile_bulk(void *ctx, int in, void *buf, uint32_t len, uint32_t *got, uint32_t timeout_ms)
{
	struct hostile *h = ctx;
	(void)timeout_ms;
	h->calls++;
	*got = fuzz_below(h->f, 4) ? len : (uint32_t)fuzz_below(h->f, len + 1);
	if (in) {
		uint8_t *p = buf;
		int csw = len == 13 && fuzz_below(h->f, 2);
		for (uint32_t i = 0; i < *got; i++)
			p[i] = (uint8_t)fuzz_u64(h->f);
		if (csw && *got >= 13) {              /* often a plausible CSW, to get past the checks */
			memcpy(p, "USBS", 4);
			p[12] = (uint8_t)fuzz_below(h->f, 3);
		}
	}
	uint64_t x = fuzz_below(h->f, 16);
	return x < 12 ? BOT_XFER_OK : x < 14 ? BOT_XFER_STALL : x < 15 ? BOT_XFER_ERR : BOT_XFER_GONE;
}

static int hostile_clear(void *ctx, int in)
{
	struct hostile *h = ctx;
	(void)in;
	return fuzz_below(h->f, 8) ? 0 : -1;
}

static int hostile_reset(void *ctx)
{
	struct hostile *h = ctx;
	return fuzz_below(h->f, 8) ? 0 : -1;
}

static int fs_code(int rc)
{
	return rc == 0 || (rc <= FS_EIO && rc >= FS_EINVAL);
}

static void hostile(struct fuzz *f)
{
	struct hostile h = { { NULL, hostile_bulk, hostile_clear, hostile_reset }, f, 0 };
	h.ops.ctx = &h;
	struct bot bot = { .ops = &h.ops };
	struct scsi_disk d = { .bot = &bot, .sleep_ms = no_sleep };
	char err[160];
	int rc = scsi_disk_init(&d, err, sizeof(err));
	if (!fs_code(rc))
		fuzz_fail(f, "init returned %d", rc);
	if (h.calls > 1000)
		fuzz_fail(f, "bring-up took %llu transfers", (unsigned long long)h.calls);
	if (rc == 0 && (d.block_size < 512 || d.block_size > 4096 || d.blocks == 0 || d.blocks > 0x100000000ull ||
			memchr(d.vendor, 0, sizeof(d.vendor)) == NULL))
		fuzz_fail(f, "accepted a disk of %llu blocks of %u", (unsigned long long)d.blocks, d.block_size);
	if (rc)
		return;
	uint32_t count = 1 + (uint32_t)fuzz_below(f, 4);
	uint8_t *buf = malloc((size_t)count * d.block_size);
	memset(buf, 0, (size_t)count * d.block_size);
	for (int i = 0; i < 4; i++) {
		uint64_t lba = fuzz_below(f, d.blocks);
		int op = (int)fuzz_below(f, 3);
		rc = op == 2 ? scsi_disk_sync(&d, err, sizeof(err))
			     : scsi_disk_rw(&d, op, lba, count, buf, err, sizeof(err));
		if (!fs_code(rc))
			fuzz_fail(f, "operation %d returned %d", op, rc);
		uint8_t csw[13], st;
		uint32_t residue, want = (uint32_t)fuzz_u64(f);
		for (int k = 0; k < 13; k++)
			csw[k] = (uint8_t)fuzz_u64(f);
		if (fuzz_below(f, 2))
			memcpy(csw, "USBS", 4);
		if (bot_csw_check(csw, 13, 7, want, &st, &residue, err, sizeof(err)) == 0 &&
		    (memcmp(csw, "USBS", 4) || csw[4] != 7 || csw[5] || csw[6] || csw[7] || st > 2 ||
		     (st < 2 && residue > want)))
			fuzz_fail(f, "CSW accepted wrongly");
	}
	free(buf);
	/* The reply parsers on exact-size buffers of random bytes. */
	uint32_t n = (uint32_t)fuzz_below(f, 40);
	uint8_t *r = malloc(n ? n : 1);
	for (uint32_t i = 0; i < n; i++)
		r[i] = (uint8_t)fuzz_u64(f);
	uint8_t key, asc, ascq;
	uint64_t blocks;
	uint32_t bs;
	int wp;
	scsi_parse_inquiry(r, n, &d, err, sizeof(err));
	scsi_parse_sense(r, n, &key, &asc, &ascq);
	scsi_parse_mode_sense6(r, n, &wp);
	if (scsi_parse_capacity10(r, n, &blocks, &bs, err, sizeof(err)) == 0 && (bs < 512 || blocks == 0))
		fuzz_fail(f, "capacity accepted wrongly");
	if (scsi_parse_capacity16(r, n, &blocks, &bs, err, sizeof(err)) == 0 && (bs > 4096 || blocks == 0))
		fuzz_fail(f, "capacity (16) accepted wrongly");
	free(r);
}

/* ---- (3) the model stick with faults ---- */

static void model(struct fuzz *f)
{
	enum { BLOCKS = 64 };
	static uint8_t disk[BLOCKS * 512], ref[BLOCKS * 512];
	static struct msd_fake m;
	memset(disk, 0, sizeof(disk));
	memset(ref, 0, sizeof(ref));
	msd_fake_init(&m, disk, 512, BLOCKS);
	m.attentions = (int)fuzz_below(f, 3);
	struct bot bot = { .ops = &m.ops };
	struct scsi_disk d = { .bot = &bot, .sleep_ms = no_sleep };
	char err[160];
	if (scsi_disk_init(&d, err, sizeof(err)))
		fuzz_fail(f, "the model stick did not come up: %s", err);
	uint8_t buf[4 * 512];
	for (int i = 0; i < 12; i++) {
		m.fault = (enum msd_fault)fuzz_below(f, 6);
		uint32_t count = 1 + (uint32_t)fuzz_below(f, 4);
		uint64_t lba = fuzz_below(f, BLOCKS - count + 1);
		int write = (int)fuzz_below(f, 2);
		for (uint32_t k = 0; k < count * 512; k++)
			buf[k] = (uint8_t)fuzz_u64(f);
		int gone = m.fault == MSD_GONE;
		int rc = scsi_disk_rw(&d, write, lba, count, buf, err, sizeof(err));
		if (gone)
			m.fault = MSD_OK;
		if (gone != (rc == FS_EGONE) || !fs_code(rc))
			fuzz_fail(f, "fault %d: rc %d (%s)", (int)gone, rc, err);
		if (rc == 0 && write)
			memcpy(ref + lba * 512, buf, count * 512);
		if (rc == 0 && !write && memcmp(buf, ref + lba * 512, count * 512))
			fuzz_fail(f, "read of %u blocks at %llu differs from what was written", count,
				  (unsigned long long)lba);
		if (rc && write)   /* a failed write may have landed partly: the reference takes the disk */
			memcpy(ref + lba * 512, disk + lba * 512, count * 512);
	}
}

static void fuzz_one(struct fuzz *f)
{
	switch (fuzz_below(f, 3)) {
	case 0: descriptors(f); break;
	case 1: hostile(f); break;
	default: model(f); break;
	}
}

FUZZ_MAIN("usb_msd")
