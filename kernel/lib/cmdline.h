/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmdline.h — the kernel command line: space-separated words, each `key`,
 * `key=value`, `key="value with spaces"` or `key='...'`. Inside double
 * quotes \" and \\ escape. A later word with the same key wins.
 * The keys the kernel knows are in one table (kernel/lib/cmdline_keys.c),
 * the same that docs/cmdline.md lists.
 */
#ifndef MOSAIC_CMDLINE_H
#define MOSAIC_CMDLINE_H
#include <stddef.h>
#include <stdint.h>

#define CMDLINE_MAX_LEN  1024   /* bytes of text, including the NUL */
#define CMDLINE_MAX_ARGS 32
/* Room for the words of any line within those limits: a word takes its
 * key and value plus two NULs, its text at least its key and value plus
 * one separator (or the end), so the words of a line take at most its
 * length + CMDLINE_MAX_ARGS + 1 bytes; one more for the builder's NUL. */
#define CMDLINE_STORAGE  (CMDLINE_MAX_LEN + CMDLINE_MAX_ARGS + 1)

struct cmdline {
	char storage[CMDLINE_STORAGE];   /* keys and values, NUL-separated */
	int count;
	const char *keys[CMDLINE_MAX_ARGS];
	const char *values[CMDLINE_MAX_ARGS];   /* "" for a bare word */
};

/* Parse text into cl. Returns 0, or -1 with a one-line reason in err that
 * names the word (its number and first characters); cl then holds the
 * complete words before that one (none when the text is longer than
 * CMDLINE_MAX_LEN - 1 bytes). Never writes outside cl. No locks. */
int cmdline_parse(struct cmdline *cl, const char *text, char *err, size_t err_len);
/* Value of the last word with this key, or NULL. No locks. */
const char *cmdline_lookup(const struct cmdline *cl, const char *key);

/* ---- the keys the kernel knows (cmdline_keys.c) ---- */

enum cmdline_key_kind {
	CMDLINE_KEY_TEXT,     /* any value */
	CMDLINE_KEY_CHOICE,   /* one of choices[]; the first is the default */
	CMDLINE_KEY_NUMBER,   /* min..max (parse_u64_range syntax) */
};

struct cmdline_key {
	const char *name;
	enum cmdline_key_kind kind;
	const char *const *choices;   /* CHOICE: NULL-terminated */
	uint64_t min, max;            /* NUMBER */
	const char *absent;           /* NUMBER: what no (or a refused) value means */
};

extern const struct cmdline_key cmdline_keys[];
extern const size_t cmdline_key_count;

/* The table entry of key, or NULL. */
const struct cmdline_key *cmdline_key_find(const char *key);
/* Whether key is a boot-time tunable: a dotted name ("kern.sched.policy")
 * that is not a key of the table; cmdline_tunables_apply sets it as a
 * sysctl once the kernel is up. No locks. */
int cmdline_key_is_tunable(const char *key);
/* Prints one warning per problem of cl (tunables aside): an unknown key ("cmdline: unknown
 * key 'foo' ignored"), a value its key refuses ("cmdline: panic=exti:
 * expected halt|reboot|exit; using halt"). Only the word that wins for a
 * key is checked. Returns the number of warnings. No locks. */
int cmdline_check(const struct cmdline *cl);
/* The value of a CHOICE key: the word's value when it is one of the
 * choices, else (absent or refused) the default; NULL for a key that is
 * not a CHOICE key of the table. No locks. */
const char *cmdline_lookup_choice(const struct cmdline *cl, const char *key);
/* A NUMBER key's value in *out: 0, or -1 when absent or refused (or key
 * is not a NUMBER key of the table). No locks. */
int cmdline_lookup_number(const struct cmdline *cl, const char *key, uint64_t *out);

/* ---- the kernel's own command line ----
 * Parsed once at boot (single CPU), read lock-free afterwards. */

/* Takes the text in buf[size] (NUL-terminated within it and within
 * CMDLINE_MAX_LEN, or refused whole), parses it and prints every problem
 * (parse error and what was kept, unknown keys, refused values). */
void cmdline_init(const char *buf, size_t size);
const char *cmdline_get(const char *key);
/* cmdline_lookup_choice / cmdline_lookup_number on the kernel's line. */
const char *cmdline_choice(const char *key);
int cmdline_number(const char *key, uint64_t *out);
/* The text as the loader passed it ("" when refused). */
const char *cmdline_text(void);
/* Its words (none when refused). */
const struct cmdline *cmdline_words(void);

#endif
