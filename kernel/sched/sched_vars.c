/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_vars.c — the scheduler's run-time variables, defined with their
 * defaults, and the table describing them, both expanded from
 * sched_vars.def (see sched_vars.h). No locks: the variables are int64_t
 * read lock-free, written by one sysctl or schedsim option at a time.
 */
#include <sched/ule.h>
#include <sched/sched_vars.h>
#include <sched/sched_policy.h>

#define SCHED_VAR(var, nm, grp, knd, dflt, lo, hi, wds, hzr, un, ref, d) int64_t var = (dflt);
#include <sched/sched_vars.def>
#undef SCHED_VAR

const struct sched_var sched_vars[] = {
#define SCHED_VAR(variable, nm, grp, knd, dflt, lo, hi, wds, hzr, un, ref, d)                           \
	{ .name = nm, .var = &variable, .group = grp, .kind = knd, .def = (dflt), .min = lo, .max = hi,     \
	  .words = wds, .hz = hzr, .unit = un, .counterpart = ref, .descr = d },
#include <sched/sched_vars.def>
#undef SCHED_VAR
};
const unsigned sched_nvars = sizeof(sched_vars) / sizeof(sched_vars[0]);

/* 1 when the NUL-terminated strings a and b are equal. */
static int same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* See sched_vars.h. */
const struct sched_var *sched_var_find(const char *name)
{
	for (unsigned i = 0; i < sched_nvars; i++)
		if (same(sched_vars[i].name, name))
			return &sched_vars[i];
	return NULL;
}

/* See sched_vars.h. */
const struct sched_var *sched_var_of(const int64_t *var)
{
	for (unsigned i = 0; i < sched_nvars; i++)
		if (sched_vars[i].var == var)
			return &sched_vars[i];
	return NULL;
}

/* See sched_vars.h. */
const char *sched_var_short(const struct sched_var *v)
{
	const char *last = v->name;
	for (const char *p = v->name; *p; p++)
		if (*p == '.')
			last = p + 1;
	return last;
}

/* See sched_vars.h. */
int64_t sched_var_default(const struct sched_var *v, int hz)
{
	switch (v->hz) {
	case SV_HZ_TENTH:
		return hz / 10 > 0 ? hz / 10 : 1;
	case SV_HZ_SPIN:
		return 2 * (10000 > 6 * hz ? 10000 : 6 * hz) / hz;
	case SV_HZ_MILLI:
		return hz / 1000 > 1 ? hz / 1000 : 1;
	case SV_HZ:
		return hz;
	case SV_FIXED:
		break;
	}
	return v->def;
}

/* See sched_vars.h. */
const char *sched_var_hz_rule(const struct sched_var *v)
{
	switch (v->hz) {
	case SV_HZ_TENTH:
		return "hz/10, at least 1";
	case SV_HZ_SPIN:
		return "2 x max(10000, 6 x hz) / hz";
	case SV_HZ_MILLI:
		return "max(1, hz/1000)";
	case SV_HZ:
		return "hz";
	case SV_FIXED:
		break;
	}
	return "";
}

/* See sched_vars.h. */
const char *sched_var_word(const struct sched_var *v, int64_t index, size_t *len)
{
	const char *w = v->words;
	for (int64_t i = 0; *w && i < index; i++) {
		while (*w && *w != '|')
			w++;
		if (*w == '|')
			w++;
		else
			return NULL;
	}
	if (index < 0 || !*w)
		return NULL;
	size_t n = 0;
	while (w[n] && w[n] != '|')
		n++;
	*len = n;
	return w;
}

/* See sched_vars.h. */
int64_t sched_var_word_value(const struct sched_var *v, const char *text)
{
	size_t len, n = 0;
	while (text[n])
		n++;
	for (int64_t i = 0;; i++) {
		const char *w = sched_var_word(v, i, &len);
		if (!w)
			return -1;
		size_t k = 0;
		while (k < len && w[k] == text[k])
			k++;
		if (k == len && n == len)
			return i;
	}
}

/* See sched_vars.h. */
void sched_vars_follow_hz(int hz)
{
	for (unsigned i = 0; i < sched_nvars; i++)
		if (sched_vars[i].hz != SV_FIXED)
			*sched_vars[i].var = sched_var_default(&sched_vars[i], hz);
}
