/* SPDX-License-Identifier: BSD-2-Clause */
/* shell_words.c — cutting boot scripts into commands and command lines
 * into words (shell_words.h). */
#include <shell/shell_words.h>

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* See shell_words.h. */
int shell_split_words(char *line, char **argv, int max)
{
	int argc = 0;
	char *s = line;
	for (;;) {
		while (is_blank(*s))
			s++;
		if (!*s)
			return argc;
		if (argc == max)
			return SHELL_WORDS_TOO_MANY;
		char *out = s;
		argv[argc++] = out;
		while (*s && !is_blank(*s)) {
			if (*s == '"') {
				s++;
				while (*s && *s != '"')
					*out++ = *s++;
				if (*s != '"')
					return SHELL_WORDS_OPEN_QUOTE;
				s++;
				continue;
			}
			*out++ = *s++;
		}
		if (*s)
			s++;
		*out = 0;
	}
}

/* See shell_words.h. */
const char *shell_script_cut(const char *script, char *cmd, size_t size, int *too_long)
{
	const char *s = script;
	size_t n = 0;
	int quoted = 0;
	*too_long = 0;
	for (; *s && (quoted || *s != ';'); s++) {
		if (*s == '"')
			quoted = !quoted;
		if (n + 1 < size)
			cmd[n++] = *s;
		else
			*too_long = 1;
	}
	cmd[n] = 0;
	return *s == ';' ? s + 1 : s;
}
