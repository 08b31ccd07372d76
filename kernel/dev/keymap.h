/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * keymap.h — PC scancode set 1 (what an i8042 with translation delivers) to
 * the bytes a terminal would send, US layout.
 *
 * Printable keys give ASCII (Shift and Caps Lock honoured), Ctrl+letter the
 * control byte (^C = 0x03), Enter '\n', Backspace 0x7F, Tab '\t', Esc 0x1B;
 * arrows ESC[A..D, Home ESC[H, End ESC[F, Insert ESC[2~, Delete ESC[3~,
 * Page Up/Down ESC[5~/ESC[6~; Shift-Page Up/Down give no bytes but
 * KEYMAP_VIEW_BACK/FORWARD (the console's scrollback, as on a BSD or
 * Linux console). The keypad gives digits with Num Lock on
 * (the default) and navigation keys with it off. Function keys and Pause
 * give nothing. Pure C, no kernel dependencies; no locks (one decoder per
 * keyboard, fed from its interrupt handler).
 */
#ifndef MOSAIC_DEV_KEYMAP_H
#define MOSAIC_DEV_KEYMAP_H
#include <stdint.h>

#define KEYMAP_OUT_MAX 4   /* longest output of one scancode: ESC [ 3 ~ */
#define KEYMAP_VIEW_BACK    (-1)   /* Shift-Page Up */
#define KEYMAP_VIEW_FORWARD (-2)   /* Shift-Page Down */

struct keymap_state {
	uint8_t shift_left, shift_right, ctrl_left, ctrl_right;
	uint8_t caps_lock, caps_held, num_lock, num_held;
	uint8_t extended;        /* last byte was the 0xE0 prefix */
	uint8_t pause_skip;      /* bytes of a 0xE1 (Pause) sequence still to drop */
};

/* Start state: nothing held, Caps Lock off, Num Lock on. */
void keymap_init(struct keymap_state *st);
/* Feed one scancode byte; writes up to KEYMAP_OUT_MAX bytes to out and
 * returns how many (0 for prefixes, releases and modifier keys), or
 * KEYMAP_VIEW_BACK/FORWARD (nothing written) for Shift-Page Up/Down. */
int keymap_feed(struct keymap_state *st, uint8_t code, char out[KEYMAP_OUT_MAX]);
#endif
