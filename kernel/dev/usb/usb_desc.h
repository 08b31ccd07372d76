/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usb_desc.h — USB standard descriptors (USB 2.0 chapter 9.6; USB 3.2
 * 9.6 for bMaxPacketSize0 as an exponent) and the HID boot keyboard
 * interface (HID 1.11, appendix B): the device descriptor, and a
 * configuration's descriptor set searched for a boot keyboard's interrupt
 * IN endpoint. Portable C (host tests, fuzz harness); no locks.
 */
#ifndef MOSAIC_USB_DESC_H
#define MOSAIC_USB_DESC_H
#include <stddef.h>
#include <stdint.h>

#define USB_DESC_DEVICE    1
#define USB_DESC_CONFIG    2
#define USB_DESC_INTERFACE 4
#define USB_DESC_ENDPOINT  5
#define USB_DEVICE_DESC_LEN 18
#define USB_CONFIG_MAX     1024   /* most bytes of a configuration we read */

#define USB_CLASS_HID      3
#define USB_CLASS_STORAGE  8
#define USB_CLASS_HUB      9

/* xHCI protocol speed ids of the default mapping (xHCI 1.2, 7.2.2.1.1). */
#define USB_SPEED_FULL  1
#define USB_SPEED_LOW   2
#define USB_SPEED_HIGH  3
#define USB_SPEED_SUPER 4

struct usb_device_desc {
	uint16_t bcd_usb;
	uint8_t dev_class, dev_subclass, dev_protocol;
	uint16_t max_packet0;        /* bytes */
	uint16_t vendor, product;
	uint8_t num_configs;
};

struct usb_config_info {
	uint16_t total_len;
	uint8_t config_value;
	uint8_t num_interfaces;
	uint8_t first_class;         /* class of the first interface (for messages) */
	int keyboard;                /* 1: a boot keyboard interface was found */
	uint8_t kbd_interface;
	uint8_t kbd_endpoint;        /* address, bit 7 set (IN) */
	uint16_t kbd_max_packet;
	uint8_t kbd_interval;        /* bInterval as given */
};

/* EP0's packet size from the first 8 bytes of a device descriptor at the
 * given speed: 8/16/32/64 for low/full/high speed (low speed: 8 only),
 * 2^n = 512 for SuperSpeed. 0 with a reason in err when the bytes are
 * short or the value is not allowed. */
uint16_t usb_parse_max_packet0(const uint8_t *b, size_t len, int speed, char *err, size_t err_len);
/* The whole device descriptor: 0, or -1 with a reason (short, wrong
 * type or length, bad EP0 packet size, no configurations). */
int usb_parse_device(const uint8_t *b, size_t len, int speed, struct usb_device_desc *out,
		     char *err, size_t err_len);
/* wTotalLength of a configuration descriptor header (first 9 bytes):
 * 9..USB_CONFIG_MAX, else 0 with a reason. */
uint16_t usb_parse_config_len(const uint8_t *b, size_t len, char *err, size_t err_len);
/* A configuration's descriptor set b[0..len), len == wTotalLength: every
 * descriptor's length checked against what is left, and the first boot
 * keyboard interface (class 3, subclass 1, protocol 1, alternate 0) with
 * its first interrupt IN endpoint (number 1..15, packet size 8..1024,
 * bInterval 1..255). 0 with out filled (keyboard 0 if there is none), or -1 with a
 * reason naming the descriptor's offset. */
int usb_parse_config(const uint8_t *b, size_t len, struct usb_config_info *out, char *err,
		     size_t err_len);
#endif
