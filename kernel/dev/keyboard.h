/* SPDX-License-Identifier: BSD-2-Clause */
/* keyboard.h — PS/2 keyboard (i8042) input into the console. */
#ifndef MOSAIC_KEYBOARD_H
#define MOSAIC_KEYBOARD_H
/* Probe the i8042, route IRQ1; key presses go to console_input_push().
 * Absent controller: prints a note and returns. Needs the IOAPIC. */
void ps2kbd_init(void);
#endif
