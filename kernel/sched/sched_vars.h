/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_vars.h — the table of the scheduler's run-time variables
 * (sched_vars.def has one line per variable and says what each column
 * means). Everything that names, sets, lists or documents a kern.sched.*
 * variable goes through this table. Portable C: no locks; the variables
 * are read lock-free by the core, so a change takes effect at the next use.
 */
#ifndef MOSAIC_SCHED_SCHED_VARS_H
#define MOSAIC_SCHED_SCHED_VARS_H
#include <stddef.h>
#include <stdint.h>

enum sched_var_group { SV_ULE, SV_POLICY, SV_HMP, SV_COUNT, SV_PLACE, SV_PEER };
enum sched_var_kind { SV_NUMBER, SV_WORDS, SV_WORDS_OR_CPUS };
/* How a default follows the tick rate (FreeBSD's sched_initticks()). */
enum sched_var_hz { SV_FIXED, SV_HZ_TENTH, SV_HZ_SPIN, SV_HZ_MILLI, SV_HZ };

struct sched_var {
	const char *name;          /* "kern.sched.slice" */
	int64_t *var;
	enum sched_var_group group;
	enum sched_var_kind kind;
	int64_t def, min, max;     /* def at hz = 100 */
	const char *words;         /* "a|b|c" for SV_WORDS*, "" otherwise */
	enum sched_var_hz hz;
	const char *unit;          /* "" for words */
	const char *counterpart;   /* FreeBSD's name, the report's, or "Mosaic" */
	const char *descr;         /* one line */
};

extern const struct sched_var sched_vars[];
extern const unsigned sched_nvars;

/* The entry named name ("kern.sched.slice"), or NULL. */
const struct sched_var *sched_var_find(const char *name);
/* The entry whose variable is var, or NULL. */
const struct sched_var *sched_var_of(const int64_t *var);
/* The last component of v's name: its option name in schedsim's and
 * bench's policies ("kern.sched.hmp.steer" -> "steer"). */
const char *sched_var_short(const struct sched_var *v);
/* v's default at tick rate hz (its hz rule; def for SV_FIXED). */
int64_t sched_var_default(const struct sched_var *v, int hz);
/* v's hz rule as a formula of hz ("hz/10"), "" for SV_FIXED. */
const char *sched_var_hz_rule(const struct sched_var *v);
/* Word number index of v's words: its start and *len, or NULL when there
 * is none such. */
const char *sched_var_word(const struct sched_var *v, int64_t index, size_t *len);
/* The value text names for v (a word's position), or -1 if no word of v. */
int64_t sched_var_word_value(const struct sched_var *v, const char *text);
/* Sets each variable with an hz rule to its default at hz (FreeBSD's
 * sched_initticks(); sched_tunables_init() calls it at sched_init()). The
 * others keep their values: their defaults are the static initializers. */
void sched_vars_follow_hz(int hz);

#endif
