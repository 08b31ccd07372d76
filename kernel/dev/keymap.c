/* SPDX-License-Identifier: BSD-2-Clause */
/* keymap.c — scancode set 1 decoder, US layout (see keymap.h). */
#include <stddef.h>
#include <dev/keymap.h>

#define SC_LCTRL   0x1D
#define SC_LSHIFT  0x2A
#define SC_RSHIFT  0x36
#define SC_CAPS    0x3A
#define SC_NUMLOCK 0x45
#define SC_KP_FIRST 0x47   /* keypad 7 .. keypad . */
#define SC_KP_LAST  0x53

/* Make code -> character without and with Shift; 0 = no character. */
static const char keys_plain[0x59] = {
	[0x01] = 0x1B, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', 0x7F,
	[0x0F] = '\t', 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\n',
	[0x1E] = 'a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`',
	[0x2B] = '\\', 'z', 'x', 'c', 'v', 'b', 'n', 'm', ',', '.', '/',
	[0x37] = '*', [0x39] = ' ', [0x4A] = '-', [0x4E] = '+', [0x56] = '\\',
};
static const char keys_shift[0x59] = {
	[0x01] = 0x1B, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+', 0x7F,
	[0x0F] = '\t', 'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\n',
	[0x1E] = 'A', 'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~',
	[0x2B] = '|', 'Z', 'X', 'C', 'V', 'B', 'N', 'M', '<', '>', '?',
	[0x37] = '*', [0x39] = ' ', [0x4A] = '-', [0x4E] = '+', [0x56] = '|',
};

/* Keypad 7..'.' with Num Lock on (0 for the '-', '5' and '+' slots that
 * the tables above or nothing cover). */
static const char keypad_digits[SC_KP_LAST - SC_KP_FIRST + 1] = {
	'7', '8', '9', 0, '4', '5', '6', 0, '1', '2', '3', '0', '.',
};

/* Navigation sequence (after ESC [) of an extended or Num-Lock-off keypad
 * make code, NULL if the key is not a navigation key. */
static const char *navigation_seq(uint8_t code)
{
	switch (code) {
	case 0x47: return "H";
	case 0x48: return "A";
	case 0x49: return "5~";
	case 0x4B: return "D";
	case 0x4D: return "C";
	case 0x4F: return "F";
	case 0x50: return "B";
	case 0x51: return "6~";
	case 0x52: return "2~";
	case 0x53: return "3~";
	default: return NULL;
	}
}

/* KEYMAP_VIEW_BACK/FORWARD for Page Up/Down with Shift held, else 0. */
static int view_key(const struct keymap_state *st, uint8_t key)
{
	if (!st->shift_left && !st->shift_right)
		return 0;
	return key == 0x49 ? KEYMAP_VIEW_BACK : key == 0x51 ? KEYMAP_VIEW_FORWARD : 0;
}

/* ESC [ seq into out; returns its length. */
static int emit_csi(const char *seq, char out[KEYMAP_OUT_MAX])
{
	int n = 0;
	out[n++] = 0x1B;
	out[n++] = '[';
	while (*seq && n < KEYMAP_OUT_MAX)
		out[n++] = *seq++;
	return n;
}

/* See keymap.h. */
void keymap_init(struct keymap_state *st)
{
	*st = (struct keymap_state){ .num_lock = 1 };
}

/* Shift, Ctrl, Caps Lock and Num Lock bookkeeping for a non-extended
 * code; returns 1 if the code was one of them. */
static int track_modifier(struct keymap_state *st, uint8_t key, int released)
{
	switch (key) {
	case SC_LSHIFT: st->shift_left = !released; return 1;
	case SC_RSHIFT: st->shift_right = !released; return 1;
	case SC_LCTRL:  st->ctrl_left = !released; return 1;
	case SC_CAPS:
		if (!released && !st->caps_held)   /* typematic repeats do not toggle */
			st->caps_lock ^= 1;
		st->caps_held = !released;
		return 1;
	case SC_NUMLOCK:
		if (!released && !st->num_held)
			st->num_lock ^= 1;
		st->num_held = !released;
		return 1;
	default:
		return 0;
	}
}

/* A key after the 0xE0 prefix. */
static int feed_extended(struct keymap_state *st, uint8_t key, int released,
			 char out[KEYMAP_OUT_MAX])
{
	if (key == SC_LCTRL) {
		st->ctrl_right = !released;
		return 0;
	}
	if (released)
		return 0;
	if (key == 0x1C) {           /* keypad Enter */
		out[0] = '\n';
		return 1;
	}
	if (key == 0x35) {           /* keypad / */
		out[0] = '/';
		return 1;
	}
	int view = view_key(st, key);   /* Shift held: a fake Shift release (E0 AA) changed nothing */
	if (view)
		return view;
	const char *seq = navigation_seq(key);
	return seq ? emit_csi(seq, out) : 0;   /* fake shifts, GUI keys: nothing */
}

/* See keymap.h. */
int keymap_feed(struct keymap_state *st, uint8_t code, char out[KEYMAP_OUT_MAX])
{
	if (st->pause_skip) {
		st->pause_skip--;
		return 0;
	}
	if (code == 0xE0) {
		st->extended = 1;
		return 0;
	}
	if (code == 0xE1) {
		st->pause_skip = 2;
		return 0;
	}
	uint8_t key = code & 0x7F;
	int released = (code & 0x80) != 0;
	if (st->extended) {
		st->extended = 0;
		return feed_extended(st, key, released, out);
	}
	if (track_modifier(st, key, released) || released)
		return 0;

	if (key >= SC_KP_FIRST && key <= SC_KP_LAST && keypad_digits[key - SC_KP_FIRST]) {
		if (st->num_lock) {
			out[0] = keypad_digits[key - SC_KP_FIRST];
			return 1;
		}
		int view = view_key(st, key);
		if (view)
			return view;
		const char *seq = navigation_seq(key);
		return seq ? emit_csi(seq, out) : 0;
	}
	if (key >= sizeof(keys_plain) || !keys_plain[key])
		return 0;

	char c = keys_plain[key];
	int shift = st->shift_left || st->shift_right;
	if (c >= 'a' && c <= 'z')
		shift ^= st->caps_lock;
	if (shift)
		c = keys_shift[key];
	if (st->ctrl_left || st->ctrl_right) {
		if (c >= 'a' && c <= 'z')
			c -= 'a' - 'A';
		if (c >= '@' && c <= '_')    /* ^@ .. ^_ */
			c &= 0x1F;
	}
	out[0] = c;
	return 1;
}
