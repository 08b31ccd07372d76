/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the framebuffer console's ring of lines, its scrollback
 * and view (kernel/dev/fbcon_grid.c). Each test line is written as its
 * number in every cell, so a row shows which line it holds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <dev/fbcon_grid.h>

#define COLS 5
#define BLANK 0xFFFF

struct term {
	struct fbcon_grid g;
	fbcon_cell *cells;
	uint32_t cy;          /* the row the next line goes to */
	uint32_t written;     /* lines written so far: line n holds n + 1 */
};

static void term_init(struct term *t, uint32_t rows, uint32_t lines)
{
	t->cells = calloc((size_t)lines * COLS, sizeof(fbcon_cell));
	assert_non_null(t->cells);
	for (size_t i = 0; i < (size_t)lines * COLS; i++)
		t->cells[i] = 0x1234;     /* init must blank everything */
	fbcon_grid_init(&t->g, t->cells, COLS, rows, lines, BLANK);
	t->cy = 0;
	t->written = 0;
}

/* Writes the next line and moves down, scrolling at the bottom as the
 * console does. */
static void term_line(struct term *t)
{
	fbcon_cell *row = fbcon_grid_row(&t->g, t->cy);
	t->written++;
	for (uint32_t c = 0; c < COLS; c++)
		row[c] = (fbcon_cell)t->written;
	if (t->cy + 1 < t->g.rows)
		t->cy++;
	else
		fbcon_grid_scroll(&t->g);
}

/* The line number screen row r shows (0: blank); every cell must agree. */
static uint32_t shown(const struct term *t, uint32_t r)
{
	const fbcon_cell *row = fbcon_grid_shown(&t->g, r);
	for (uint32_t c = 1; c < COLS; c++)
		assert_int_equal(row[c], row[0]);
	return row[0] == BLANK ? 0 : row[0];
}

static void test_init_blanks_and_shows_the_live_screen(void **state)
{
	(void)state;
	struct term t;
	term_init(&t, 4, 10);
	for (uint32_t r = 0; r < 4; r++)
		assert_int_equal(shown(&t, r), 0);
	for (size_t i = 0; i < 10 * COLS; i++)
		assert_int_equal(t.cells[i], BLANK);
	term_line(&t);
	term_line(&t);
	assert_int_equal(shown(&t, 0), 1);
	assert_int_equal(shown(&t, 1), 2);
	assert_int_equal(shown(&t, 2), 0);
	assert_int_equal(t.g.kept, 0);
	assert_int_equal(fbcon_grid_move_view(&t.g, 3), 0);   /* nothing kept yet: nowhere to go */
	free(t.cells);
}

static void test_scrolled_lines_are_kept_and_can_be_viewed(void **state)
{
	(void)state;
	struct term t;
	term_init(&t, 4, 10);       /* 4 rows on screen, room for 6 more */
	for (int i = 0; i < 7; i++)
		term_line(&t);          /* lines 1..7; the screen: 5 6 7 blank */
	assert_int_equal(t.g.kept, 4);
	assert_int_equal(shown(&t, 0), 5);
	assert_int_equal(shown(&t, 3), 0);
	assert_int_equal(fbcon_grid_move_view(&t.g, 3), 1);
	assert_int_equal(t.g.view, 3);
	assert_int_equal(shown(&t, 0), 2);
	assert_int_equal(shown(&t, 3), 5);
	assert_int_equal(fbcon_grid_move_view(&t.g, 100), 1);   /* clamped to what is kept */
	assert_int_equal(t.g.view, 4);
	assert_int_equal(shown(&t, 0), 1);
	assert_int_equal(fbcon_grid_move_view(&t.g, 1), 0);
	assert_int_equal(fbcon_grid_move_view(&t.g, -2), 1);
	assert_int_equal(shown(&t, 0), 3);
	assert_int_equal(fbcon_grid_move_view(&t.g, -100), 1);  /* back to the live screen */
	assert_int_equal(t.g.view, 0);
	assert_int_equal(shown(&t, 0), 5);
	assert_int_equal(fbcon_grid_move_view(&t.g, -1), 0);
	free(t.cells);
}

static void test_the_scrollback_is_bounded_and_keeps_the_newest(void **state)
{
	(void)state;
	struct term t;
	term_init(&t, 4, 10);
	for (int i = 0; i < 1000; i++)
		term_line(&t);          /* the screen: 998 999 1000 blank */
	assert_int_equal(t.g.kept, 6);
	assert_int_equal(shown(&t, 0), 998);
	assert_int_equal(shown(&t, 3), 0);     /* the ring's reused line was blanked */
	fbcon_grid_move_view(&t.g, 1000);
	assert_int_equal(t.g.view, 6);
	for (uint32_t r = 0; r < 4; r++)
		assert_int_equal(shown(&t, r), 992 + r);   /* the oldest kept: 992..997 */
	free(t.cells);
}

static void test_a_view_stays_on_its_text_while_lines_come(void **state)
{
	(void)state;
	struct term t;
	term_init(&t, 4, 10);
	for (int i = 0; i < 5; i++)
		term_line(&t);          /* kept: 1 2; screen: 3 4 5 blank */
	fbcon_grid_move_view(&t.g, 1);
	assert_int_equal(shown(&t, 0), 2);
	term_line(&t);              /* line 6: kept 1 2 3 */
	assert_int_equal(t.g.view, 2);
	assert_int_equal(shown(&t, 0), 2);
	assert_int_equal(shown(&t, 3), 5);
	for (int i = 0; i < 3; i++)
		term_line(&t);          /* lines 7..9: kept 1..6, the ring is full */
	assert_int_equal(t.g.view, 5);
	assert_int_equal(shown(&t, 0), 2);
	term_line(&t);              /* line 10: 1 is dropped, 2 is the oldest */
	assert_int_equal(shown(&t, 0), 2);
	assert_int_equal(t.g.view, 6);
	term_line(&t);              /* line 11: 2 is dropped; the view shows the oldest kept */
	assert_int_equal(t.g.view, 6);
	assert_int_equal(shown(&t, 0), 3);
	free(t.cells);
}

static void test_without_room_for_scrollback(void **state)
{
	(void)state;
	struct term t;
	term_init(&t, 3, 3);
	for (int i = 0; i < 8; i++)
		term_line(&t);          /* the screen: 7 8 blank */
	assert_int_equal(t.g.kept, 0);
	assert_int_equal(fbcon_grid_move_view(&t.g, 1), 0);
	assert_int_equal(shown(&t, 0), 7);
	assert_int_equal(shown(&t, 1), 8);
	assert_int_equal(shown(&t, 2), 0);
	free(t.cells);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_blanks_and_shows_the_live_screen),
		cmocka_unit_test(test_scrolled_lines_are_kept_and_can_be_viewed),
		cmocka_unit_test(test_the_scrollback_is_bounded_and_keeps_the_newest),
		cmocka_unit_test(test_a_view_stays_on_its_text_while_lines_come),
		cmocka_unit_test(test_without_room_for_scrollback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
