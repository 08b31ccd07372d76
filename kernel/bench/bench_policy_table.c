/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_policy_table.c — the named policies (bench_policy_table.h): the
 * kernel's `bench` and schedsim both read this table.
 */
#include <kern/printk.h>
#include <lib/string.h>
#include <bench/bench_policy_table.h>

const struct bench_named_policy bench_named_policies[] = {
	{ "ule", 0, "", "stock ULE placement (FreeBSD's)" },
	{ "hmp", 1, "", "hybrid placement, every switch at its default (docs/hmp.md)" },
	{ "hmp-no-d", 1, "steer=0", "hmp without (d), the steering by HFI score" },
	{ "hmp-no-upmigrate", 1, "upmigrate=0", "hmp without up-migration" },
	{ "hmp-report", 1, "upmigrate=0:smt_steer=0:best=0:latency=0:perf0=strict",
	  "the seed report's (a)-(f) searches only: no best, latency, smt_steer, up-migration; perf0=strict" },
	{ "hmp+class", 1, "class_aware=1", "hmp with interactive threads kept on the fastest CPUs" },
	{ "hmp-ee", 1, "metric=ee", "hmp placing by the HFI energy-efficiency scores (kern.sched.hmp.metric=ee)" },
	{ "hmp-itd", 1, "itd=1",
	  "hmp scoring each thread's CPUs by its Thread Director class (HFI class columns), with class swaps" },
	{ "primary-p", 0, "primary=performance",
	  "ULE with the P-cores as primary domain (scx_bpfland --primary-domain)" },
	{ "primary-e", 0, "primary=efficiency", "ULE with the E-cores as primary domain" },
};
const unsigned bench_nnamed = sizeof(bench_named_policies) / sizeof(bench_named_policies[0]);

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
	if (v->group == SV_POLICY)
		value = p->hmp;   /* its words are "ule|hmp" */
	else if (v->group == SV_PLACE || (v->group == SV_HMP && p->hmp))
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
