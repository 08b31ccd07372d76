/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lineedit.h — terminal line editing for the shell, independent of any
 * device: bytes go in one at a time, screen updates come out through a
 * write callback as text and ANSI sequences (ESC[K, ESC[nD).
 *
 * Keys: printable insert at the cursor; Backspace/DEL and ESC[3~ delete;
 * ESC[D/ESC[C (or ^B/^F) move; ESC[H/ESC[F/ESC[1~/ESC[4~/ESC[7~/ESC[8~ (or
 * ^A/^E) home/end; ESC[A/ESC[B (or ^P/^N) walk the history; ^U clears; ^C
 * cancels the line. An escape's parameter is its whole number (ESC[23~,
 * F11, is not ESC[3~); modifiers after ';' are ignored; sequences it does
 * not know do nothing.
 *
 * A line that fills the buffer refuses further characters (with a bell)
 * and is refused at Enter, since it is not what was typed, until it is
 * edited shorter, cleared or replaced from the history.
 * Portable C; no locks (one editor per console reader).
 */
#ifndef MOSAIC_LINEEDIT_H
#define MOSAIC_LINEEDIT_H
#include <stddef.h>

#define LINEEDIT_MAX 256        /* bytes, including the terminating NUL */
#define LINEEDIT_HISTORY 16

enum lineedit_status {
	LINEEDIT_MORE,       /* keep feeding */
	LINEEDIT_DONE,       /* line complete in le->line */
	LINEEDIT_TOO_LONG,   /* Enter after input beyond LINEEDIT_MAX-1 was refused */
	LINEEDIT_CANCELLED,  /* ^C */
};

struct lineedit {
	char line[LINEEDIT_MAX];
	size_t len, cursor;
	int overflowed;         /* characters were refused since the line last changed */
	char history[LINEEDIT_HISTORY][LINEEDIT_MAX];
	int history_count;      /* entries stored, up to LINEEDIT_HISTORY */
	int history_newest;     /* index of the newest entry */
	int browse;             /* 0: editing the new line; k: k-th newest */
	char draft[LINEEDIT_MAX];  /* the new line while browsing */
	int draft_overflowed;      /* its overflowed flag */
	int esc_state;
	unsigned esc_param;        /* first parameter of an ESC [ sequence, capped */
	const char *prompt;
	void (*write)(const char *buf, size_t len);
};

void lineedit_init(struct lineedit *le, void (*write)(const char *, size_t));
/* Begin a new line: print the prompt, clear the buffer. */
void lineedit_start(struct lineedit *le, const char *prompt);
/* Feed one input byte. */
enum lineedit_status lineedit_feed(struct lineedit *le, char c);

#endif
