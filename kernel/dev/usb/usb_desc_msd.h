/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usb_desc_msd.h — a configuration's USB mass storage interface (USB Mass
 * Storage Class Specification Overview 1.4: class 8, subclass 6 "SCSI
 * transparent command set", protocol 0x50 "Bulk-Only Transport") and its
 * bulk endpoints, with the SuperSpeed endpoint companion's burst size
 * (USB 3.2, 9.6.7). Portable C (host tests, fuzz harness); no locks.
 */
#ifndef MOSAIC_DEV_USB_DESC_MSD_H
#define MOSAIC_DEV_USB_DESC_MSD_H
#include <stddef.h>
#include <stdint.h>

#define USB_MSD_SUBCLASS_SCSI 0x06
#define USB_MSD_PROTO_BOT     0x50
#define USB_DESC_SS_COMPANION 0x30

struct usb_msd_info {
	int found;                /* a mass storage interface (class 8, alternate 0) exists */
	uint8_t interface;
	uint8_t subclass, protocol;
	uint8_t ep_in, ep_out;    /* addresses (IN with bit 7) */
	uint16_t mps_in, mps_out;
	uint8_t burst_in, burst_out;   /* SuperSpeed companion bMaxBurst, 0 without */
};

/* Finds the first mass storage interface (alternate setting 0) of the
 * configuration b[0..len) (already accepted by usb_parse_config()) and
 * its first bulk IN and OUT endpoints. 0 with out filled (found 0 when
 * there is none); -1 with a reason when there is one this driver cannot
 * use: another subclass or protocol (UFI, ATAPI, UAS only), a missing
 * bulk endpoint, a packet size not a power of two in 8..1024, a
 * descriptor that overruns the configuration. */
int usb_parse_msd(const uint8_t *b, size_t len, struct usb_msd_info *out, char *err, size_t err_len);

#endif
