/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the HID boot keyboard report parser and its translation
 * to scancode set 1 (kernel/dev/usb/hid_kbd.c), end to end through the
 * PS/2 decoder (kernel/dev/keymap.c) as the kernel uses them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <dev/usb/hid_kbd.h>
#include <dev/keymap.h>

#define R(...) ((const uint8_t[]){ __VA_ARGS__ })

/* The keyboard as the kernel keeps it: last report and the decoder. */
struct kbd {
	struct hid_kbd_report last;
	struct keymap_state km;
	char out[128];
	size_t len;
};

static void kbd_init(struct kbd *k)
{
	memset(k, 0, sizeof(*k));
	keymap_init(&k->km);
}

/* Feed one 8-byte report; returns its verdict, appends produced bytes. */
static enum hid_kbd_verdict kbd_report(struct kbd *k, const uint8_t *r, size_t len)
{
	struct hid_kbd_report cur;
	const char *why;
	enum hid_kbd_verdict v = hid_kbd_parse(r, len, &cur, &why);
	if (v != HID_KBD_OK)
		return v;
	uint8_t codes[HID_KBD_CODES_MAX], newest;
	size_t n = hid_kbd_transition(&k->last, &cur, codes, &newest);
	assert_true(n <= HID_KBD_CODES_MAX);
	for (size_t i = 0; i < n; i++) {
		char out[KEYMAP_OUT_MAX];
		int m = keymap_feed(&k->km, codes[i], out);
		for (int j = 0; j < m; j++)
			k->out[k->len++] = out[j];
	}
	k->out[k->len] = 0;
	k->last = cur;
	return v;
}

/* Press and release each usage in turn (no modifiers). */
static void tap(struct kbd *k, uint8_t mods, uint8_t usage)
{
	assert_int_equal(kbd_report(k, R(mods, 0, usage, 0, 0, 0, 0, 0), 8), HID_KBD_OK);
	assert_int_equal(kbd_report(k, R(mods, 0, 0, 0, 0, 0, 0, 0), 8), HID_KBD_OK);
}

static void test_letters_digits_enter(void **state)
{
	(void)state;
	struct kbd k;
	kbd_init(&k);
	tap(&k, 0, 0x0B);            /* h */
	tap(&k, 0, 0x0C);            /* i */
	tap(&k, 0, 0x2C);            /* space */
	tap(&k, 0, 0x1E);            /* 1 */
	tap(&k, 0, 0x27);            /* 0 */
	tap(&k, 0, 0x28);            /* Enter */
	tap(&k, 0, 0x2A);            /* Backspace */
	assert_string_equal(k.out, "hi 10\n\x7f");
}

static void test_shift_ctrl_and_symbols(void **state)
{
	(void)state;
	struct kbd k;
	kbd_init(&k);
	tap(&k, 0x02, 0x04);         /* LShift a */
	tap(&k, 0x20, 0x2D);         /* RShift - : _ */
	tap(&k, 0x01, 0x06);         /* LCtrl c : ^C */
	tap(&k, 0x10, 0x18);         /* RCtrl u : ^U */
	tap(&k, 0, 0x38);            /* / */
	assert_string_equal(k.out, "A_\x03\x15/");
}

static void test_navigation_keys_are_escape_sequences(void **state)
{
	(void)state;
	struct kbd k;
	kbd_init(&k);
	tap(&k, 0, 0x52);            /* Up */
	tap(&k, 0, 0x50);            /* Left */
	tap(&k, 0, 0x4A);            /* Home */
	tap(&k, 0, 0x4C);            /* Delete */
	tap(&k, 0, 0x58);            /* keypad Enter */
	assert_string_equal(k.out, "\x1b[A\x1b[D\x1b[H\x1b[3~\n");
}

static void test_caps_lock_toggles_once_per_press(void **state)
{
	(void)state;
	struct kbd k;
	kbd_init(&k);
	tap(&k, 0, 0x39);            /* Caps Lock */
	tap(&k, 0, 0x04);
	tap(&k, 0x02, 0x04);         /* Shift undoes Caps Lock */
	tap(&k, 0, 0x39);
	tap(&k, 0, 0x04);
	assert_string_equal(k.out, "Aaa");
	assert_int_equal(k.km.caps_lock, 0);
}

static void test_several_keys_and_release_order(void **state)
{
	(void)state;
	struct hid_kbd_report a = { 0 }, b;
	const char *why;
	assert_int_equal(hid_kbd_parse(R(0x02, 0, 0x04, 0x05, 0, 0, 0, 0), 8, &b, &why), HID_KBD_OK);
	uint8_t codes[HID_KBD_CODES_MAX], newest;
	size_t n = hid_kbd_transition(&a, &b, codes, &newest);
	/* Shift make, a make, b make; the newest key is b */
	assert_int_equal(n, 3);
	assert_memory_equal(codes, R(0x2A, 0x1E, 0x30), 3);
	assert_int_equal(newest, 0x05);
	n = hid_kbd_transition(&b, &a, codes, &newest);
	assert_int_equal(n, 3);      /* Shift break, a break, b break */
	assert_memory_equal(codes, R(0xAA, 0x9E, 0xB0), 3);
	assert_int_equal(newest, 0);
	/* an extended key: E0 prefix on make and break */
	assert_int_equal(hid_kbd_parse(R(0x40, 0, 0x4F, 0, 0, 0, 0, 0), 8, &b, &why), HID_KBD_OK);
	n = hid_kbd_transition(&a, &b, codes, &newest);
	assert_memory_equal(codes, R(0xE0, 0x38, 0xE0, 0x4D), 4);   /* RAlt, Right */
	assert_int_equal(n, 4);
}

static void test_malformed_reports_are_refused(void **state)
{
	(void)state;
	struct hid_kbd_report r = { .mods = 0x55, .nkeys = 1, .keys = { 0x04 } };
	const struct hid_kbd_report keep = r;
	const char *why = NULL;
	for (size_t len = 0; len < 8; len++) {
		assert_int_equal(hid_kbd_parse(R(0, 0, 4, 0, 0, 0, 0, 0, 0), len, &r, &why), HID_KBD_MALFORMED);
		assert_string_equal(why, "truncated report");
	}
	assert_int_equal(hid_kbd_parse(R(0, 0, 4, 0, 0, 0, 0, 0, 0), 9, &r, &why), HID_KBD_MALFORMED);
	assert_string_equal(why, "oversized report");
	assert_int_equal(hid_kbd_parse(R(0, 0, 4, 4, 0, 0, 0, 0), 8, &r, &why), HID_KBD_MALFORMED);
	assert_string_equal(why, "key listed twice");
	assert_int_equal(hid_kbd_parse(R(0, 0, 0xE1, 0, 0, 0, 0, 0), 8, &r, &why), HID_KBD_MALFORMED);
	assert_string_equal(why, "modifier usage in a key slot");
	assert_int_equal(hid_kbd_parse(R(0, 0, 0xDE, 0, 0, 0, 0, 0), 8, &r, &why), HID_KBD_MALFORMED);
	assert_int_equal(hid_kbd_parse(R(0, 0, 0xFF, 0, 0, 0, 0, 0), 8, &r, &why), HID_KBD_MALFORMED);
	assert_string_equal(why, "reserved usage");
	assert_int_equal(hid_kbd_parse(R(0, 0, 1, 4, 0, 0, 0, 0), 8, &r, &why), HID_KBD_MALFORMED);
	assert_string_equal(why, "error usage mixed with keys");
	assert_int_equal(hid_kbd_parse(R(0, 0, 1, 1, 1, 1, 1, 2), 8, &r, &why), HID_KBD_MALFORMED);
	/* nothing was written for any of them */
	assert_memory_equal(&r, &keep, sizeof(r));
	assert_int_equal(hid_kbd_parse(R(0, 0, 1, 1, 1, 1, 1, 1), 8, &r, &why), HID_KBD_ROLLOVER);
	assert_memory_equal(&r, &keep, sizeof(r));
}

static void test_malformed_report_leaves_state_alone(void **state)
{
	(void)state;
	struct kbd k;
	kbd_init(&k);
	assert_int_equal(kbd_report(&k, R(0, 0, 0x04, 0, 0, 0, 0, 0), 8), HID_KBD_OK);
	/* a truncated release and a garbage report change nothing */
	assert_int_equal(kbd_report(&k, R(0, 0, 0), 3), HID_KBD_MALFORMED);
	assert_int_equal(kbd_report(&k, R(0, 0, 0x04, 0x04, 0, 0, 0, 0), 8), HID_KBD_MALFORMED);
	assert_int_equal(k.last.nkeys, 1);
	assert_int_equal(kbd_report(&k, R(0, 0, 0, 0, 0, 0, 0, 0), 8), HID_KBD_OK);
	assert_string_equal(k.out, "a");
}

static void test_keys_without_scancode_are_skipped(void **state)
{
	(void)state;
	struct kbd k;
	kbd_init(&k);
	tap(&k, 0, 0x46);            /* Print Screen: nothing */
	tap(&k, 0, 0x80);            /* Volume Up (beyond the boot range): nothing */
	uint8_t make[2];
	assert_int_equal(hid_kbd_make(0x46, make), 0);
	assert_int_equal(hid_kbd_make(0x52, make), 2);
	assert_memory_equal(make, R(0xE0, 0x48), 2);
	assert_string_equal(k.out, "");
}

/* Usages 0x31 (Backslash) and 0x32 (Non-US #) share set-1 code 0x2B: held
 * together they are one key, pressed once and released with the last. */
static void test_usages_sharing_a_code_are_one_key(void **state)
{
	(void)state;
	struct hid_kbd_report none = { 0 }, both, one;
	const char *why;
	uint8_t codes[HID_KBD_CODES_MAX], newest;
	assert_int_equal(hid_kbd_parse(R(0, 0, 0x31, 0x32, 0, 0, 0, 0), 8, &both, &why), HID_KBD_OK);
	assert_int_equal(hid_kbd_parse(R(0, 0, 0x31, 0, 0, 0, 0, 0), 8, &one, &why), HID_KBD_OK);
	size_t n = hid_kbd_transition(&none, &both, codes, &newest);
	assert_int_equal(n, 1);
	assert_int_equal(codes[0], 0x2B);
	assert_int_equal(newest, 0x31);
	n = hid_kbd_transition(&both, &one, codes, &newest);   /* 0x32 up, 0x31 still down */
	assert_int_equal(n, 0);
	n = hid_kbd_transition(&one, &both, codes, &newest);   /* 0x32 down again: held already */
	assert_int_equal(n, 0);
	assert_int_equal(newest, 0);
	n = hid_kbd_transition(&both, &none, codes, &newest);
	assert_int_equal(n, 1);
	assert_int_equal(codes[0], 0xAB);
	struct kbd k;
	kbd_init(&k);
	assert_int_equal(kbd_report(&k, R(0, 0, 0x31, 0x32, 0, 0, 0, 0), 8), HID_KBD_OK);
	assert_int_equal(kbd_report(&k, R(0, 0, 0x32, 0, 0, 0, 0, 0), 8), HID_KBD_OK);
	assert_int_equal(kbd_report(&k, R(0, 0, 0, 0, 0, 0, 0, 0), 8), HID_KBD_OK);
	assert_string_equal(k.out, "\\");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_letters_digits_enter),
		cmocka_unit_test(test_shift_ctrl_and_symbols),
		cmocka_unit_test(test_navigation_keys_are_escape_sequences),
		cmocka_unit_test(test_caps_lock_toggles_once_per_press),
		cmocka_unit_test(test_several_keys_and_release_order),
		cmocka_unit_test(test_malformed_reports_are_refused),
		cmocka_unit_test(test_malformed_report_leaves_state_alone),
		cmocka_unit_test(test_keys_without_scancode_are_skipped),
		cmocka_unit_test(test_usages_sharing_a_code_are_one_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
