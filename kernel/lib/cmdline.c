/* SPDX-License-Identifier: BSD-2-Clause */
/* cmdline.c — parsing of `key=value` words with quoting, and the kernel's
 * own command line. Portable C. */
#include <lib/cmdline.h>
#include <kern/printk.h>
#include <lib/strbuf.h>
#include <lib/string.h>

/* Characters of a word quoted in an error message. */
#define CMDLINE_ECHO 24

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Appends one (possibly quoted) token from *src to sb, stopping at '='
 * when stop_at_equals, or at unquoted whitespace. Returns NULL, or the
 * reason when a quote is not closed. Bytes that do not fit leave sb full
 * (the caller checks). */
static const char *take_token(const char **src, struct strbuf *sb, int stop_at_equals)
{
	const char *s = *src;
	while (*s && !is_space(*s) && !(stop_at_equals && *s == '=')) {
		if (*s != '"' && *s != '\'') {
			strbuf_putc(sb, *s++);
			continue;
		}
		char q = *s++;
		while (*s && *s != q) {
			if (q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\'))
				s++;
			strbuf_putc(sb, *s++);
		}
		if (*s != q)
			return q == '"' ? "unterminated \" quote" : "unterminated ' quote";
		s++;
	}
	*src = s;
	return NULL;
}

/* err = "WHY in word N ('first characters of the word')". */
static void word_error(char *err, size_t err_len, const char *why, int word, const char *start)
{
	size_t n = 0;
	while (start[n] && !is_space(start[n]) && n < CMDLINE_ECHO)
		n++;
	ksnprintf(err, err_len, "%s in word %d ('%.*s%s')", why, word, (int)n, start,
		  start[n] && !is_space(start[n]) ? "..." : "");
}

/* Appends the word at *src to sb as key, NUL, value, NUL; the key starts
 * at *key_at and the value at *value_at. Returns NULL, or why the word is
 * refused (sb may then hold part of it). */
static const char *take_word(const char **src, struct strbuf *sb, size_t *key_at,
			     size_t *value_at)
{
	const char *why;
	*key_at = sb->len;
	if ((why = take_token(src, sb, 1)))
		return why;
	if (sb->len == *key_at && strbuf_ok(sb))
		return "empty key";
	strbuf_putc(sb, 0);
	*value_at = sb->len;
	if (**src == '=') {
		(*src)++;
		if ((why = take_token(src, sb, 0)))
			return why;
	}
	strbuf_putc(sb, 0);
	return strbuf_ok(sb) ? NULL : "no room for the words";
}

/* See cmdline.h. Each word is built at the end of the storage and only
 * counted once it is complete; every byte goes through the bounded
 * builder (room for it and a NUL checked first). */
int cmdline_parse(struct cmdline *cl, const char *text, char *err, size_t err_len)
{
	struct strbuf sb;
	const char *s = text ? text : "";
	cl->count = 0;
	if (err_len)
		err[0] = 0;
	if (strnlen(s, CMDLINE_MAX_LEN) == CMDLINE_MAX_LEN) {
		ksnprintf(err, err_len, "the command line is longer than %d bytes", CMDLINE_MAX_LEN - 1);
		return -1;
	}
	strbuf_init(&sb, cl->storage, sizeof(cl->storage));
	for (int word = 1;; word++) {
		while (is_space(*s))
			s++;
		if (!*s)
			return 0;
		const char *start = s, *why;
		char too_many[24];
		size_t key_at, value_at;
		if (cl->count == CMDLINE_MAX_ARGS) {
			ksnprintf(too_many, sizeof(too_many), "more than %d words", CMDLINE_MAX_ARGS);
			why = too_many;
		} else {
			why = take_word(&s, &sb, &key_at, &value_at);
		}
		if (why) {
			word_error(err, err_len, why, word, start);
			return -1;
		}
		cl->keys[cl->count] = cl->storage + key_at;
		cl->values[cl->count] = cl->storage + value_at;
		cl->count++;
	}
}

const char *cmdline_lookup(const struct cmdline *cl, const char *key)
{
	for (int i = cl->count - 1; i >= 0; i--)
		if (strcmp(cl->keys[i], key) == 0)
			return cl->values[i];
	return NULL;
}

static struct cmdline kernel_cmdline;
static char kernel_cmdline_text[CMDLINE_MAX_LEN];

/* See cmdline.h. Boot CPU, before anything reads the command line. */
void cmdline_init(const char *buf, size_t size)
{
	char err[96];
	size_t n = strnlen(buf, size);
	kernel_cmdline.count = 0;
	kernel_cmdline_text[0] = 0;
	if (n == size || n >= CMDLINE_MAX_LEN) {
		printk("cmdline: the command line is longer than %d bytes; ignored, no words used\n",
		       CMDLINE_MAX_LEN - 1);
		return;
	}
	memcpy(kernel_cmdline_text, buf, n + 1);
	if (cmdline_parse(&kernel_cmdline, kernel_cmdline_text, err, sizeof(err))) {
		if (kernel_cmdline.count)
			printk("cmdline: %s; using only the %d words before it\n", err,
			       kernel_cmdline.count);
		else
			printk("cmdline: %s; no words used\n", err);
	}
	cmdline_check(&kernel_cmdline);
}

const char *cmdline_get(const char *key)
{
	return cmdline_lookup(&kernel_cmdline, key);
}

const char *cmdline_choice(const char *key)
{
	return cmdline_lookup_choice(&kernel_cmdline, key);
}

int cmdline_number(const char *key, uint64_t *out)
{
	return cmdline_lookup_number(&kernel_cmdline, key, out);
}

const char *cmdline_text(void)
{
	return kernel_cmdline_text;
}

const struct cmdline *cmdline_words(void)
{
	return &kernel_cmdline;
}
