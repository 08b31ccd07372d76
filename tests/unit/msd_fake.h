/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msd_fake.h — a USB stick as the Bulk-Only Transport sees it (the
 * bot_ops of kernel/dev/usb/usb_bot.h), for tests/unit/test_usb_msd.c and
 * tests/fuzz/fuzz_usb_msd.c: it takes CBWs, answers the SCSI commands of
 * kernel/dev/usb/scsi.c from a RAM disk, and misbehaves on request (unit
 * attentions at first, a stalled data stage, a wrong CSW tag, a phase
 * error, a short CSW, write protection, removal). It counts the recovery
 * steps the host takes.
 */
#ifndef MOSAIC_TEST_MSD_FAKE_H
#define MOSAIC_TEST_MSD_FAKE_H
#include <stdint.h>
#include <dev/usb/usb_bot.h>

enum msd_fault {
	MSD_OK,
	MSD_STALL_DATA,     /* the next data stage stalls (the CSW then says failed) */
	MSD_BAD_TAG,        /* the next CSW carries another tag */
	MSD_PHASE,          /* the next CSW says phase error */
	MSD_SHORT_CSW,      /* the next CSW is 12 bytes */
	MSD_GONE,           /* the stick is pulled out: every transfer fails */
};

struct msd_fake {
	struct bot_ops ops;
	uint8_t *disk;
	uint32_t block_size;
	uint64_t blocks;
	int write_protected;
	int attentions;            /* TEST UNIT READY answers unit attention this often first */
	enum msd_fault fault;      /* the next command's misbehaviour (then MSD_OK, but MSD_GONE stays) */
	/* state of the command under way */
	uint8_t cbw[31];
	int have_cbw;
	uint8_t status;            /* CSW status of the command under way */
	uint32_t residue;
	uint8_t sense[3];          /* key, asc, ascq of the last failure */
	int stall_in, stall_out;   /* an endpoint halted until CLEAR_FEATURE */
	uint64_t resets, clears, commands;
};

/* A stick of blocks blocks of block_size bytes over disk (zeroed). */
void msd_fake_init(struct msd_fake *m, uint8_t *disk, uint32_t block_size, uint64_t blocks);

#endif
