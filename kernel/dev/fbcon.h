/* SPDX-License-Identifier: BSD-2-Clause */
/* fbcon.h — text console on the GOP framebuffer with a PSF bitmap font. */
#ifndef MOSAIC_FBCON_H
#define MOSAIC_FBCON_H
#include <mosaic/boot_info.h>
/* Map the framebuffer, clear it and register as a console sink. Does
 * nothing (and says so) when fb->format is BOOT_FB_NONE. Boot-time. */
void fbcon_init(const struct boot_framebuffer *fb);
/* Start the `fbcon` thread, which from then on draws new text (at most
 * every 30 ms) and the status line (twice a second). Needs the scheduler;
 * without it (sched=off) every write keeps drawing at once. */
void fbcon_start_thread(void);
/* From the boot CPU's timer tick (interrupts off): wakes the thread when
 * text is waiting or the status line is due. */
void fbcon_tick(void);
/* The keyboards' Shift-Page Up (back != 0) and Shift-Page Down: the screen
 * shows a page further back in the scrollback, or forward toward the live
 * screen. Any context but an NMI. */
void fbcon_view_page(int back);
/* The screen shows the live text again (a key that types was pressed).
 * Any context but an NMI. */
void fbcon_view_live(void);
#endif
