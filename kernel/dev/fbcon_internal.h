/* SPDX-License-Identifier: BSD-2-Clause */
/* fbcon_internal.h — what the framebuffer console (fbcon.c) shares with
 * its thread and status line (fbcon_status.c). */
#ifndef MOSAIC_DEV_FBCON_INTERNAL_H
#define MOSAIC_DEV_FBCON_INTERNAL_H
#include <stdint.h>
#include <mosaic/boot_info.h>
#include <dev/psf.h>

#define FBCON_FLUSH_NS  30000000ull    /* the thread draws new text at most this often */
#define FBCON_STATUS_NS 500000000ull   /* and the status line every half second */
/* Lines of scrollback kept above the screen, 2 bytes a cell: 1 MiB at 128
 * columns (1024x768, 8x16 font), 1.3 MiB at 160 (1920x1080, 12x24), 1.9 MiB
 * at 240 (3840x2160, 16x32). */
#define FBCON_SCROLLBACK_LINES 4096u

/* The screen; set once by fbcon_init(), read-only afterwards. */
struct fbcon {
	int ready;
	struct psf_font font;
	uint32_t *fb;                /* pixels, pitch_px apart per scan line */
	uint32_t pitch_px;
	struct boot_framebuffer format;
	uint32_t px_fg, px_bg;
	uint32_t cols, rows;         /* whole screen, in characters */
	uint32_t status_row;         /* UINT32_MAX: no status line */
};
extern struct fbcon fbcon;

/* Pixel value of an RGB colour in the framebuffer's format. */
uint32_t fbcon_color(uint8_t r, uint8_t g, uint8_t b);
/* Draw glyph at character cell (c, r) in colours fg/bg. No lock: callers
 * own the cells they draw (the text area or the status row). */
void fbcon_draw_glyph(uint32_t c, uint32_t r, uint32_t glyph, uint32_t fg, uint32_t bg);
/* From now on writes only mark the grid; fbcon_flush_deferred() draws. */
void fbcon_set_deferred(void);
/* 1 when text changed since the last deferred flush (lock-free read). */
int fbcon_pending(void);
/* The thread's flush: copy changed rows under the lock, draw outside. */
void fbcon_flush_deferred(void);
/* How many lines back the screen shows (0: live) and, in *kept, how many
 * scrollback lines are kept. Any context; no lock. */
uint32_t fbcon_view_back(uint32_t *kept);
#endif
