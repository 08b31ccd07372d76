/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the shell's line editor (kernel/shell/lineedit.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <shell/lineedit.h>
#include <stdio.h>
#include <string.h>

static char screen[8192];
static size_t screen_len;

static void capture(const char *buf, size_t len)
{
	if (screen_len + len < sizeof(screen)) {
		memcpy(screen + screen_len, buf, len);
		screen_len += len;
		screen[screen_len] = 0;
	}
}

static struct lineedit le;

static int setup(void **state)
{
	(void)state;
	screen_len = 0;
	screen[0] = 0;
	lineedit_init(&le, capture);
	return 0;
}

/* Feed all of s; return the status after its last byte. */
static enum lineedit_status feed(const char *s)
{
	enum lineedit_status st = LINEEDIT_MORE;
	for (; *s; s++)
		st = lineedit_feed(&le, *s);
	return st;
}

static void test_typing_and_enter(void **state)
{
	(void)state;
	lineedit_start(&le, "> ");
	assert_int_equal(feed("help me"), LINEEDIT_MORE);
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "help me");
	assert_string_equal(screen, "> help me\n");
}

static void test_backspace_and_delete(void **state)
{
	(void)state;
	lineedit_start(&le, "> ");
	feed("abcX\x7f" "d\b\bxy");        /* abcX, DEL -> abc, d, BS BS -> ab, xy */
	feed("\x1b[D\x1b[D\x1b[3~");       /* left twice, delete 'x' */
	assert_int_equal(feed("\n"), LINEEDIT_DONE);
	assert_string_equal(le.line, "aby");
	lineedit_start(&le, "> ");
	assert_int_equal(feed("\x7f\x7f\n"), LINEEDIT_DONE);   /* backspace on empty line */
	assert_string_equal(le.line, "");
}

static void test_insert_in_middle_and_home_end(void **state)
{
	(void)state;
	lineedit_start(&le, "> ");
	feed("wrld");
	feed("\x1b[D\x1b[D\x1b[D" "o");     /* w|rld -> wo|rld */
	feed("\x1b[H" "hello ");            /* home */
	feed("\x1b[F!");                    /* end */
	feed("\x01" "[");                   /* ^A */
	feed("\x05]");                      /* ^E */
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "[hello world!]");
	/* the screen shows a redraw with erase-to-end and a cursor move back */
	assert_non_null(strstr(screen, "\x1b[K"));
	assert_non_null(strstr(screen, "\x1b[3D"));
}

static void test_history_walk(void **state)
{
	(void)state;
	const char *lines[] = { "one", "two", "three" };
	for (int i = 0; i < 3; i++) {
		lineedit_start(&le, "> ");
		feed(lines[i]);
		feed("\r");
	}
	lineedit_start(&le, "> ");
	feed("draft");
	feed("\x1b[A");
	assert_string_equal(le.line, "three");
	feed("\x1b[A\x1b[A\x1b[A\x1b[A");   /* stops at the oldest */
	assert_string_equal(le.line, "one");
	feed("\x1b[B");
	assert_string_equal(le.line, "two");
	feed("\x1b[B\x1b[B");
	assert_string_equal(le.line, "draft");   /* back to what was being typed */
	feed("\x15");
	feed("\x10");                            /* ^P */
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "three");
}

static void test_history_skips_empty_and_repeats_and_wraps(void **state)
{
	(void)state;
	for (int i = 0; i < LINEEDIT_HISTORY + 5; i++) {
		char cmd[16];
		snprintf(cmd, sizeof(cmd), "c%d\r", i);
		lineedit_start(&le, "> ");
		feed(cmd);
		lineedit_start(&le, "> ");
		feed(cmd);          /* a repeat is stored once */
		lineedit_start(&le, "> ");
		feed("\r");         /* an empty line is not stored */
	}
	assert_int_equal(le.history_count, LINEEDIT_HISTORY);
	lineedit_start(&le, "> ");
	for (int i = 0; i < LINEEDIT_HISTORY + 3; i++)
		feed("\x1b[A");
	char oldest[16];
	snprintf(oldest, sizeof(oldest), "c%d", 5);
	assert_string_equal(le.line, oldest);
}

static void test_overlong_line_is_refused(void **state)
{
	(void)state;
	lineedit_start(&le, "> ");
	for (int i = 0; i < LINEEDIT_MAX + 50; i++)
		lineedit_feed(&le, 'x');
	assert_int_equal(le.len, LINEEDIT_MAX - 1);
	assert_non_null(strchr(screen, '\a'));
	assert_int_equal(feed("\r"), LINEEDIT_TOO_LONG);
	assert_int_equal(le.history_count, 0);
	/* the next line starts clean */
	lineedit_start(&le, "> ");
	assert_int_equal(feed("ok\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "ok");
}

static void test_cancel_and_unknown_sequences(void **state)
{
	(void)state;
	lineedit_start(&le, "> ");
	assert_int_equal(feed("abc\x03"), LINEEDIT_CANCELLED);
	lineedit_start(&le, "> ");
	/* PgUp, ctrl-right, SS3 left, BEL, an unknown final byte: only the
	 * left move has an effect */
	feed("ab\x1b[5~\x1b[1;5C\x1bODc\x07\x1b[99Zd");
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "acdb");
	/* ESC[1;3~ is Home with a modifier, not Delete */
	lineedit_start(&le, "> ");
	feed("xy\x1b[1;3~z\r");
	assert_string_equal(le.line, "zxy");
}

/* An escape's parameter is its whole number: F-keys whose last digit is
 * 1, 3, 4, 7 or 8 are not Home, Delete or End. */
static void test_escape_parameters_are_whole_numbers(void **state)
{
	(void)state;
	lineedit_start(&le, "> ");
	feed("abcd\x1b[D\x1b[D");            /* ab|cd */
	feed("\x1b[23~");                      /* F11: was Delete (3~) */
	feed("\x1b[13~\x1b[33~\x1b[103~");     /* F3, F19, no key */
	feed("\x1b[17~\x1b[11~\x1b[21~");      /* F6, F1, F10: were Home (7~, 1~) */
	feed("\x1b[18~\x1b[24~\x1b[14~");      /* F7, F12, F4: were End (8~, 4~) */
	feed("\x1b[99999999999999999999999~");  /* huge: no key, no overflow */
	feed("X");
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "abXcd");
	/* the real keys still work, with leading zeros and modifiers */
	lineedit_start(&le, "> ");
	feed("abcd\x1b[D\x1b[D\x1b[3~");       /* delete c */
	feed("\x1b[003~");                     /* delete d */
	feed("\x1b[1~<\x1b[4~>");              /* home, end */
	feed("\x1b[7~(\x1b[8~)\x1b[3;5~");      /* home, end, ctrl-delete at the end: nothing */
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "(<ab>)");
}

/* Fill the line past its end: le.len stops at LINEEDIT_MAX - 1. */
static void overflow_line(void)
{
	for (int i = 0; i < LINEEDIT_MAX + 10; i++)
		lineedit_feed(&le, 'x');
	assert_int_equal(le.len, LINEEDIT_MAX - 1);
}

/* A refused line becomes acceptable again once it is edited shorter,
 * cleared or replaced by a history entry; walking back to it (the draft)
 * brings the refusal back. */
static void test_overlong_line_recovers_when_edited(void **state)
{
	(void)state;
	lineedit_start(&le, "> ");
	overflow_line();
	feed("\x7f");                          /* backspace: now 254 characters */
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_int_equal(strlen(le.line), LINEEDIT_MAX - 2);

	lineedit_start(&le, "> ");
	overflow_line();
	feed("\x1b[H\x1b[3~");                 /* Delete at the start */
	assert_int_equal(feed("\r"), LINEEDIT_DONE);

	lineedit_start(&le, "> ");
	feed("ok\r");
	lineedit_start(&le, "> ");
	overflow_line();
	feed("\x1b[A");                        /* recall "ok" */
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "ok");

	lineedit_start(&le, "> ");
	overflow_line();
	feed("\x1b[A\x1b[B");                  /* to "ok" and back to the cut line */
	assert_int_equal(le.len, LINEEDIT_MAX - 1);
	assert_int_equal(feed("\r"), LINEEDIT_TOO_LONG);

	lineedit_start(&le, "> ");
	overflow_line();
	feed("\x1b[D\x1b[H");                  /* moving the cursor changes nothing */
	assert_int_equal(feed("\r"), LINEEDIT_TOO_LONG);

	lineedit_start(&le, "> ");
	overflow_line();
	feed("\x15" "echo\r");                 /* ^U */
	assert_string_equal(le.line, "echo");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_typing_and_enter, setup),
		cmocka_unit_test_setup(test_backspace_and_delete, setup),
		cmocka_unit_test_setup(test_insert_in_middle_and_home_end, setup),
		cmocka_unit_test_setup(test_history_walk, setup),
		cmocka_unit_test_setup(test_history_skips_empty_and_repeats_and_wraps, setup),
		cmocka_unit_test_setup(test_overlong_line_is_refused, setup),
		cmocka_unit_test_setup(test_cancel_and_unknown_sequences, setup),
		cmocka_unit_test_setup(test_escape_parameters_are_whole_numbers, setup),
		cmocka_unit_test_setup(test_overlong_line_recovers_when_edited, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
