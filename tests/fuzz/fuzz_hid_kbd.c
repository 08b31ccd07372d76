/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the HID boot keyboard report parser and its scancode
 * translation (kernel/dev/usb/hid_kbd.c): each report's verdict against a
 * reference model of the rules, and for accepted reports a round trip:
 * the set of keys held after applying the emitted make and break codes to
 * the previous state equals the keys and modifiers of the new report. */
#include <tests/fuzz/fuzz.h>
#include <dev/usb/hid_kbd.h>

/* Reference: the verdict of one report (see hid_kbd.h). */
static enum hid_kbd_verdict model_verdict(const uint8_t *b, size_t len)
{
	if (len != 8)
		return HID_KBD_MALFORMED;
	int err = 0, keys = 0;
	for (int i = 2; i < 8; i++) {
		if (b[i] == 0)
			continue;
		if (b[i] <= 3) {
			err++;
			continue;
		}
		if (b[i] >= 0xDE)
			return HID_KBD_MALFORMED;
		for (int j = 2; j < i; j++)
			if (b[j] == b[i])
				return HID_KBD_MALFORMED;
		keys++;
	}
	if (err == 6 && b[2] == 1 && b[3] == 1 && b[4] == 1 && b[5] == 1 && b[6] == 1 && b[7] == 1)
		return HID_KBD_ROLLOVER;
	return err ? HID_KBD_MALFORMED : HID_KBD_OK;
}

/* Held scancodes (0x000..0x17F: 0x100 marks E0) of a state. */
static void held_of(const struct hid_kbd_report *r, uint8_t held[0x180])
{
	memset(held, 0, 0x180);
	for (int b = 0; b < 8; b++) {
		if (!(r->mods & (1u << b)))
			continue;
		static const uint16_t mod[8] = { 0x1D, 0x2A, 0x38, 0x15B, 0x11D, 0x36, 0x138, 0x15C };
		held[mod[b]] = 1;
	}
	for (int i = 0; i < r->nkeys; i++) {
		uint8_t make[2];
		size_t n = hid_kbd_make(r->keys[i], make);
		if (n)
			held[n == 2 ? 0x100 | make[1] : make[0]] = 1;
	}
}

static struct hid_kbd_report prev;

static void fuzz_one(struct fuzz *f)
{
	static const uint8_t interesting[] = { 0, 0, 0, 1, 2, 3, 4, 0x1D, 0x28, 0x39, 0x46, 0x4F, 0x52,
					       0x58, 0x65, 0x66, 0x80, 0xDD, 0xDE, 0xE0, 0xE7, 0xE8, 0xFF };
	uint8_t b[12];
	size_t len = fuzz_below(f, 4) ? 8 : fuzz_below(f, 13);
	for (size_t i = 0; i < len; i++)
		b[i] = fuzz_below(f, 3) ? interesting[fuzz_below(f, sizeof(interesting))]
					: (uint8_t)fuzz_u64(f);
	if (fuzz_below(f, 50) == 0 && len == 8)
		memset(b + 2, 1, 6);
	if (f->iteration == 0)   /* each libFuzzer input starts with no key held */
		memset(&prev, 0, sizeof(prev));
	struct hid_kbd_report cur = { .mods = 0xEE, .nkeys = 0xEE };
	const struct hid_kbd_report untouched = cur;
	const char *why = NULL;
	enum hid_kbd_verdict v = hid_kbd_parse(b, len, &cur, &why), want = model_verdict(b, len);
	if (v != want || !why)
		fuzz_fail(f, "verdict %d, model %d (len %zu)", v, want, len);
	if (v != HID_KBD_OK) {
		if (memcmp(&cur, &untouched, sizeof(cur)))
			fuzz_fail(f, "a refused report changed the output");
		return;
	}
	if (cur.mods != b[0] || cur.nkeys > 6)
		fuzz_fail(f, "modifiers or key count wrong");
	for (int i = 0, k = 0; i < 6; i++)
		if (b[2 + i] && cur.keys[k++] != b[2 + i])
			fuzz_fail(f, "key %d out of order", k);

	uint8_t held[0x180], want_held[0x180], codes[HID_KBD_CODES_MAX], newest;
	held_of(&prev, held);
	size_t n = hid_kbd_transition(&prev, &cur, codes, &newest);
	if (n > HID_KBD_CODES_MAX)
		fuzz_fail(f, "%zu codes", n);
	for (size_t i = 0; i < n; i++) {
		int ext = codes[i] == 0xE0;
		if (ext && ++i == n)
			fuzz_fail(f, "E0 prefix at the end");
		unsigned code = (ext ? 0x100u : 0) | (codes[i] & 0x7F);
		int make = !(codes[i] & 0x80);
		if (held[code] == make)
			fuzz_fail(f, "code 0x%x %s twice", code, make ? "pressed" : "released");
		held[code] = (uint8_t)make;
	}
	held_of(&cur, want_held);
	if (memcmp(held, want_held, sizeof(held)))
		fuzz_fail(f, "held keys after the codes differ from the report");
	if (newest) {
		int found = 0;
		for (int i = 0; i < cur.nkeys; i++)
			found |= cur.keys[i] == newest;
		uint8_t mk[2];
		if (!found || !hid_kbd_make(newest, mk))
			fuzz_fail(f, "newest key 0x%x not a new mapped key", newest);
	}
	prev = cur;
}

FUZZ_MAIN("hid_kbd")
