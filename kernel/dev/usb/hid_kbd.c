/* SPDX-License-Identifier: BSD-2-Clause */
/* hid_kbd.c — boot keyboard reports to scancode set 1 (see hid_kbd.h). */
#include <dev/usb/hid_kbd.h>

#define EXT 0x100   /* the scancode needs the 0xE0 prefix */

/* Keyboard/Keypad page usage -> set-1 make code (US layout positions);
 * 0 where the key has no set-1 code the decoder knows (Print Screen, Pause
 * and keys beyond the boot range). */
static const uint16_t usage_to_set1[0x66] = {
	[0x04] = 0x1E, 0x30, 0x2E, 0x20, 0x12, 0x21, 0x22, 0x23, 0x17, 0x24, 0x25, 0x26, 0x32,
	[0x11] = 0x31, 0x18, 0x19, 0x10, 0x13, 0x1F, 0x14, 0x16, 0x2F, 0x11, 0x2D, 0x15, 0x2C,
	[0x1E] = 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B,
	[0x28] = 0x1C, 0x01, 0x0E, 0x0F, 0x39, 0x0C, 0x0D, 0x1A, 0x1B, 0x2B, 0x2B, 0x27, 0x28,
	[0x35] = 0x29, 0x33, 0x34, 0x35, 0x3A,
	[0x3A] = 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x40, 0x41, 0x42, 0x43, 0x44, 0x57, 0x58,
	[0x47] = 0x46,
	[0x49] = EXT | 0x52, EXT | 0x47, EXT | 0x49, EXT | 0x53, EXT | 0x4F, EXT | 0x51,
	[0x4F] = EXT | 0x4D, EXT | 0x4B, EXT | 0x50, EXT | 0x48,
	[0x53] = 0x45, EXT | 0x35, 0x37, 0x4A, 0x4E, EXT | 0x1C,
	[0x59] = 0x4F, 0x50, 0x51, 0x4B, 0x4C, 0x4D, 0x47, 0x48, 0x49, 0x52, 0x53,
	[0x64] = 0x56, EXT | 0x5D,
};

/* Modifier bit n -> set-1 make code. */
static const uint16_t mod_to_set1[8] = {
	0x1D, 0x2A, 0x38, EXT | 0x5B, EXT | 0x1D, 0x36, EXT | 0x38, EXT | 0x5C,
};

/* See hid_kbd.h. */
enum hid_kbd_verdict hid_kbd_parse(const uint8_t *buf, size_t len, struct hid_kbd_report *out,
				   const char **why)
{
	if (len < HID_KBD_REPORT_LEN) {
		*why = "truncated report";
		return HID_KBD_MALFORMED;
	}
	if (len > HID_KBD_REPORT_LEN) {
		*why = "oversized report";
		return HID_KBD_MALFORMED;
	}
	int errors = 0;
	struct hid_kbd_report r = { .mods = buf[0] };
	for (int i = 2; i < HID_KBD_REPORT_LEN; i++) {
		uint8_t u = buf[i];
		if (u == 0)
			continue;
		if (u <= 0x03) {
			errors++;
			continue;
		}
		if (u >= 0xE0 && u <= 0xE7) {
			*why = "modifier usage in a key slot";
			return HID_KBD_MALFORMED;
		}
		if (u > 0xDD) {
			*why = "reserved usage";
			return HID_KBD_MALFORMED;
		}
		for (int k = 0; k < r.nkeys; k++) {
			if (r.keys[k] == u) {
				*why = "key listed twice";
				return HID_KBD_MALFORMED;
			}
		}
		r.keys[r.nkeys++] = u;
	}
	if (errors == HID_KBD_KEYS) {
		int all_rollover = 1;
		for (int i = 2; i < HID_KBD_REPORT_LEN; i++)
			all_rollover &= buf[i] == 0x01;
		if (all_rollover) {
			*why = "rollover";
			return HID_KBD_ROLLOVER;
		}
	}
	if (errors) {
		*why = "error usage mixed with keys";
		return HID_KBD_MALFORMED;
	}
	*out = r;
	*why = "";
	return HID_KBD_OK;
}

/* Append the set-1 bytes of code (make, or break when rel) to codes. */
static size_t put_code(uint8_t *codes, size_t n, uint16_t code, int rel)
{
	if (code & EXT)
		codes[n++] = 0xE0;
	codes[n++] = (uint8_t)((code & 0x7F) | (rel ? 0x80 : 0));
	return n;
}

/* Set-1 code of a usage, 0 if none. */
static uint16_t usage_code(uint8_t u)
{
	return u < sizeof(usage_to_set1) / sizeof(usage_to_set1[0]) ? usage_to_set1[u] : 0;
}

/* 1 when one of r's first upto keys has the set-1 code code. Two usages
 * can share a code (0x31 Backslash and 0x32 Non-US # are the same key
 * position, set-1 0x2B), so presses and releases are decided per code. */
static int has_code(const struct hid_kbd_report *r, int upto, uint16_t code)
{
	for (int i = 0; i < upto && i < r->nkeys && i < HID_KBD_KEYS; i++)
		if (usage_code(r->keys[i]) == code)
			return 1;
	return 0;
}

/* See hid_kbd.h. At most 8 modifiers x 2 bytes + 12 keys x 2 bytes = 40.
 * A code is released when no key of cur has it any more and pressed when
 * no key of prev had it, each once however many usages carry it. */
size_t hid_kbd_transition(const struct hid_kbd_report *prev, const struct hid_kbd_report *cur,
			  uint8_t codes[HID_KBD_CODES_MAX], uint8_t *newest)
{
	size_t n = 0;
	*newest = 0;
	for (int b = 0; b < 8; b++)
		if ((prev->mods & ~cur->mods) & (1u << b))
			n = put_code(codes, n, mod_to_set1[b], 1);
	for (int b = 0; b < 8; b++)
		if ((cur->mods & ~prev->mods) & (1u << b))
			n = put_code(codes, n, mod_to_set1[b], 0);
	for (int i = 0; i < prev->nkeys && i < HID_KBD_KEYS; i++) {
		uint16_t c = usage_code(prev->keys[i]);
		if (c && !has_code(cur, HID_KBD_KEYS, c) && !has_code(prev, i, c))
			n = put_code(codes, n, c, 1);
	}
	for (int i = 0; i < cur->nkeys && i < HID_KBD_KEYS; i++) {
		uint16_t c = usage_code(cur->keys[i]);
		if (c && !has_code(prev, HID_KBD_KEYS, c) && !has_code(cur, i, c)) {
			n = put_code(codes, n, c, 0);
			*newest = cur->keys[i];
		}
	}
	return n;
}

/* See hid_kbd.h. */
size_t hid_kbd_make(uint8_t usage, uint8_t out[2])
{
	uint16_t c = usage_code(usage);
	return c ? put_code(out, 0, c, 0) : 0;
}
