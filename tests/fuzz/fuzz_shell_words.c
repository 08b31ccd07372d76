/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the shell's cutting of its input
 * (kernel/shell/shell_words.c): boot scripts cut into ';'-separated
 * commands and command lines split into words, built from words, blanks,
 * quotes, ';' and stray bytes, sometimes mutated, each in an exact-size
 * buffer. The split must give a model's verdict and words (the model reads
 * a quote as a switch between quoted and plain), with every word inside
 * the line and nothing written past argv[max-1]; the cut must give the
 * model's command, truncation and next position, and the commands of a
 * whole script joined with ';' must give the script back. */
#include <tests/fuzz/fuzz.h>
#include <shell/shell.h>
#include <shell/shell_words.h>

#define TEXT_MAX 400

/* The model of shell_split_words: argc or the error, words[0..argc). */
static int model_split(const char *s, int max, char words[][TEXT_MAX + 1])
{
	size_t i = 0;
	int argc = 0;
	for (;;) {
		while (s[i] == ' ' || s[i] == '\t')
			i++;
		if (!s[i])
			return argc;
		if (argc == max)
			return SHELL_WORDS_TOO_MANY;
		size_t n = 0;
		int quoted = 0;
		for (; s[i] && (quoted || (s[i] != ' ' && s[i] != '\t')); i++) {
			if (s[i] == '"')
				quoted = !quoted;
			else
				words[argc][n++] = s[i];
		}
		if (quoted)
			return SHELL_WORDS_OPEN_QUOTE;
		words[argc++][n] = 0;
	}
}

/* The end of the command starting at s[0]: the first ';' outside quotes,
 * or the terminating NUL. */
static size_t model_command_end(const char *s)
{
	size_t i = 0;
	for (int quoted = 0; s[i] && (quoted || s[i] != ';'); i++)
		quoted ^= s[i] == '"';
	return i;
}

/* Text of random pieces into buf (NUL-terminated, at most cap-1 bytes). */
static size_t random_text(struct fuzz *f, char *buf, size_t cap)
{
	static const char *const pieces[] = { "run", "hello", "sysctl", "kern.sched.x=1", "-b", " ", "  ",
		"\t", "\"", "\"a b\"", "\"\"", ";", "; ", "x\"y;z\"w", "\"unclosed", "é", "=", "\\" };
	size_t len = 0, count = fuzz_below(f, 40);
	for (size_t k = 0; k < count; k++) {
		if (fuzz_below(f, 16) == 0) {   /* a stray byte */
			if (len + 1 < cap)
				buf[len++] = (char)(1 + fuzz_below(f, 255));
			continue;
		}
		const char *p = pieces[fuzz_below(f, sizeof(pieces) / sizeof(pieces[0]))];
		if (!fuzz_append(buf, &len, cap, p))
			break;
	}
	if (fuzz_below(f, 4) == 0)
		fuzz_mutate(f, (unsigned char *)buf, &len, cap - 1);
	buf[len] = 0;
	return strlen(buf);   /* a mutation may have put a NUL inside */
}

static void check_split(struct fuzz *f, const char *text, size_t len)
{
	static char words[SHELL_ARGS_MAX + 2][TEXT_MAX + 1];
	char *argv[SHELL_ARGS_MAX + 3];
	char sentinel;
	int max = 1 + (int)fuzz_below(f, SHELL_ARGS_MAX + 1);
	for (int i = 0; i < SHELL_ARGS_MAX + 3; i++)
		argv[i] = &sentinel;
	char *line = malloc(len + 1);
	memcpy(line, text, len + 1);
	int got = shell_split_words(line, argv, max), want = model_split(text, max, words);
	if (got != want)
		fuzz_fail(f, "split of '%s' (max %d): %d, model %d", text, max, got, want);
	for (int i = max; i < SHELL_ARGS_MAX + 3; i++)
		if (argv[i] != &sentinel)
			fuzz_fail(f, "argv[%d] written with max %d", i, max);
	for (int i = 0; i < got; i++) {
		if (argv[i] < line || argv[i] > line + len || (i && argv[i] <= argv[i - 1]))
			fuzz_fail(f, "word %d of '%s' outside the line or out of order", i, text);
		if (strcmp(argv[i], words[i]))
			fuzz_fail(f, "word %d of '%s' is '%s', model '%s'", i, text, argv[i], words[i]);
	}
	free(line);
}

static void check_cut(struct fuzz *f, const char *text, size_t len)
{
	static char joined[TEXT_MAX + 1];
	size_t size = fuzz_below(f, 2) ? SHELL_LINE_MAX : 1 + fuzz_below(f, 40);
	char *script = malloc(len + 1), *cmd = malloc(size);
	memcpy(script, text, len + 1);
	size_t joined_len = 0;
	int cut_short = 0;
	for (const char *s = script; *s;) {
		int too_long = -1;
		const char *next = shell_script_cut(s, cmd, size, &too_long);
		size_t end = model_command_end(s), keep = end < size - 1 ? end : size - 1;
		if (next != s + end + (s[end] == ';'))
			fuzz_fail(f, "cut of '%s' at %zu goes on at %zu, model %zu", text, (size_t)(s - script),
				  (size_t)(next - script), (size_t)(s - script) + end + (s[end] == ';'));
		if (too_long != (end > size - 1) || strlen(cmd) != keep || memcmp(cmd, s, keep))
			fuzz_fail(f, "command at %zu of '%s' (size %zu): '%s', too long %d", (size_t)(s - script),
				  text, size, cmd, too_long);
		cut_short |= too_long;
		memcpy(joined + joined_len, cmd, keep);
		joined_len += keep;
		if (s[end] == ';')
			joined[joined_len++] = ';';
		s = next;
	}
	joined[joined_len] = 0;
	if (!cut_short && strcmp(joined, script))
		fuzz_fail(f, "the commands of '%s' joined give '%s'", script, joined);
	free(cmd);
	free(script);
}

static void fuzz_one(struct fuzz *f)
{
	char text[TEXT_MAX + 1];
	size_t len = random_text(f, text, sizeof(text));
	check_split(f, text, len);
	check_cut(f, text, len);
}

FUZZ_MAIN("shell_words")
