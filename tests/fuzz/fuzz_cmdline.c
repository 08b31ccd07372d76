/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the kernel command-line parser and its key checks
 * (kernel/lib/cmdline.c, cmdline_keys.c), checked against a reference
 * model of the grammar in docs/cmdline.md written the other way round:
 * first a lexer turns the text into characters marked quoted or not and
 * word breaks, then words are cut at their first unquoted '='. Parser and
 * model must agree on accept/reject, on the word an error names, on the
 * words kept and on every key and value; the key checks must warn exactly
 * for the unknown keys and refused values the model finds. */
#include <inttypes.h>
#include <stdarg.h>
#include <tests/fuzz/fuzz.h>
#include <lib/cmdline.h>
#include <kern/printk.h>

/* The key checks print through printk: count the lines. */
static int printed_lines;
void printk(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (strncmp(line, "cmdline: ", 9) != 0 || !strchr(line, '\n'))
		fprintf(stderr, "fuzz: odd message '%s'\n", line), abort();
	printed_lines++;
}

/* ---- the model ---- */

#define M_TEXT_MAX 1023          /* docs: at most 1023 bytes */
#define M_WORDS_MAX 32

enum { LX_CHAR, LX_MARK, LX_BREAK, LX_UNTERMINATED };
struct lexeme {
	int kind;
	char c;
	int quoted;
};

/* The text as lexemes: every character that belongs to a word (with its
 * quotes removed and escapes resolved; quoted ones marked), a mark where
 * a quote opens (so `""` is a word), a break for each run of white space,
 * and LX_UNTERMINATED where a quote stays open. */
static size_t model_lex(const char *s, struct lexeme *out)
{
	size_t n = 0;
	char quote = 0;
	for (; *s; s++) {
		char c = *s;
		if (quote) {
			if (c == quote) {
				quote = 0;
				continue;
			}
			if (quote == '"' && c == '\\' && (s[1] == '"' || s[1] == '\\'))
				c = *++s;
			out[n++] = (struct lexeme){ LX_CHAR, c, 1 };
		} else if (c == '"' || c == '\'') {
			quote = c;
			out[n++] = (struct lexeme){ LX_MARK, 0, 0 };
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			if (n && out[n - 1].kind != LX_BREAK)
				out[n++] = (struct lexeme){ LX_BREAK, 0, 0 };
		} else {
			out[n++] = (struct lexeme){ LX_CHAR, c, 0 };
		}
	}
	if (quote)
		out[n++] = (struct lexeme){ LX_UNTERMINATED, 0, 0 };
	return n;
}

enum { M_OK, M_TOO_LONG, M_TOO_MANY, M_EMPTY_KEY, M_UNTERMINATED };
struct model {
	int error, bad_word;     /* bad_word: 1-based, when error */
	int count;
	char keys[M_WORDS_MAX][M_TEXT_MAX + 1], values[M_WORDS_MAX][M_TEXT_MAX + 1];
};

/* Words of text by the grammar. A word with an open quote is bad; a word
 * whose part before the first unquoted '=' is empty is bad, unless the
 * quote opened in that part; the 33rd word is bad whatever it holds. */
static void model_parse(const char *text, struct model *m)
{
	static struct lexeme lx[2 * M_TEXT_MAX + 4];
	memset(m, 0, sizeof(*m));
	if (strlen(text) > M_TEXT_MAX) {
		m->error = M_TOO_LONG;
		return;
	}
	size_t n = model_lex(text, lx), i = 0;
	while (i < n) {
		if (lx[i].kind == LX_BREAK) {
			i++;
			continue;
		}
		size_t end = i;
		while (end < n && lx[end].kind != LX_BREAK)
			end++;
		int word = m->count + 1;
		if (m->count == M_WORDS_MAX) {
			m->error = M_TOO_MANY;
			m->bad_word = word;
			return;
		}
		size_t eq = i;
		while (eq < end && !(lx[eq].kind == LX_CHAR && !lx[eq].quoted && lx[eq].c == '='))
			eq++;
		int open_in_key = 0, key_chars = 0, open = lx[end - 1].kind == LX_UNTERMINATED;
		for (size_t k = i; k < eq; k++) {
			open_in_key |= lx[k].kind == LX_UNTERMINATED;
			key_chars += lx[k].kind == LX_CHAR;
		}
		if (open_in_key)
			m->error = M_UNTERMINATED;
		else if (!key_chars)
			m->error = M_EMPTY_KEY;
		else if (open)
			m->error = M_UNTERMINATED;
		if (m->error) {
			m->bad_word = word;
			return;
		}
		char *k = m->keys[m->count], *v = m->values[m->count];
		for (size_t j = i; j < eq; j++)
			if (lx[j].kind == LX_CHAR)
				*k++ = lx[j].c;
		for (size_t j = eq + 1; j < end; j++)
			if (lx[j].kind == LX_CHAR)
				*v++ = lx[j].c;
		m->count++;
		i = end;
	}
}

/* Value of the last word with key, or NULL. */
static const char *model_lookup(const struct model *m, const char *key)
{
	for (int i = m->count - 1; i >= 0; i--)
		if (strcmp(m->keys[i], key) == 0)
			return m->values[i];
	return NULL;
}

/* The keys of docs/cmdline.md: 1 when value is acceptable for key, 0 when
 * refused, -1 for an unknown key. */
static int model_key_accepts(const char *key, const char *value, uint64_t *num)
{
	if (strcmp(key, "run") == 0)
		return 1;
	if (strcmp(key, "panic") == 0)
		return !strcmp(value, "halt") || !strcmp(value, "reboot") || !strcmp(value, "exit");
	if (strcmp(key, "sched") == 0)
		return !strcmp(value, "on") || !strcmp(value, "off");
	if (strcmp(key, "maxcpus") != 0)
		return -1;
	int hex = value[0] == '0' && (value[1] == 'x' || value[1] == 'X');
	const char *d = value + (hex ? 2 : 0);
	if (!*d || strspn(d, hex ? "0123456789abcdefABCDEF" : "0123456789") != strlen(d))
		return 0;
	while (*d == '0' && d[1])
		d++;
	if (strlen(d) > 4)   /* 1..256 never needs more digits */
		return 0;
	*num = strtoull(d, NULL, hex ? 16 : 10);
	return *num >= 1 && *num <= 256;
}

/* ---- inputs ---- */

static const char *const corpus[] = {
	"", "  ", "panic=exit", "run=\"version; poweroff\" panic=exit maxcpus=2",
	"a=1 b=x=y a=2", "mixed=a\"b c\"d path='C:\\dir' empty=\"\"", "=value", "k= ",
	"run=\"echo \\\"hi there\\\"; poweroff\"", "bad=\"open", "x 'y", "\"\"=v", "a\"b=c\"=d",
	"sched=of panic=exti foo maxcpus=0x10 maxcpus=abc", "k=\"\\\\\" q='\\'", "\t\r\nflag\t",
};

static const char *const keys[] = { "run", "panic", "sched", "maxcpus", "k", "foo", "a", "" };
static const char *const values[] = { "exit", "halt", "reboot", "on", "off", "0", "1", "256", "257",
	"0x10", "abc", "", "x=y", "exti" };

/* Appends one generated word (with quoting) to buf. */
static void gen_word(struct fuzz *f, char *buf, size_t *len, size_t cap)
{
	char w[256];
	size_t n = 0;
	const char *k = fuzz_pick(f, keys, sizeof(keys) / sizeof(keys[0]));
	const char *v = fuzz_pick(f, values, sizeof(values) / sizeof(values[0]));
	switch (fuzz_below(f, 4)) {
	case 0: n = (size_t)snprintf(w, sizeof(w), "%s", k); break;
	case 1: n = (size_t)snprintf(w, sizeof(w), "%s=%s", k, v); break;
	case 2: n = (size_t)snprintf(w, sizeof(w), "%s=\"%s %s\\\"\\\\\"", k, v, v); break;
	default: n = (size_t)snprintf(w, sizeof(w), "'%s'=x'%s'y", k, v); break;
	}
	if (fuzz_below(f, 4) == 0) {   /* a long run, to reach the limits */
		size_t extra = fuzz_below(f, 200);
		while (extra-- && n + 1 < sizeof(w))
			w[n++] = (char)('a' + fuzz_below(f, 26));
	}
	if (*len + n + 1 > cap)
		return;
	memcpy(buf + *len, w, n);
	*len += n;
	buf[(*len)++] = fuzz_below(f, 8) ? ' ' : '\t';
}

/* ---- checks ---- */

static void check_parse(struct fuzz *f, const char *text)
{
	static struct cmdline cl;
	static struct model m;
	char err[96];
	memset(&cl, 0xA5, sizeof(cl));
	int rc = cmdline_parse(&cl, text, err, sizeof(err));
	model_parse(text, &m);
	if ((rc == 0) != (m.error == M_OK))
		fuzz_fail(f, "'%s': parser %d (%s), model error %d", text, rc, err, m.error);
	if (cl.count != m.count)
		fuzz_fail(f, "'%s': parser kept %d words, model %d", text, cl.count, m.count);
	if (rc) {
		static const char *const kinds[] = { "", "longer than", "more than", "empty key",
						     "unterminated" };
		char word[32];
		snprintf(word, sizeof(word), "in word %d (", m.bad_word);
		if (!strstr(err, kinds[m.error]) || (m.bad_word && !strstr(err, word)))
			fuzz_fail(f, "'%s': message '%s', model: %s word %d", text, err, kinds[m.error],
				  m.bad_word);
	}
	if (strlen(err) >= sizeof(err))
		fuzz_fail(f, "message not terminated");
	for (int i = 0; i < cl.count; i++) {
		const char *lo = cl.storage, *hi = cl.storage + sizeof(cl.storage);
		if (cl.keys[i] < lo || cl.keys[i] >= hi || cl.values[i] < lo || cl.values[i] >= hi ||
		    !memchr(cl.values[i], 0, (size_t)(hi - cl.values[i])))
			fuzz_fail(f, "'%s': word %d outside the storage", text, i + 1);
		if (strcmp(cl.keys[i], m.keys[i]) || strcmp(cl.values[i], m.values[i]))
			fuzz_fail(f, "'%s': word %d is '%s'='%s', model '%s'='%s'", text, i + 1,
				  cl.keys[i], cl.values[i], m.keys[i], m.values[i]);
	}

	/* the key checks: one warning per unknown key and refused value; an
	 * unknown dotted key is a tunable, checked when it is set */
	int want = 0;
	for (int i = 0; i < m.count; i++) {
		uint64_t num;
		int accepts = model_key_accepts(m.keys[i], m.values[i], &num);
		if (model_lookup(&m, m.keys[i]) == m.values[i] && accepts != 1 &&
		    !(accepts == -1 && strchr(m.keys[i], '.')))
			want++;
	}
	printed_lines = 0;
	int got = cmdline_check(&cl);
	if (got != want || printed_lines != want)
		fuzz_fail(f, "'%s': %d warnings (%d lines), model %d", text, got, printed_lines, want);
	const char *pv = model_lookup(&m, "panic");
	const char *panic = pv && model_key_accepts("panic", pv, &(uint64_t){ 0 }) == 1 ? pv : "halt";
	if (strcmp(cmdline_lookup_choice(&cl, "panic"), panic))
		fuzz_fail(f, "'%s': panic is %s, model %s", text, cmdline_lookup_choice(&cl, "panic"),
			  panic);
	uint64_t want_cpus = 0, got_cpus = 0;
	const char *mv = model_lookup(&m, "maxcpus");
	int want_ok = mv && model_key_accepts("maxcpus", mv, &want_cpus) == 1;
	int got_ok = cmdline_lookup_number(&cl, "maxcpus", &got_cpus) == 0;
	if (want_ok != got_ok || (got_ok && got_cpus != want_cpus))
		fuzz_fail(f, "'%s': maxcpus %d/%" PRIu64 ", model %d/%" PRIu64, text, got_ok, got_cpus,
			  want_ok, want_cpus);
}

/* The kernel instance takes a loader buffer that may lack its NUL. */
static void check_init(struct fuzz *f, const char *buf, size_t size)
{
	size_t n = strnlen(buf, size);
	printed_lines = 0;
	cmdline_init(buf, size);
	int taken = n < size && n <= M_TEXT_MAX;
	if (taken ? strcmp(cmdline_text(), buf) != 0 : (cmdline_text()[0] || printed_lines != 1))
		fuzz_fail(f, "cmdline_init(%zu of %zu bytes): text '%s'", n, size, cmdline_text());
}

static void fuzz_one(struct fuzz *f)
{
	static char buf[1200];
	size_t len = 0, cap = sizeof(buf) - 1;
	if (fuzz_below(f, 2)) {
		const char *seed = fuzz_pick(f, corpus, sizeof(corpus) / sizeof(corpus[0]));
		len = strlen(seed);
		memcpy(buf, seed, len);
		fuzz_mutate(f, (unsigned char *)buf, &len, cap);
	} else {
		size_t words = fuzz_below(f, 40);
		size_t limit = fuzz_below(f, 4) ? 1060 : cap;
		for (size_t i = 0; i < words; i++)
			gen_word(f, buf, &len, limit);
		if (fuzz_below(f, 4) == 0)
			fuzz_mutate(f, (unsigned char *)buf, &len, cap);
	}
	buf[len] = 0;   /* an embedded NUL just ends the text early */
	check_parse(f, buf);
	if (fuzz_below(f, 8) == 0) {
		size_t size = len + 1 - fuzz_below(f, 2);   /* sometimes no NUL within size */
		check_init(f, buf, size ? size : 1);
	}
}

FUZZ_MAIN("cmdline")
