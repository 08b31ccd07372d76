/* SPDX-License-Identifier: BSD-2-Clause */
/* lineedit.c — line editing state machine (see lineedit.h). */
#include <shell/lineedit.h>
#include <kern/printk.h>
#include <lib/string.h>

enum { ESC_NONE, ESC_SEEN, ESC_BRACKET, ESC_PARAM, ESC_MODIFIERS };

/* Escape parameters above this mean no key (and cannot overflow). */
#define ESC_PARAM_MAX 9999

void lineedit_init(struct lineedit *le, void (*write)(const char *, size_t))
{
	memset(le, 0, sizeof(*le));
	le->write = write;
}

static void put(struct lineedit *le, const char *s)
{
	le->write(s, strlen(s));
}

/* Redraw prompt and line, clear the rest, park the cursor. */
static void redraw(struct lineedit *le)
{
	char seq[16];
	put(le, "\r");
	put(le, le->prompt);
	le->write(le->line, le->len);
	put(le, "\x1b[K");
	if (le->len > le->cursor) {
		ksnprintf(seq, sizeof(seq), "\x1b[%zuD", le->len - le->cursor);
		put(le, seq);
	}
}

void lineedit_start(struct lineedit *le, const char *prompt)
{
	le->prompt = prompt;
	le->len = le->cursor = 0;
	le->line[0] = 0;
	le->overflowed = 0;
	le->browse = 0;
	le->esc_state = ESC_NONE;
	put(le, prompt);
}

/* Replace the line with text (shorter than LINEEDIT_MAX), cursor at its
 * end; overflowed tells whether text is a line that overflowed. */
static void set_line(struct lineedit *le, const char *text, int overflowed)
{
	size_t n = strlen(text);
	memcpy(le->line, text, n + 1);
	le->len = le->cursor = n;
	le->overflowed = overflowed;
	redraw(le);
}

static const char *history_entry(struct lineedit *le, int k)
{
	int idx = (le->history_newest - (k - 1) + LINEEDIT_HISTORY) % LINEEDIT_HISTORY;
	return le->history[idx];
}

/* Step through history: dir +1 older, -1 newer. */
static void history_walk(struct lineedit *le, int dir)
{
	int target = le->browse + dir;
	if (target < 0 || target > le->history_count)
		return;
	if (le->browse == 0) {
		memcpy(le->draft, le->line, le->len + 1);
		le->draft_overflowed = le->overflowed;
	}
	le->browse = target;
	if (target == 0)
		set_line(le, le->draft, le->draft_overflowed);
	else
		set_line(le, history_entry(le, target), 0);
}

static void history_add(struct lineedit *le)
{
	if (le->len == 0)
		return;
	if (le->history_count && strcmp(history_entry(le, 1), le->line) == 0)
		return;
	le->history_newest = (le->history_newest + 1) % LINEEDIT_HISTORY;
	memcpy(le->history[le->history_newest], le->line, le->len + 1);
	if (le->history_count < LINEEDIT_HISTORY)
		le->history_count++;
}

static void insert_char(struct lineedit *le, char c)
{
	if (le->len + 1 >= LINEEDIT_MAX) {
		le->overflowed = 1;
		put(le, "\a");
		return;
	}
	memmove(le->line + le->cursor + 1, le->line + le->cursor, le->len - le->cursor);
	le->line[le->cursor++] = c;
	le->line[++le->len] = 0;
	if (le->cursor == le->len)
		le->write(&c, 1);   /* appending: no full redraw needed */
	else
		redraw(le);
}

static void delete_at(struct lineedit *le, size_t pos)
{
	if (pos >= le->len)
		return;
	memmove(le->line + pos, le->line + pos + 1, le->len - pos);
	le->len--;
	le->overflowed = 0;   /* edited: the line is now what is shown */
	if (le->cursor > pos)
		le->cursor--;
	redraw(le);
}

static void move_to(struct lineedit *le, size_t pos)
{
	if (pos > le->len || pos == le->cursor)
		return;
	le->cursor = pos;
	redraw(le);
}

static enum lineedit_status finish(struct lineedit *le)
{
	put(le, "\n");
	le->esc_state = ESC_NONE;
	if (le->overflowed)
		return LINEEDIT_TOO_LONG;
	history_add(le);
	return LINEEDIT_DONE;
}

/* The final byte of an ESC [ sequence, with its numeric parameter (0 when
 * none). */
static void escape_final(struct lineedit *le, char c, unsigned param)
{
	switch (c) {
	case 'A': history_walk(le, 1); break;
	case 'B': history_walk(le, -1); break;
	case 'C': move_to(le, le->cursor + 1); break;
	case 'D': if (le->cursor) move_to(le, le->cursor - 1); break;
	case 'H': move_to(le, 0); break;
	case 'F': move_to(le, le->len); break;
	case '~':
		if (param == 1 || param == 7) move_to(le, 0);
		else if (param == 4 || param == 8) move_to(le, le->len);
		else if (param == 3) delete_at(le, le->cursor);
		break;
	default: break;   /* unknown sequences are ignored */
	}
}

enum lineedit_status lineedit_feed(struct lineedit *le, char c)
{
	switch (le->esc_state) {
	case ESC_SEEN:
		le->esc_state = (c == '[' || c == 'O') ? ESC_BRACKET : ESC_NONE;
		return LINEEDIT_MORE;
	case ESC_BRACKET:
	case ESC_PARAM:
	case ESC_MODIFIERS:
		if (c >= '0' && c <= '9') {
			if (le->esc_state != ESC_MODIFIERS) {
				unsigned p = le->esc_param * 10 + (unsigned)(c - '0');
				le->esc_param = p > ESC_PARAM_MAX ? ESC_PARAM_MAX + 1 : p;
				le->esc_state = ESC_PARAM;
			}
			return LINEEDIT_MORE;
		}
		if (c == ';') {   /* modifiers (ESC[1;5C): keep the first parameter */
			le->esc_state = ESC_MODIFIERS;
			return LINEEDIT_MORE;
		}
		escape_final(le, c, le->esc_param);
		le->esc_state = ESC_NONE;
		return LINEEDIT_MORE;
	default:
		break;
	}
	switch (c) {
	case '\n':
	case '\r':
		return finish(le);
	case 0x1b:
		le->esc_state = ESC_SEEN;
		le->esc_param = 0;
		return LINEEDIT_MORE;
	case 0x7f:
	case '\b':
		if (le->cursor)
			delete_at(le, le->cursor - 1);
		return LINEEDIT_MORE;
	case 0x01: move_to(le, 0); return LINEEDIT_MORE;            /* ^A */
	case 0x05: move_to(le, le->len); return LINEEDIT_MORE;      /* ^E */
	case 0x02: if (le->cursor) move_to(le, le->cursor - 1); return LINEEDIT_MORE; /* ^B */
	case 0x06: move_to(le, le->cursor + 1); return LINEEDIT_MORE; /* ^F */
	case 0x10: history_walk(le, 1); return LINEEDIT_MORE;       /* ^P */
	case 0x0e: history_walk(le, -1); return LINEEDIT_MORE;      /* ^N */
	case 0x15:                                                    /* ^U */
		le->len = le->cursor = 0;
		le->line[0] = 0;
		le->overflowed = 0;
		redraw(le);
		return LINEEDIT_MORE;
	case 0x03:                                                    /* ^C */
		put(le, "^C\n");
		le->len = le->cursor = 0;
		le->line[0] = 0;
		return LINEEDIT_CANCELLED;
	default:
		if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
			insert_char(le, c);
		return LINEEDIT_MORE;   /* other control bytes are ignored */
	}
}
