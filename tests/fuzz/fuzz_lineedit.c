/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the shell's line editor (kernel/shell/lineedit.c).
 *
 * Every iteration is one session of lines. In key mode the input is a
 * stream of keys, each spelt one of the ways terminals send it (and keys
 * that must do nothing: F-keys, unknown sequences, Alt-letters, control
 * bytes); a simple model of the editor (the line as a string, a cursor, a
 * history list newest first) predicts every line, cursor, status and the
 * history. In noise mode the input is random bytes. In both modes, after
 * every byte: the line is terminated within its buffer and holds only
 * printable characters, the cursor is within it, the history is bounded
 * and terminated, and what the editor wrote, run through a small
 * terminal, shows exactly the prompt and the line with the cursor in place. */
#include <tests/fuzz/fuzz.h>
#include <shell/lineedit.h>

/* ---- a terminal: one row, the cursor column ---- */

#define TERM_COLS 1024
static char term_row[TERM_COLS];
static size_t term_len, term_col;
static int term_bad;            /* the editor wrote something a terminal would not show */
static enum { T_TEXT, T_ESC, T_CSI } term_state;
static unsigned term_num;

static void term_reset(void)
{
	term_len = term_col = 0;
	term_state = T_TEXT;
	term_bad = 0;
}

/* The write callback: interprets CR, LF, BEL, ESC[K, ESC[nD and text. */
static void term_write(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = buf[i];
		if (term_state == T_ESC) {
			term_state = c == '[' ? T_CSI : T_TEXT;
			term_bad |= c != '[';
			term_num = 0;
			continue;
		}
		if (term_state == T_CSI) {
			if (c >= '0' && c <= '9') {
				term_num = term_num * 10 + (unsigned)(c - '0');
				term_bad |= term_num > TERM_COLS;
				continue;
			}
			term_state = T_TEXT;
			if (c == 'K')
				term_len = term_col < term_len ? term_col : term_len;
			else if (c == 'D' && term_num >= 1 && term_num <= term_col)
				term_col -= term_num;
			else
				term_bad = 1;
			continue;
		}
		if (c == '\r') {
			term_col = 0;
		} else if (c == '\n') {
			term_len = term_col = 0;
		} else if (c == '\a') {
			/* bell */
		} else if (c == 0x1b) {
			term_state = T_ESC;
		} else if (c >= 0x20 && c < 0x7f && term_col < TERM_COLS) {
			for (size_t k = term_len; k < term_col; k++)
				term_row[k] = ' ';
			term_row[term_col++] = c;
			if (term_col > term_len)
				term_len = term_col;
		} else {
			term_bad = 1;
		}
	}
}

/* ---- the model ---- */

#define M_MAX (LINEEDIT_MAX - 1)   /* characters a line holds */
struct model {
	char line[LINEEDIT_MAX];
	size_t len, cursor;
	int overflowed;
	char hist[LINEEDIT_HISTORY][LINEEDIT_MAX];   /* newest first */
	int hcount, browse;
	char draft[LINEEDIT_MAX];
	int draft_overflowed;
};

static void model_start(struct model *m)
{
	m->line[0] = 0;
	m->len = m->cursor = 0;
	m->overflowed = 0;
	m->browse = 0;
}

static void model_set(struct model *m, const char *text, int overflowed)
{
	strcpy(m->line, text);
	m->len = m->cursor = strlen(text);
	m->overflowed = overflowed;
}

enum key { K_CHAR, K_BACKSPACE, K_DELETE, K_LEFT, K_RIGHT, K_HOME, K_END, K_UP, K_DOWN, K_CLEAR,
	   K_CANCEL, K_ENTER, K_NOTHING, K_COUNT };

/* The status pressing key (with character c) gives, applied to m. */
static enum lineedit_status model_key(struct model *m, enum key k, char c)
{
	switch (k) {
	case K_CHAR:
		if (m->len == M_MAX) {
			m->overflowed = 1;
			break;
		}
		memmove(m->line + m->cursor + 1, m->line + m->cursor, m->len - m->cursor + 1);
		m->line[m->cursor++] = c;
		m->len++;
		break;
	case K_BACKSPACE:
	case K_DELETE: {
		size_t at = k == K_DELETE ? m->cursor : m->cursor - 1;
		if ((k == K_BACKSPACE && m->cursor == 0) || at >= m->len)
			break;
		memmove(m->line + at, m->line + at + 1, m->len - at);
		m->len--;
		m->cursor = at < m->cursor ? m->cursor - 1 : m->cursor;
		m->overflowed = 0;
		break;
	}
	case K_LEFT: m->cursor -= m->cursor > 0; break;
	case K_RIGHT: m->cursor += m->cursor < m->len; break;
	case K_HOME: m->cursor = 0; break;
	case K_END: m->cursor = m->len; break;
	case K_UP:
	case K_DOWN: {
		int target = m->browse + (k == K_UP ? 1 : -1);
		if (target < 0 || target > m->hcount)
			break;
		if (m->browse == 0) {
			strcpy(m->draft, m->line);
			m->draft_overflowed = m->overflowed;
		}
		m->browse = target;
		if (target == 0)
			model_set(m, m->draft, m->draft_overflowed);
		else
			model_set(m, m->hist[target - 1], 0);
		break;
	}
	case K_CLEAR: model_set(m, "", 0); break;
	case K_CANCEL:
		model_set(m, "", m->overflowed);
		return LINEEDIT_CANCELLED;
	case K_ENTER:
		if (m->overflowed)
			return LINEEDIT_TOO_LONG;
		if (m->len && (m->hcount == 0 || strcmp(m->hist[0], m->line) != 0)) {
			memmove(m->hist[1], m->hist[0], sizeof(m->hist[0]) * (LINEEDIT_HISTORY - 1));
			strcpy(m->hist[0], m->line);
			m->hcount += m->hcount < LINEEDIT_HISTORY;
		}
		return LINEEDIT_DONE;
	default:
		break;
	}
	return LINEEDIT_MORE;
}

/* ---- key spellings ---- */

static const char *const spell_backspace[] = { "\x7f", "\b" };
static const char *const spell_delete[] = { "\x1b[3~", "\x1b[03~", "\x1b[3;5~", "\x1b[0003;2~" };
static const char *const spell_left[] = { "\x1b[D", "\x1bOD", "\x02", "\x1b[1;5D", "\x1b[;3D" };
static const char *const spell_right[] = { "\x1b[C", "\x1bOC", "\x06", "\x1b[1;5C" };
static const char *const spell_home[] = { "\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~", "\x01", "\x1b[01~" };
static const char *const spell_end[] = { "\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~", "\x05" };
static const char *const spell_up[] = { "\x1b[A", "\x1bOA", "\x10" };
static const char *const spell_down[] = { "\x1b[B", "\x1bOB", "\x0e" };
static const char *const spell_enter[] = { "\r", "\n" };
static const char *const spell_nothing[] = {
	"\x1b[23~", "\x1b[13~", "\x1b[17~", "\x1b[18~", "\x1b[24~", "\x1b[11~", "\x1b[33~", "\x1b[5~",
	"\x1b[6~", "\x1b[2~", "\x1b[0~", "\x1b[~", "\x1b[99999999999999999999~", "\x1b[Z", "\x1b[5;3Z",
	"\x1bOP", "\x1bx", "\x1b\x1b", "\x07", "\t", "\x00", "\x1f", "\x80", "\xff"
};
#define PICK(t) fuzz_pick(f, t, sizeof(t) / sizeof(t[0]))

/* Bytes of one key (c for K_CHAR); *n set to their count. */
static const char *key_bytes(struct fuzz *f, enum key k, char c, size_t *n)
{
	static char one[2];
	const char *s;
	switch (k) {
	case K_CHAR: one[0] = c; *n = 1; return one;
	case K_BACKSPACE: s = PICK(spell_backspace); break;
	case K_DELETE: s = PICK(spell_delete); break;
	case K_LEFT: s = PICK(spell_left); break;
	case K_RIGHT: s = PICK(spell_right); break;
	case K_HOME: s = PICK(spell_home); break;
	case K_END: s = PICK(spell_end); break;
	case K_UP: s = PICK(spell_up); break;
	case K_DOWN: s = PICK(spell_down); break;
	case K_CLEAR: s = "\x15"; break;
	case K_CANCEL: s = "\x03"; break;
	case K_ENTER: s = PICK(spell_enter); break;
	default: s = PICK(spell_nothing); break;
	}
	*n = s[0] ? strlen(s) : 1;   /* "\x00" is the NUL byte */
	return s;
}

/* ---- checks ---- */

static struct lineedit le;
static const char *prompt;

static void check_invariants(struct fuzz *f)
{
	if (le.len >= LINEEDIT_MAX || le.line[le.len] != 0 || strlen(le.line) != le.len)
		fuzz_fail(f, "line not terminated at len %zu", le.len);
	if (le.cursor > le.len)
		fuzz_fail(f, "cursor %zu beyond len %zu", le.cursor, le.len);
	for (size_t i = 0; i < le.len; i++)
		if (le.line[i] < 0x20 || le.line[i] >= 0x7f)
			fuzz_fail(f, "byte 0x%02x in the line", (unsigned char)le.line[i]);
	if (le.history_count < 0 || le.history_count > LINEEDIT_HISTORY || le.browse < 0 ||
	    le.browse > le.history_count || le.history_newest < 0 ||
	    le.history_newest >= LINEEDIT_HISTORY)
		fuzz_fail(f, "history out of bounds: %d entries, browsing %d, newest %d",
			  le.history_count, le.browse, le.history_newest);
	for (int i = 0; i < le.history_count; i++) {
		const char *h = le.history[(le.history_newest - i + LINEEDIT_HISTORY) % LINEEDIT_HISTORY];
		if (!memchr(h, 0, LINEEDIT_MAX) || !h[0])
			fuzz_fail(f, "history entry %d empty or not terminated", i);
	}
	size_t plen = strlen(prompt);
	if (term_bad || term_len != plen + le.len || memcmp(term_row, prompt, plen) != 0 ||
	    memcmp(term_row + plen, le.line, le.len) != 0 || term_col != plen + le.cursor)
		fuzz_fail(f, "screen '%.*s' (cursor %zu, bad %d) is not '%s%s' (cursor %zu)",
			  (int)term_len, term_row, term_col, term_bad, prompt, le.line, plen + le.cursor);
}

static void check_model(struct fuzz *f, const struct model *m, enum lineedit_status got,
			enum lineedit_status want, enum key k)
{
	if (got != want)
		fuzz_fail(f, "key %d: status %d, model %d", k, got, want);
	if (strcmp(le.line, m->line) || le.cursor != m->cursor)
		fuzz_fail(f, "key %d: line '%s' cursor %zu, model '%s' cursor %zu", k, le.line,
			  le.cursor, m->line, m->cursor);
	if (le.history_count != m->hcount || le.browse != m->browse)
		fuzz_fail(f, "key %d: %d history entries (browsing %d), model %d (%d)", k,
			  le.history_count, le.browse, m->hcount, m->browse);
	for (int i = 0; i < m->hcount; i++)
		if (strcmp(le.history[(le.history_newest - i + LINEEDIT_HISTORY) % LINEEDIT_HISTORY],
			   m->hist[i]))
			fuzz_fail(f, "history entry %d differs from the model's '%s'", i, m->hist[i]);
}

/* Feeds n bytes; returns the status after the last. */
static enum lineedit_status feed(struct fuzz *f, const char *s, size_t n)
{
	enum lineedit_status st = LINEEDIT_MORE;
	for (size_t i = 0; i < n; i++) {
		if (st != LINEEDIT_MORE)
			fuzz_fail(f, "the line ended before the last byte of a key");
		st = lineedit_feed(&le, s[i]);
		if (st == LINEEDIT_MORE)
			check_invariants(f);
	}
	return st;
}

/* After a finished line: the editor wrote its newline; start the next. */
static void next_line(struct fuzz *f)
{
	if (term_bad || term_len != 0 || term_col != 0)
		fuzz_fail(f, "a finished line did not end its screen line");
	lineedit_start(&le, prompt);
	check_invariants(f);
}

static void fuzz_one(struct fuzz *f)
{
	static const char *const prompts[] = { "> ", "mosaic> ", "" };
	static struct model m;
	prompt = fuzz_pick(f, prompts, 3);
	term_reset();
	lineedit_init(&le, term_write);
	lineedit_start(&le, prompt);
	check_invariants(f);
	int keys = (int)fuzz_below(f, 1000);
	if (fuzz_below(f, 4) == 0) {   /* noise: invariants only */
		static const char escapes[] = "\x1b[;0123456789~ABCDHF";
		for (int i = 0; i < keys; i++) {
			char c = fuzz_below(f, 3) ? (char)fuzz_below(f, 256)
						  : escapes[fuzz_below(f, sizeof(escapes) - 1)];
			if (feed(f, &c, 1) != LINEEDIT_MORE)
				next_line(f);
		}
		return;
	}
	memset(&m, 0, sizeof(m));
	model_start(&m);
	int burst = 0;   /* characters left of a pasted run, which fills the buffer */
	for (int i = 0; i < keys; i++) {
		if (!burst && fuzz_below(f, 40) == 0)
			burst = 200 + (int)fuzz_below(f, 100);
		uint64_t r = fuzz_below(f, 12 + K_COUNT - 1);
		enum key k = burst || r < 12 ? K_CHAR : (enum key)(r - 12 + 1);
		burst -= burst > 0;
		char c = (char)(0x20 + fuzz_below(f, 0x5f));
		size_t n;
		const char *bytes = key_bytes(f, k, c, &n);
		enum lineedit_status want = model_key(&m, k, c);
		enum lineedit_status got = feed(f, bytes, n);
		check_model(f, &m, got, want, k);
		if (got != LINEEDIT_MORE) {
			next_line(f);
			model_start(&m);
		}
	}
}

FUZZ_MAIN("lineedit")
