/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_policy_table.c — the named policies (bench_policy_table.h): the
 * kernel's `bench` and schedsim both read this table.
 */
#include <kern/printk.h>
#include <lib/string.h>
#include <bench/bench_policy_table.h>
#include <sched/sched_policy.h>

const struct bench_named_policy bench_named_policies[] = {
	{ "ule", "ule", "", "stock ULE placement (FreeBSD's)" },
	{ "hmp", "hmp", "", "hybrid placement, every switch at its default (docs/hmp.md)" },
	{ "hmp-no-d", "hmp", "steer=0", "hmp without (d), the steering by HFI score" },
	{ "hmp-no-upmigrate", "hmp", "upmigrate=0", "hmp without up-migration" },
	{ "hmp-report", "hmp", "upmigrate=0:smt_steer=0:best=0:latency=0:perf0=strict",
	  "the seed report's (a)-(f) searches only: no best, latency, smt_steer, up-migration; perf0=strict" },
	{ "hmp+class", "hmp", "class_aware=1", "hmp with interactive threads kept on the fastest CPUs" },
	{ "hmp-ee", "hmp", "metric=ee", "hmp placing by the HFI energy-efficiency scores (kern.sched.hmp.metric=ee)" },
	{ "hmp-itd", "hmp", "itd=1",
	  "hmp scoring each thread's CPUs by its Thread Director class (HFI class columns), with class swaps" },
	{ "primary-p", "ule", "primary=performance",
	  "ULE with the P-cores as primary domain (scx_bpfland --primary-domain)" },
	{ "primary-e", "ule", "primary=efficiency", "ULE with the E-cores as primary domain" },
};
const unsigned bench_nnamed = sizeof(bench_named_policies) / sizeof(bench_named_policies[0]);

/* The named entry called name, or NULL. */
static const struct bench_named_policy *named_find(const char *name)
{
	for (unsigned i = 0; i < bench_nnamed; i++)
		if (strcmp(bench_named_policies[i].name, name) == 0)
			return &bench_named_policies[i];
	return NULL;
}

/* The registered policies (sched_policy_list.def) no named entry is
 * called like, as entries of their own: base = name, no options. Filled
 * on first use; constant after. */
static struct bench_named_policy registered[SCHED_POLICY_COUNT];
static unsigned nregistered;
static int registered_done;

static void registered_fill(void)
{
	if (registered_done)
		return;
	for (unsigned i = 0; i < sched_npolicies; i++) {
		const struct sched_policy *sp = sched_policies[i];
		if (!named_find(sp->name))
			registered[nregistered++] =
				(struct bench_named_policy){ sp->name, sp->name, "", sp->descr };
	}
	registered_done = 1;
}

/* See bench_policy_table.h. */
unsigned bench_policy_count(void)
{
	registered_fill();
	return bench_nnamed + nregistered;
}

/* See bench_policy_table.h. */
const struct bench_named_policy *bench_policy_at(unsigned i)
{
	registered_fill();
	if (i < bench_nnamed)
		return &bench_named_policies[i];
	return i - bench_nnamed < nregistered ? &registered[i - bench_nnamed] : NULL;
}

/* The value p's options give the option called opt, into buf; 1 if given. */
static int option_of(const struct bench_named_policy *p, const char *opt, char *buf, size_t len)
{
	size_t n = strlen(opt);
	for (const char *o = p->opts; *o;) {
		size_t item = 0;
		while (o[item] && o[item] != ':')
			item++;
		if (item > n && o[n] == '=' && strncmp(o, opt, n) == 0) {
			ksnprintf(buf, len, "%.*s", (int)(item - n - 1), o + n + 1);
			return 1;
		}
		o += item + (o[item] == ':');
	}
	return 0;
}

/* See bench_policy_table.h. */
int bench_named_value(const struct bench_named_policy *p, const struct sched_var *v, char *buf, size_t len)
{
	int64_t value;
	const struct sched_policy *base = sched_policy_find(p->base);
	if (!base)
		return 0;   /* not a registered policy: tests/unit/test_sched_vars.c checks there is none */
	if (v->group == SV_POLICY)
		value = sched_policy_index(base);
	else if (v->group == SV_PLACE || (v->group == SV_HMP && base->hmp_switches))
		value = v->def;
	else
		return 0;
	if (v->group != SV_POLICY && option_of(p, sched_var_short(v), buf, len))
		return 1;
	size_t n;
	const char *word = sched_var_word(v, value, &n);
	if (word)
		ksnprintf(buf, len, "%.*s", (int)n, word);
	else
		ksnprintf(buf, len, "%ld", (long)value);
	return 1;
}
