/* SPDX-License-Identifier: BSD-2-Clause */
/* fbcon_grid.c — the console's ring of lines: screen, scrollback and view
 * (see fbcon_grid.h). */
#include <dev/fbcon_grid.h>

/* The cells of ring line l. */
static fbcon_cell *ring_line(const struct fbcon_grid *g, uint32_t l)
{
	return g->cells + (uint64_t)(l % g->lines) * g->cols;
}

/* See fbcon_grid.h. */
void fbcon_grid_init(struct fbcon_grid *g, fbcon_cell *cells, uint32_t cols, uint32_t rows, uint32_t lines,
		     fbcon_cell blank)
{
	*g = (struct fbcon_grid){ .cells = cells, .cols = cols, .rows = rows, .lines = lines, .blank = blank };
	for (uint64_t i = 0; i < (uint64_t)lines * cols; i++)
		cells[i] = blank;
}

/* See fbcon_grid.h. */
fbcon_cell *fbcon_grid_row(const struct fbcon_grid *g, uint32_t r)
{
	return ring_line(g, g->top + r);
}

/* See fbcon_grid.h. The line view lines above live row r is ring line
 * top + r - view, taken modulo the ring. */
const fbcon_cell *fbcon_grid_shown(const struct fbcon_grid *g, uint32_t r)
{
	return ring_line(g, g->top + g->lines + r - g->view);
}

/* See fbcon_grid.h. */
void fbcon_grid_scroll(struct fbcon_grid *g)
{
	g->top = (g->top + 1) % g->lines;
	if (g->kept < g->lines - g->rows)
		g->kept++;
	if (g->view && g->view < g->kept)
		g->view++;         /* the same text, one line further back */
	fbcon_cell *last = fbcon_grid_row(g, g->rows - 1);   /* the oldest line, or the old first row */
	for (uint32_t c = 0; c < g->cols; c++)
		last[c] = g->blank;
}

/* See fbcon_grid.h. */
int fbcon_grid_move_view(struct fbcon_grid *g, int32_t n)
{
	int64_t want = (int64_t)g->view + n;
	uint32_t view = want < 0 ? 0 : want > g->kept ? g->kept : (uint32_t)want;
	if (view == g->view)
		return 0;
	g->view = view;
	return 1;
}
