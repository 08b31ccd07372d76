/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fbcon_grid.h — the framebuffer console's text (kernel/dev/fbcon.c): a
 * ring of lines holding the live screen and, above it, the scrollback
 * (the newest lines that scrolled off its top, at most lines - rows of
 * them), and the view: how many lines back from the live screen the
 * screen shows (0: the live screen). A cell is a glyph index.
 *
 * Scrolling moves no memory: the live screen's first line advances around
 * the ring and the line that comes free (the oldest kept) is blanked. While
 * the view is back, it stays on the same text as lines scroll in below it,
 * until that text is the oldest kept.
 *
 * Portable C, host-tested (tests/unit/test_fbcon_grid.c); no locks: the
 * console holds its lock around every call.
 */
#ifndef MOSAIC_DEV_FBCON_GRID_H
#define MOSAIC_DEV_FBCON_GRID_H
#include <stdint.h>

typedef uint16_t fbcon_cell;

struct fbcon_grid {
	fbcon_cell *cells;       /* lines x cols */
	uint32_t cols, rows;     /* the live screen */
	uint32_t lines;          /* the ring: rows + the scrollback's capacity */
	uint32_t top;            /* ring line of the live screen's first row */
	uint32_t kept;           /* lines of scrollback held, <= lines - rows */
	uint32_t view;           /* lines back the screen shows, <= kept */
	fbcon_cell blank;
};

/* Sets up g on cells (lines x cols of them, lines >= rows >= 1, cols >=
 * 1): all blank, no scrollback, the live view. */
void fbcon_grid_init(struct fbcon_grid *g, fbcon_cell *cells, uint32_t cols, uint32_t rows, uint32_t lines,
		     fbcon_cell blank);
/* Row r (< rows) of the live screen, to read or write. */
fbcon_cell *fbcon_grid_row(const struct fbcon_grid *g, uint32_t r);
/* Row r (< rows) of what the screen shows: the live row r when the view
 * is live, else the line view lines above it. */
const fbcon_cell *fbcon_grid_shown(const struct fbcon_grid *g, uint32_t r);
/* The live screen moves up a line: its first row joins the scrollback
 * (the oldest kept line is dropped when the ring is full), a blank last
 * row appears; a view that is back stays on its text while it is kept. */
void fbcon_grid_scroll(struct fbcon_grid *g);
/* Moves the view n lines back (n > 0, toward older text) or forward
 * (n < 0), within 0..kept. Returns 1 when the view changed. */
int fbcon_grid_move_view(struct fbcon_grid *g, int32_t n);
#endif
