/* SPDX-License-Identifier: BSD-2-Clause */
/* test_usb_msd.c — a USB stick's mass storage interface
 * (kernel/dev/usb/usb_desc_msd.c), the Bulk-Only Transport's checks and
 * recoveries (usb_bot.c) and the SCSI layer (scsi.c) against a model of
 * a stick (tests/unit/msd_fake.c): bring-up through unit attentions,
 * reads and writes, write protection, a stalled data stage, invalid CSWs
 * (wrong tag, phase error, 12 bytes) with the reset recovery, a stick
 * pulled out, READ CAPACITY (16). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dev/usb/scsi.h>
#include <dev/usb/usb_desc_msd.h>
#include <fs/blkdev.h>
#include <tests/unit/msd_fake.h>

#define BLOCKS 2048u

static uint8_t disk[BLOCKS * 512];
static struct msd_fake fake;
static struct bot bot;
static struct scsi_disk sd;
static char err[160];

static void no_sleep(uint32_t ms) { (void)ms; }

/* A stick brought up: 0 or the init's error. */
static int bring_up(int attentions, int wp)
{
	msd_fake_init(&fake, disk, 512, BLOCKS);
	fake.attentions = attentions;
	fake.write_protected = wp;
	memset(&bot, 0, sizeof(bot));
	bot.ops = &fake.ops;
	memset(&sd, 0, sizeof(sd));
	sd.bot = &bot;
	sd.sleep_ms = no_sleep;
	return scsi_disk_init(&sd, err, sizeof(err));
}

static void test_bring_up_and_io(void **s)
{
	(void)s;
	assert_int_equal(bring_up(2, 0), 0);
	assert_int_equal(sd.retries, 2);
	assert_string_equal(sd.vendor, "FAKE");
	assert_string_equal(sd.product, "Stick");
	assert_int_equal(sd.blocks, BLOCKS);
	assert_int_equal(sd.block_size, 512);
	assert_false(sd.readonly);
	uint8_t out[4096], in[4096];
	for (unsigned i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 13);
	assert_int_equal(scsi_disk_rw(&sd, 1, 100, 8, out, err, sizeof(err)), 0);
	assert_int_equal(scsi_disk_rw(&sd, 0, 100, 8, in, err, sizeof(err)), 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(scsi_disk_sync(&sd, err, sizeof(err)), 0);
	assert_int_equal(scsi_disk_rw(&sd, 0, BLOCKS - 1, 2, in, err, sizeof(err)), FS_EINVAL);
	assert_int_equal(fake.resets, 0);
}

static void test_write_protected(void **s)
{
	(void)s;
	uint8_t b[512] = { 0 };
	assert_int_equal(bring_up(0, 1), 0);
	assert_true(sd.readonly);
	assert_int_equal(scsi_disk_rw(&sd, 1, 0, 1, b, err, sizeof(err)), FS_EROFS);
	assert_non_null(strstr(err, "write-protected"));
}

static void test_stalled_data_stage(void **s)
{
	(void)s;
	uint8_t b[1024];
	assert_int_equal(bring_up(0, 0), 0);
	fake.fault = MSD_STALL_DATA;
	assert_int_equal(scsi_disk_rw(&sd, 0, 0, 2, b, err, sizeof(err)), FS_EIO);
	assert_non_null(strstr(err, "medium error"));
	assert_int_equal(fake.clears, 1);
	assert_int_equal(fake.resets, 0);
	assert_int_equal(bot.stalls, 1);
	assert_int_equal(scsi_disk_rw(&sd, 0, 0, 2, b, err, sizeof(err)), 0);   /* and it goes on */
}

/* An invalid or not meaningful CSW: the reset recovery, then the command
 * is tried again and succeeds. */
static void csw_fault(enum msd_fault f)
{
	uint8_t b[512];
	assert_int_equal(bring_up(0, 0), 0);
	fake.fault = f;
	assert_int_equal(scsi_disk_rw(&sd, 0, 3, 1, b, err, sizeof(err)), 0);
	assert_int_equal(fake.resets, 1);
	assert_int_equal(bot.recoveries, 1);
	assert_int_equal(sd.retries, 1);
}

static void test_wrong_tag(void **s) { (void)s; csw_fault(MSD_BAD_TAG); }
static void test_phase_error(void **s) { (void)s; csw_fault(MSD_PHASE); }
static void test_short_csw(void **s) { (void)s; csw_fault(MSD_SHORT_CSW); }

static void test_pulled_out(void **s)
{
	(void)s;
	uint8_t b[512];
	assert_int_equal(bring_up(0, 0), 0);
	fake.fault = MSD_GONE;
	assert_int_equal(scsi_disk_rw(&sd, 0, 0, 1, b, err, sizeof(err)), FS_EGONE);
	assert_non_null(strstr(err, "removed"));
	assert_int_equal(fake.resets, 0);
	assert_int_equal(bring_up(0, 0), 0);
	fake.fault = MSD_GONE;
	assert_int_equal(scsi_disk_sync(&sd, err, sizeof(err)), FS_EGONE);
}

static void test_never_ready(void **s)
{
	(void)s;
	assert_int_equal(bring_up(1000, 0), FS_EIO);
	assert_non_null(strstr(err, "medium changed"));
}

static void test_capacity16(void **s)
{
	(void)s;
	msd_fake_init(&fake, NULL, 512, 0x100000000ull);
	memset(&bot, 0, sizeof(bot));
	bot.ops = &fake.ops;
	memset(&sd, 0, sizeof(sd));
	sd.bot = &bot;
	sd.sleep_ms = no_sleep;
	assert_int_equal(scsi_disk_init(&sd, err, sizeof(err)), 0);
	assert_int_equal(sd.blocks, 0x100000000ull);
	uint8_t cap10[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 2, 0 }, cap16[12] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 0 };
	uint64_t blocks;
	uint32_t bs;
	assert_int_equal(scsi_parse_capacity10(cap10, 8, &blocks, &bs, err, sizeof(err)), 1);
	assert_int_equal(scsi_parse_capacity16(cap16, 12, &blocks, &bs, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "blocks"));
}

static void test_csw_checks(void **s)
{
	(void)s;
	uint8_t csw[13] = { 'U', 'S', 'B', 'S', 7, 0, 0, 0, 5, 0, 0, 0, 0 }, st;
	uint32_t residue;
	assert_int_equal(bot_csw_check(csw, 13, 7, 512, &st, &residue, err, sizeof(err)), 0);
	assert_int_equal(residue, 5);
	assert_int_equal(bot_csw_check(csw, 13, 7, 4, &st, &residue, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "residue"));
	csw[12] = 3;
	assert_int_equal(bot_csw_check(csw, 13, 7, 512, &st, &residue, err, sizeof(err)), -1);
	assert_int_equal(bot_csw_check(csw, 12, 7, 512, &st, &residue, err, sizeof(err)), -1);
	uint8_t sense[4] = { 0x72, 0x07, 0x27, 0x00 }, key, asc, ascq;
	assert_int_equal(scsi_parse_sense(sense, 4, &key, &asc, &ascq), 0);
	assert_string_equal(scsi_sense_text(key, asc, ascq), "write-protected");
	assert_int_equal(scsi_parse_sense(sense, 3, &key, &asc, &ascq), -1);
}

/* A stick's configuration: interface 0, class 8/6/0x50, bulk IN 0x81
 * and OUT 0x02 of 1024 bytes, each with a SuperSpeed companion. */
static const uint8_t stick_config[] = {
	9, 2, 44, 0, 1, 1, 0, 0x80, 50,
	9, 4, 0, 0, 2, 8, 6, 0x50, 0,
	7, 5, 0x81, 2, 0x00, 0x04, 0, 6, 0x30, 3, 0, 0, 0,
	7, 5, 0x02, 2, 0x00, 0x04, 0, 6, 0x30, 15, 0, 0, 0,
};

static void test_descriptors(void **s)
{
	(void)s;
	struct usb_msd_info mi;
	uint8_t c[sizeof(stick_config)];
	assert_int_equal(usb_parse_msd(stick_config, sizeof(stick_config), &mi, err, sizeof(err)), 0);
	assert_true(mi.found);
	assert_int_equal(mi.ep_in, 0x81);
	assert_int_equal(mi.ep_out, 0x02);
	assert_int_equal(mi.mps_in, 1024);
	assert_int_equal(mi.burst_in, 3);
	assert_int_equal(mi.burst_out, 15);
	memcpy(c, stick_config, sizeof(c));
	c[9 + 6] = 4;                               /* UFI: refused */
	assert_int_equal(usb_parse_msd(c, sizeof(c), &mi, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "subclass 0x04"));
	memcpy(c, stick_config, sizeof(c));
	c[31 + 2] = 0x83;                           /* two IN endpoints, no OUT */
	assert_int_equal(usb_parse_msd(c, sizeof(c), &mi, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "without a bulk OUT"));
	memcpy(c, stick_config, sizeof(c));
	c[9 + 5] = 3;                               /* not mass storage: found 0 */
	assert_int_equal(usb_parse_msd(c, sizeof(c), &mi, err, sizeof(err)), 0);
	assert_false(mi.found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bring_up_and_io),
		cmocka_unit_test(test_write_protected),
		cmocka_unit_test(test_stalled_data_stage),
		cmocka_unit_test(test_wrong_tag),
		cmocka_unit_test(test_phase_error),
		cmocka_unit_test(test_short_csw),
		cmocka_unit_test(test_pulled_out),
		cmocka_unit_test(test_never_ready),
		cmocka_unit_test(test_capacity16),
		cmocka_unit_test(test_csw_checks),
		cmocka_unit_test(test_descriptors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
