/* SPDX-License-Identifier: BSD-2-Clause */
/* fbcon.c — text console on the UEFI GOP framebuffer.
 *
 * The text lives in a ring of lines of glyph indexes (fbcon_grid.h) that
 * also keeps the scrollback: the last FBCON_SCROLLBACK_LINES lines that
 * scrolled off the top, which Shift-Page Up/Down bring back into view
 * (fbcon_view_page()). A second grid remembers what each screen cell
 * shows (glyph index + cursor flag); only cells that differ are drawn. The
 * framebuffer is never read back (slow on real hardware, where it is
 * write-combining) and a scroll costs the changed cells only.
 *
 * Drawing is done by the `fbcon` thread once it runs (fbcon_status.c):
 * a write only updates the grid under fbcon_lock, and the thread copies
 * the changed rows out under the same lock and draws them with no lock
 * held, at most every FBCON_FLUSH_NS of guest time. So a printk never spends
 * milliseconds drawing with interrupts off, and many lines in a row cost
 * one redraw. Before the thread runs, and from the moment a panic stops
 * the other CPUs, every write is drawn at once. The bottom character row
 * can be the status line (fbcon_status.c), which only the thread draws. */
#include <dev/fbcon.h>
#include <lib/cmdline.h>
#include <kern/console.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <arch/x86_64/spinlock.h>
#include <lib/string.h>
#include <dev/psf.h>
#include <dev/fbcon_internal.h>
#include <dev/fbcon_grid.h>
#include <lib/sysctl.h>

#define CELL_GLYPH   0xFFFFu
#define CELL_CURSOR  0x10000u
#define CSI_MAX_PARAMS 4
#define CSI_MAX_VALUE  9999
#define TAB_WIDTH    8

extern const uint8_t _binary_font16_psf_start[], _binary_font16_psf_end[];
extern const uint8_t _binary_font24_psf_start[], _binary_font24_psf_end[];
extern const uint8_t _binary_font32_psf_start[], _binary_font32_psf_end[];

enum parse_state { ST_TEXT, ST_ESC, ST_CSI };

struct fbcon fbcon;              /* the screen, shared with fbcon_status.c */
static uint32_t cols, rows;      /* the text area (the status row excluded) */
static struct fbcon_grid grid;   /* the text and its scrollback */
static uint32_t *shown;          /* rows x cols in screen order: what is drawn */
static uint32_t *snap;           /* rows x cols: the thread's copy to draw from */
static uint32_t cx, cy;          /* cx == cols: wrap pending */
static uint32_t blank;           /* cell value of a space */
static uint32_t dirty_lo, dirty_hi;   /* screen rows to compare; lo > hi: none */
static uint32_t drawn_cursor_row;
/* Guards the grid (text, view, cx, cy, dirty range) between writers (who
 * also hold the console lock), the keyboards that move the view, and the
 * thread's copy. */
static struct spinlock fbcon_lock = SPINLOCK_INIT("fbcon");
static volatile int deferred;    /* the thread draws; writes only mark */
static volatile int pending;     /* rows changed since the thread's copy */
static int panic_mode;           /* drawing synchronously again after a panic */

static enum parse_state state;
static uint32_t csi_params[CSI_MAX_PARAMS];
static int csi_count;            /* parameters started */
static int csi_ignore;           /* private or intermediate bytes seen */
static uint32_t utf8_cp;
static int utf8_need;            /* continuation bytes still expected */

/* One 8-bit colour component placed into a bitmask pixel field. */
static uint32_t mask_component(uint32_t mask, uint8_t v)
{
	if (!mask)
		return 0;
	int shift = __builtin_ctz(mask), bits = 0;
	while (bits < 32 - shift && (mask >> (shift + bits)) & 1)
		bits++;                  /* fields are contiguous runs of ones */
	uint32_t field = bits >= 8 ? (uint32_t)v << (bits - 8) : (uint32_t)v >> (8 - bits);
	return (field << shift) & mask;
}

/* See fbcon_internal.h. */
uint32_t fbcon_color(uint8_t r, uint8_t g, uint8_t b)
{
	const struct boot_framebuffer *f = &fbcon.format;
	switch (f->format) {
	case BOOT_FB_RGBX:
		return r | (uint32_t)g << 8 | (uint32_t)b << 16;
	case BOOT_FB_BGRX:
		return b | (uint32_t)g << 8 | (uint32_t)r << 16;
	default:
		return mask_component(f->red_mask, r) | mask_component(f->green_mask, g) |
		       mask_component(f->blue_mask, b);
	}
}

/* Widen the range of rows flush() compares to include r. */
static void mark_dirty(uint32_t r)
{
	if (r < dirty_lo)
		dirty_lo = r;
	if (r > dirty_hi || dirty_hi == UINT32_MAX)
		dirty_hi = r;
}

/* Blank columns [from, to) of row r. */
static void fill_cells(uint32_t r, uint32_t from, uint32_t to)
{
	fbcon_cell *row = fbcon_grid_row(&grid, r);
	for (uint32_t c = from; c < to; c++)
		row[c] = grid.blank;
	mark_dirty(r);
}

/* See fbcon_internal.h. Any context; draws only pixels of cell (c, r). */
void fbcon_draw_glyph(uint32_t c, uint32_t r, uint32_t glyph, uint32_t fg, uint32_t bg)
{
	const struct psf_font *font = &fbcon.font;
	const uint8_t *bm = psf_bitmap(font, glyph);
	uint32_t *p = fbcon.fb + (size_t)r * font->height * fbcon.pitch_px + (size_t)c * font->width;
	for (uint32_t y = 0; y < font->height; y++, bm += font->row_bytes, p += fbcon.pitch_px)
		for (uint32_t x = 0; x < font->width; x++)
			p[x] = bm[x >> 3] & (0x80 >> (x & 7)) ? fg : bg;
}

/* Draw one text cell (inverted when it carries the cursor). */
static void draw_cell(uint32_t c, uint32_t r, uint32_t cell)
{
	if (cell & CELL_CURSOR)
		fbcon_draw_glyph(c, r, cell & CELL_GLYPH, fbcon.px_bg, fbcon.px_fg);
	else
		fbcon_draw_glyph(c, r, cell & CELL_GLYPH, fbcon.px_fg, fbcon.px_bg);
}

/* Draw rows lo..hi of grid (screen order, cursor flags included) where
 * they differ from what is shown. */
static void draw_rows(const uint32_t *grid, uint32_t lo, uint32_t hi)
{
	for (uint32_t r = lo; r <= hi && r < rows; r++) {
		const uint32_t *want = grid + (size_t)r * cols;
		uint32_t *have = shown + (size_t)r * cols;
		for (uint32_t c = 0; c < cols; c++) {
			if (have[c] != want[c]) {
				draw_cell(c, r, want[c]);
				have[c] = want[c];
			}
		}
	}
}

/* Copy the dirty rows of what the screen shows, with the cursor when the
 * view is live, into snap (screen order); returns the row range in
 * *lo..*hi (lo > hi: nothing). A view that is back shows every row moved
 * by what scrolled in. Caller holds fbcon_lock. */
static void copy_dirty(uint32_t *lo, uint32_t *hi)
{
	uint32_t ccol = cx < cols ? cx : cols - 1;
	mark_dirty(cy);
	mark_dirty(drawn_cursor_row);
	if (grid.view) {
		dirty_lo = 0;
		dirty_hi = rows - 1;
	}
	*lo = dirty_lo;
	*hi = dirty_hi;
	for (uint32_t r = dirty_lo; r <= dirty_hi && r < rows; r++) {
		uint32_t *dst = snap + (size_t)r * cols;
		const fbcon_cell *src = fbcon_grid_shown(&grid, r);
		for (uint32_t c = 0; c < cols; c++)
			dst[c] = src[c];
		if (r == cy && !grid.view)
			dst[ccol] |= CELL_CURSOR;
	}
	drawn_cursor_row = cy;
	dirty_lo = UINT32_MAX;
	dirty_hi = UINT32_MAX;
}

/* Bring the screen up to date now. Caller holds fbcon_lock. */
static void flush(void)
{
	uint32_t lo, hi;
	copy_dirty(&lo, &hi);
	draw_rows(snap, lo, hi);
}

/* See fbcon_internal.h. The fbcon thread: copy under the lock, draw
 * without it. */
void fbcon_flush_deferred(void)
{
	uint32_t lo, hi;
	uint64_t flags = spin_lock_irqsave(&fbcon_lock);
	pending = 0;
	copy_dirty(&lo, &hi);
	spin_unlock_irqrestore(&fbcon_lock, flags);
	draw_rows(snap, lo, hi);
}

/* See fbcon_internal.h. */
void fbcon_set_deferred(void)
{
	deferred = 1;
}

/* See fbcon_internal.h. */
int fbcon_pending(void)
{
	return pending;
}

/* Column 0 of the next row, scrolling at the bottom (the first row goes
 * to the scrollback). */
static void newline(void)
{
	cx = 0;
	if (cy + 1 < rows) {
		cy++;
		return;
	}
	fbcon_grid_scroll(&grid);
	dirty_lo = 0;
	dirty_hi = rows - 1;
}

/* Store glyph g at the cursor and advance, wrapping a pending line first. */
static void put_glyph(uint32_t g)
{
	if (cx >= cols)
		newline();
	fbcon_grid_row(&grid, cy)[cx++] = (fbcon_cell)g;
	mark_dirty(cy);
}

/* Parameter i of the current sequence; missing or 0 means dflt. */
static uint32_t csi_param(int i, uint32_t dflt)
{
	return i < csi_count && csi_params[i] ? csi_params[i] : dflt;
}

/* ESC [ params final: the sequences the shell's line editor emits, plus
 * cursor up/down and positioning; everything else is ignored. */
static void csi_execute(char final)
{
	uint32_t n = csi_param(0, 1), mode = csi_param(0, 0);
	if (cx >= cols)
		cx = cols - 1;
	switch (final) {
	case 'A': cy = n > cy ? 0 : cy - n; break;
	case 'B': cy = cy + n >= rows ? rows - 1 : cy + n; break;
	case 'C': cx = cx + n >= cols ? cols - 1 : cx + n; break;
	case 'D': cx = n > cx ? 0 : cx - n; break;
	case 'H':
	case 'f':
		cy = csi_param(0, 1) > rows ? rows - 1 : csi_param(0, 1) - 1;
		cx = csi_param(1, 1) > cols ? cols - 1 : csi_param(1, 1) - 1;
		break;
	case 'K':
		if (mode == 0)
			fill_cells(cy, cx, cols);
		else if (mode == 1)
			fill_cells(cy, 0, cx + 1);
		else if (mode == 2)
			fill_cells(cy, 0, cols);
		break;
	case 'J':
		if (mode == 0) {
			fill_cells(cy, cx, cols);
			for (uint32_t r = cy + 1; r < rows; r++)
				fill_cells(r, 0, cols);
		} else if (mode == 1) {
			for (uint32_t r = 0; r < cy; r++)
				fill_cells(r, 0, cols);
			fill_cells(cy, 0, cx + 1);
		} else {
			for (uint32_t r = 0; r < rows; r++)
				fill_cells(r, 0, cols);
		}
		break;
	default:
		break;
	}
}

/* Control characters of plain text. */
static void control(char c)
{
	switch (c) {
	case '\n':
		newline();
		break;
	case '\r':
		cx = 0;
		break;
	case '\b':
		if (cx >= cols)
			cx = cols - 1;
		if (cx > 0)
			cx--;
		break;
	case '\t':
		do
			put_glyph(blank);
		while (cx < cols && cx % TAB_WIDTH);
		break;
	default:
		break;   /* BEL and the rest: nothing to show */
	}
}

/* One byte of UTF-8 text: completes a code point or waits for more.
 * Malformed input shows the font's replacement glyph. */
static void text_byte(uint8_t b)
{
	if (utf8_need && (b & 0xC0) == 0x80) {
		utf8_cp = utf8_cp << 6 | (b & 0x3F);
		if (--utf8_need == 0)
			put_glyph(psf_glyph(&fbcon.font, utf8_cp));
		return;
	}
	if (utf8_need) {                 /* sequence cut short */
		utf8_need = 0;
		put_glyph(fbcon.font.fallback);
	}
	if (b < 0x80)
		put_glyph(psf_glyph(&fbcon.font, b));
	else if ((b & 0xE0) == 0xC0) { utf8_cp = b & 0x1F; utf8_need = 1; }
	else if ((b & 0xF0) == 0xE0) { utf8_cp = b & 0x0F; utf8_need = 2; }
	else if ((b & 0xF8) == 0xF0) { utf8_cp = b & 0x07; utf8_need = 3; }
	else put_glyph(fbcon.font.fallback);
}

/* One output byte through the escape-sequence parser. */
static void feed(char ch)
{
	uint8_t c = (uint8_t)ch;
	if (c == 0x1B) {
		state = ST_ESC;
		return;
	}
	switch (state) {
	case ST_ESC:
		state = ST_TEXT;
		if (c == '[') {
			state = ST_CSI;
			csi_count = 0;
			csi_ignore = 0;
			csi_params[0] = 0;
		}
		return;   /* other two-byte escapes are ignored */
	case ST_CSI:
		if (c >= '0' && c <= '9') {
			if (csi_count == 0)
				csi_count = 1;
			uint32_t *p = &csi_params[csi_count - 1];
			*p = *p * 10 + (c - '0') > CSI_MAX_VALUE ? CSI_MAX_VALUE : *p * 10 + (c - '0');
		} else if (c == ';') {
			if (csi_count == 0)
				csi_count = 1;
			if (csi_count < CSI_MAX_PARAMS)
				csi_params[csi_count++] = 0;
			else
				csi_ignore = 1;
		} else if (c >= 0x20 && c <= 0x3F) {
			csi_ignore = 1;          /* private markers, intermediates */
		} else if (c >= 0x40 && c <= 0x7E) {
			if (!csi_ignore)
				csi_execute((char)c);
			state = ST_TEXT;
		} else if (c < 0x20) {
			control((char)c);        /* controls act even inside a sequence */
		} else {
			state = ST_TEXT;
		}
		return;
	case ST_TEXT:
		break;
	}
	if (c < 0x20 || c == 0x7F)
		control((char)c);
	else
		text_byte(c);
}

/* Console sink: called with the console lock held (interrupts off), or
 * inside a console block (console_hold_begin()).
 * Draws at once until the thread takes over, and again once a panic has
 * stopped the other CPUs (the thread may be one of them): then the whole
 * screen is redrawn, since the thread may have stopped mid-draw. */
static void fbcon_write(const char *buf, size_t len)
{
	if (spin_held(&fbcon_lock))
		return;   /* an NMI's report interrupted this CPU's own drawing: the log keeps it */
	spin_lock(&fbcon_lock);
	for (size_t i = 0; i < len; i++)
		feed(buf[i]);
	if (console_panicking() && !panic_mode) {
		panic_mode = 1;
		grid.view = 0;           /* the panic's report is on the live screen */
		memset(shown, 0xFF, (size_t)cols * rows * sizeof(*shown));
		dirty_lo = 0;
		dirty_hi = rows - 1;
	}
	if (!deferred || panic_mode)
		flush();
	else
		pending = 1;
	spin_unlock(&fbcon_lock);
}

static struct console_sink fbcon_sink = { .name = "fbcon", .write = fbcon_write };

/* Reason the framebuffer cannot carry a console, NULL if it can. */
static const char *fb_check(const struct boot_framebuffer *f)
{
	if (f->phys == 0 || f->width == 0 || f->height == 0)
		return "empty mode";
	if (f->pitch % 4 || f->pitch / 4 < f->width)
		return "pitch too small for 32-bit pixels";
	if (f->size < (uint64_t)f->pitch * f->height)
		return "buffer smaller than pitch x height";
	if (f->format == BOOT_FB_BITMASK && !(f->red_mask && f->green_mask && f->blue_mask))
		return "bitmask format without colour masks";
	if (f->format != BOOT_FB_RGBX && f->format != BOOT_FB_BGRX && f->format != BOOT_FB_BITMASK)
		return "unknown pixel format";
	return NULL;
}

/* The font blob for this screen: the font= key, else by height. */
static void font_blob(uint32_t height, const uint8_t **start, size_t *len)
{
	const char *want = cmdline_choice("font");
	if (strcmp(want, "auto") == 0)
		want = height >= 1600 ? "16x32" : height >= 1000 ? "12x24" : "8x16";
	if (strcmp(want, "16x32") == 0) {
		*start = _binary_font32_psf_start;
		*len = (size_t)(_binary_font32_psf_end - _binary_font32_psf_start);
	} else if (strcmp(want, "12x24") == 0) {
		*start = _binary_font24_psf_start;
		*len = (size_t)(_binary_font24_psf_end - _binary_font24_psf_start);
	} else {
		*start = _binary_font16_psf_start;
		*len = (size_t)(_binary_font16_psf_end - _binary_font16_psf_start);
	}
}

/* See fbcon.h. Needs vmm_init() and heap_init(). */
void fbcon_init(const struct boot_framebuffer *f)
{
	if (f->format == BOOT_FB_NONE) {
		printk("fbcon: no framebuffer; console on serial only\n");
		return;
	}
	const uint8_t *blob = NULL;
	size_t blob_len = 0;
	const char *err = fb_check(f);
	if (!err) {
		font_blob(f->height, &blob, &blob_len);
		err = psf_load(&fbcon.font, blob, blob_len);
	}
	if (!err && (f->width < fbcon.font.width || f->height < 2 * fbcon.font.height))
		err = "screen smaller than two characters";
	if (err) {
		printk("fbcon: %s; framebuffer console off\n", err);
		return;
	}
	fbcon.cols = cols = f->width / fbcon.font.width;
	fbcon.rows = f->height / fbcon.font.height;
	fbcon.status_row = strcmp(cmdline_choice("status"), "off") ? fbcon.rows - 1 : UINT32_MAX;
	rows = fbcon.status_row == UINT32_MAX ? fbcon.rows : fbcon.rows - 1;
	uint32_t back = FBCON_SCROLLBACK_LINES;
	fbcon_cell *cells;
	while (!(cells = kcalloc((size_t)cols * (rows + back), sizeof(*cells))) && back)
		back /= 2;                /* a smaller scrollback rather than none */
	shown = kcalloc((size_t)cols * rows, sizeof(*shown));
	snap = kcalloc((size_t)cols * rows, sizeof(*snap));
	if (!cells || !shown || !snap) {
		kfree(cells);
		kfree(shown);
		kfree(snap);
		printk("fbcon: no memory for a %ux%u grid; framebuffer console off\n", cols, rows);
		return;
	}
	fbcon.fb = vmm_map_mmio(f->phys, (size_t)f->pitch * f->height, 1);
	fbcon.pitch_px = f->pitch / 4;
	fbcon.format = *f;
	fbcon.px_fg = fbcon_color(0xC0, 0xC0, 0xC0);
	fbcon.px_bg = fbcon_color(0, 0, 0);
	blank = psf_glyph(&fbcon.font, ' ');
	for (size_t i = 0; i < (size_t)fbcon.pitch_px * f->height; i++)
		fbcon.fb[i] = fbcon.px_bg;
	fbcon_grid_init(&grid, cells, cols, rows, rows + back, (fbcon_cell)blank);
	for (size_t i = 0; i < (size_t)cols * rows; i++)
		shown[i] = blank;
	dirty_lo = dirty_hi = UINT32_MAX;
	flush();
	fbcon.ready = 1;
	console_register(&fbcon_sink, 1);   /* show the boot log so far */
	printk("fbcon: %ux%u, %ux%u cells, PSF%d font %ux%u%s, scrollback %u lines (%zu KiB)\n", f->width,
	       f->height, cols, rows, fbcon.font.version, fbcon.font.width, fbcon.font.height,
	       fbcon.status_row == UINT32_MAX ? "" : ", status line on the last row", back,
	       (size_t)cols * (rows + back) * sizeof(*cells) / 1024);
}

/* Moves the view n lines (n > 0: back) and redraws. Any context but an
 * NMI; takes fbcon_lock. */
static void view_move(int32_t n)
{
	if (!fbcon.ready)
		return;
	uint64_t flags = spin_lock_irqsave(&fbcon_lock);
	if (!panic_mode && fbcon_grid_move_view(&grid, n)) {
		dirty_lo = 0;
		dirty_hi = rows - 1;
		if (deferred)
			pending = 1;
		else
			flush();
	}
	spin_unlock_irqrestore(&fbcon_lock, flags);
}

/* See fbcon.h. A page is the screen less one line, which stays in view. */
void fbcon_view_page(int back)
{
	int32_t page = rows > 1 ? (int32_t)rows - 1 : 1;
	view_move(back ? page : -page);
}

/* See fbcon.h. */
void fbcon_view_live(void)
{
	if (__atomic_load_n(&grid.view, __ATOMIC_RELAXED))
		view_move(-(int32_t)FBCON_SCROLLBACK_LINES);   /* more than is ever kept */
}

/* See fbcon_internal.h. A snapshot; no lock (two aligned words). */
uint32_t fbcon_view_back(uint32_t *kept)
{
	*kept = __atomic_load_n(&grid.kept, __ATOMIC_RELAXED);
	return __atomic_load_n(&grid.view, __ATOMIC_RELAXED);
}

/* kern.console.scrollback: where the view is, what is kept, its room. */
static void scrollback_proc(char *buf, size_t len)
{
	uint64_t flags = spin_lock_irqsave(&fbcon_lock);
	struct fbcon_grid g = grid;
	spin_unlock_irqrestore(&fbcon_lock, flags);
	if (!fbcon.ready)
		ksnprintf(buf, len, "no framebuffer console");
	else
		ksnprintf(buf, len, "view %u lines back, %u lines kept, room for %u (%zu KiB)", g.view, g.kept,
			  g.lines - g.rows, (size_t)g.lines * g.cols * sizeof(fbcon_cell) / 1024);
}
SYSCTL_PROC(kern_console_scrollback, "kern.console.scrollback", scrollback_proc,
	    "the framebuffer console's scrollback: how far back the screen shows (Shift-PgUp/PgDn), "
	    "the lines kept and the room for them");
