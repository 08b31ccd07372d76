/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_knobs.c — the switch stressor: kern.sched.policy, every
 * kern.sched.hmp.* switch and kern.sched.primary (the variable table,
 * kernel/sched/sched_vars.def) set to random values of their ranges — and
 * the primary domain sometimes to a random CPU list — through the sysctls,
 * as a user would; all put back at the end. Controller thread only.
 */
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/sysctl.h>
#include <sched/sched_vars.h>
#include <torture/torture_int.h>

#define KNOBS_MAX 64

extern const struct sysctl_oid __sysctl_start[], __sysctl_end[];
static const struct sysctl_set kernel_set = { __sysctl_start, __sysctl_end };

static char saved[KNOBS_MAX][SYSCTL_VALUE_MAX];

/* 1 for the variables the stressor flips: the policy, every hmp switch
 * and the primary domain (not the ULE core's tunables). */
static int flipped(const struct sched_var *v)
{
	return v->group != SV_ULE;
}

/* Writes text to the sysctl name; a refusal is a violation (every value
 * written is one the table allows). */
static void write_sysctl(struct torture_pass *p, const char *name, const char *text)
{
	struct sysctl_ref r;
	char why[128];
	if (sysctl_find(&kernel_set, name, &r) || sysctl_write(&r, text, why, sizeof(why))) {
		printk("torture: sysctl %s=%s refused\n", name, text);
		torture_fail(p, "a sysctl refused a value its table allows", 0, 0);
	}
}

/* See torture_int.h. */
void torture_knobs_save(void)
{
	for (unsigned i = 0; i < sched_nvars && i < KNOBS_MAX; i++) {
		struct sysctl_ref r;
		saved[i][0] = 0;
		if (flipped(&sched_vars[i]) && !sysctl_find(&kernel_set, sched_vars[i].name, &r))
			sysctl_format(&r, saved[i], sizeof(saved[i]));
	}
}

/* See torture_int.h. */
void torture_knobs_flip(struct torture_pass *p, uint64_t *rng)
{
	const struct sched_var *v = &sched_vars[torture_rand(rng) % sched_nvars];
	if (!flipped(v))
		return;
	char text[48];
	int64_t x = v->min + (int64_t)(torture_rand(rng) % (uint64_t)(v->max - v->min + 1));
	size_t n;
	const char *word = sched_var_word(v, x, &n);
	if (v->kind == SV_WORDS_OR_CPUS && torture_rand(rng) % 4 == 0) {
		unsigned ncpu = smp_cpu_count(), a = (unsigned)(torture_rand(rng) % ncpu);
		unsigned b = a + (unsigned)(torture_rand(rng) % (ncpu - a));
		ksnprintf(text, sizeof(text), "%u-%u", a, b);
	} else if (word) {
		ksnprintf(text, sizeof(text), "%.*s", (int)n, word);
	} else {
		ksnprintf(text, sizeof(text), "%ld", (long)x);
	}
	write_sysctl(p, v->name, text);
	torture_count(p, TOP_KNOB, (int64_t)(v - sched_vars));
}

/* See torture_int.h. */
void torture_knobs_restore(void)
{
	for (unsigned i = 0; i < sched_nvars && i < KNOBS_MAX; i++) {
		struct sysctl_ref r;
		char why[128];
		if (saved[i][0] && (sysctl_find(&kernel_set, sched_vars[i].name, &r) ||
				    sysctl_write(&r, saved[i], why, sizeof(why))))
			printk("torture: could not put back %s=%s\n", sched_vars[i].name, saved[i]);
	}
}
