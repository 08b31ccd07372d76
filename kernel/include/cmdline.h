/*
 * cmdline.h — the kernel command line: space-separated words, each `key`,
 * `key=value`, `key="value with spaces"` or `key='...'`. Inside double
 * quotes \" and \\ escape. A later word with the same key wins.
 * Known keys are listed in docs/cmdline.md.
 */
#ifndef MOSAIC_CMDLINE_H
#define MOSAIC_CMDLINE_H
#include <stddef.h>

#define CMDLINE_MAX_LEN  1024
#define CMDLINE_MAX_ARGS 32

struct cmdline {
	char storage[CMDLINE_MAX_LEN];   /* keys and values, NUL-separated */
	int count;
	const char *keys[CMDLINE_MAX_ARGS];
	const char *values[CMDLINE_MAX_ARGS];   /* "" for a bare word */
};

/* Parse text into cl. Returns 0, or -1 with a one-line reason in err (the
 * words before the error are kept). No locks. */
int cmdline_parse(struct cmdline *cl, const char *text, char *err, size_t err_len);
/* Value of the last word with this key, or NULL. No locks. */
const char *cmdline_lookup(const struct cmdline *cl, const char *key);

/* The kernel's own command line: parsed once at boot (single CPU), read
 * lock-free afterwards. Parse errors are printed and the good words kept. */
void cmdline_init(const char *text);
const char *cmdline_get(const char *key);
const char *cmdline_text(void);

#endif
