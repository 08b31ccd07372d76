/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hid_kbd.h — the HID boot keyboard report (HID 1.11, appendix B.1:
 * modifier byte, reserved byte, six key usages of the Keyboard/Keypad page,
 * HID Usage Tables chapter 10) checked, and turned into PC scancode set 1
 * bytes so that kernel/dev/keymap.c — the PS/2 keyboard's decoder — gives
 * the same characters and escape sequences for both keyboards.
 *
 * Portable C (host tests, fuzz harness); no locks (one state per keyboard,
 * fed by one thread).
 */
#ifndef MOSAIC_HID_KBD_H
#define MOSAIC_HID_KBD_H
#include <stddef.h>
#include <stdint.h>

#define HID_KBD_REPORT_LEN 8
#define HID_KBD_KEYS       6
#define HID_KBD_CODES_MAX  64    /* scancode bytes one report change can need */

/* Output report (LEDs), HID 1.11 B.1. */
#define HID_LED_NUM    0x01
#define HID_LED_CAPS   0x02
#define HID_LED_SCROLL 0x04

struct hid_kbd_report {
	uint8_t mods;                 /* bit 0 LCtrl .. bit 7 RGUI */
	uint8_t nkeys;
	uint8_t keys[HID_KBD_KEYS];   /* pressed usages, in report order, no zeros */
};

enum hid_kbd_verdict {
	HID_KBD_OK,          /* a state of the keyboard */
	HID_KBD_ROLLOVER,    /* too many keys: phantom state, keep the last one */
	HID_KBD_MALFORMED,   /* dropped and counted */
};

/* Check one report buf[0..len): exactly 8 bytes; key slots hold 0, or
 * usages 0x04..0xDD, none twice, no modifier usage (0xE0..0xE7, which
 * belong in byte 0); or all six 0x01 (ErrorRollOver). Error usages
 * 0x01..0x03 mixed with others, reserved usages (0xDE..0xDF, 0xE8+) and
 * everything else are malformed, with the reason in *why. */
enum hid_kbd_verdict hid_kbd_parse(const uint8_t *buf, size_t len, struct hid_kbd_report *out,
				   const char **why);
/* Scancode set 1 bytes (with 0xE0 prefixes) that take the keyboard from
 * state prev to cur: modifier releases and presses, then key releases, then
 * key presses in report order. Returns the count written to codes (at most
 * HID_KBD_CODES_MAX). Usages without a set-1 key are skipped; usages that
 * share a set-1 code (0x31 and 0x32) are one key: its make comes when the
 * first of them is pressed, its break when the last is released. *newest
 * gets the last newly pressed usage whose code was not held before (for
 * typematic repeat), 0 if none. */
size_t hid_kbd_transition(const struct hid_kbd_report *prev, const struct hid_kbd_report *cur,
			  uint8_t codes[HID_KBD_CODES_MAX], uint8_t *newest);
/* The make code bytes of one usage (1 or 2), 0 if it has none. */
size_t hid_kbd_make(uint8_t usage, uint8_t out[2]);
#endif
