/* SPDX-License-Identifier: BSD-2-Clause */
/* test_sched_vars.c — the scheduler's variable table
 * (kernel/sched/sched_vars.def) and the named policies that read it
 * (kernel/bench/bench_policy_table.c): each line is well formed (names
 * unique and under kern.sched., default in range, words match the range),
 * each variable starts at its default and the hz rules give that default
 * at hz = 100, and every named policy's options name a policy option with
 * a value it takes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched/ule.h>
#include <sched/sched_vars.h>
#include <bench/bench_policy_table.h>
#include <sched/sched_policy.h>

/* Names are unique, under kern.sched., and their short names are unique
 * among the policy options. */
static void test_names_unique(void **state)
{
	(void)state;
	assert_true(sched_nvars >= 30);
	for (unsigned i = 0; i < sched_nvars; i++) {
		const struct sched_var *v = &sched_vars[i];
		assert_true(strncmp(v->name, "kern.sched.", 11) == 0);
		assert_ptr_equal(sched_var_find(v->name), v);
		assert_ptr_equal(sched_var_of(v->var), v);
		assert_true(v->descr[0] && v->counterpart[0]);
		for (unsigned j = 0; j < i; j++) {
			assert_string_not_equal(v->name, sched_vars[j].name);
			assert_ptr_not_equal(v->var, sched_vars[j].var);
			if (v->group != SV_ULE && v->group != SV_POLICY && sched_vars[j].group != SV_ULE &&
			    sched_vars[j].group != SV_POLICY)
				assert_string_not_equal(sched_var_short(v), sched_var_short(&sched_vars[j]));
		}
	}
	assert_null(sched_var_find("kern.sched.nosuch"));
	assert_null(sched_var_find("kern.sched.slic"));
	assert_string_equal(sched_var_short(sched_var_find("kern.sched.hmp.steer")), "steer");
}

/* A default lies in its range; words have exactly max + 1 entries and
 * min 0; numbers have no words and a unit. */
static void test_ranges_and_words(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sched_nvars; i++) {
		const struct sched_var *v = &sched_vars[i];
		assert_true(v->min <= v->def && v->def <= v->max);
		size_t n;
		if (v->kind == SV_NUMBER) {
			assert_string_equal(v->words, "");
			assert_true(v->unit[0]);
			assert_null(sched_var_word(v, 0, &n));
			continue;
		}
		assert_int_equal(v->min, 0);
		for (int64_t k = 0; k <= v->max; k++) {
			const char *w = sched_var_word(v, k, &n);
			assert_non_null(w);
			char word[32];
			assert_true(n > 0 && n < sizeof(word));
			memcpy(word, w, n);
			word[n] = 0;
			assert_int_equal(sched_var_word_value(v, word), k);
		}
		assert_null(sched_var_word(v, v->max + 1, &n));
		assert_null(sched_var_word(v, -1, &n));
	}
	const struct sched_var *m = sched_var_find("kern.sched.hmp.metric");
	assert_int_equal(sched_var_word_value(m, "ee"), HMP_METRIC_EE);
	assert_int_equal(sched_var_word_value(m, "e"), -1);
	assert_int_equal(sched_var_word_value(m, "eee"), -1);
	assert_int_equal(sched_var_word_value(m, ""), -1);
	assert_int_equal(sched_var_word_value(sched_var_find("kern.sched.policy"), "hmp"), SCHED_POLICY_HMP);
	assert_int_equal(sched_var_word_value(sched_var_find("kern.sched.primary"), "efficiency"),
			 SCHED_PRIMARY_EFFICIENCY);
}

/* Before any sched_init() each variable holds its default; the hz rules
 * give the default at hz = 100, follow other rates as FreeBSD's
 * sched_initticks() does, and leave the fixed variables alone. */
static void test_defaults_and_hz(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sched_nvars; i++) {
		assert_int_equal(*sched_vars[i].var, sched_vars[i].def);
		assert_int_equal(sched_var_default(&sched_vars[i], 100), sched_vars[i].def);
	}
	sched_debug = 1;
	sched_vars_follow_hz(1000);
	assert_int_equal(sched_slice, 100);
	assert_int_equal(balance_interval, 1000);
	assert_int_equal(sched_idlespinthresh, 20);
	assert_int_equal(sched_affinity_ticks, 1);
	assert_int_equal(sched_debug, 1);
	sched_vars_follow_hz(5);
	assert_int_equal(sched_slice, 1);
	assert_int_equal(sched_idlespinthresh, 4000);
	sched_vars_follow_hz(100);
	sched_debug = 0;
	for (unsigned i = 0; i < sched_nvars; i++)
		assert_int_equal(*sched_vars[i].var, sched_vars[i].def);
}

/* The named policies: names unique; every option names an hmp switch or
 * kern.sched.primary (no hz rule, so a default is one value) and takes
 * its value; a policy pins what its base reads and leaves the rest. */
static void test_named_policies(void **state)
{
	(void)state;
	assert_true(bench_nnamed >= 8);
	assert_int_equal(bench_policy_count(), bench_nnamed + sched_npolicies - 2);   /* all but ule, hmp */
	assert_null(bench_policy_at(bench_policy_count()));
	for (unsigned i = 0; i < bench_policy_count(); i++) {
		const struct bench_named_policy *p = bench_policy_at(i);
		const struct sched_policy *base = sched_policy_find(p->base);
		assert_non_null(base);
		for (unsigned j = 0; j < i; j++)
			assert_string_not_equal(p->name, bench_policy_at(j)->name);
		char opts[128];
		snprintf(opts, sizeof(opts), "%s", p->opts);
		for (char *save, *o = strtok_r(opts, ":", &save); o; o = strtok_r(NULL, ":", &save)) {
			char *eq = strchr(o, '=');
			assert_non_null(eq);
			*eq = 0;
			const struct sched_var *v = NULL;
			for (unsigned k = 0; k < sched_nvars; k++)
				if ((sched_vars[k].group == SV_HMP || sched_vars[k].group == SV_PLACE) &&
				    strcmp(sched_var_short(&sched_vars[k]), o) == 0)
					v = &sched_vars[k];
			if (!v)
				fail_msg("policy %s: option %s names no hmp switch or placement variable", p->name, o);
			if (v->kind == SV_NUMBER) {
				long x = strtol(eq + 1, NULL, 10);
				assert_true(x >= v->min && x <= v->max);
			} else {
				assert_true(sched_var_word_value(v, eq + 1) >= 0);
			}
		}
		for (unsigned k = 0; k < sched_nvars; k++) {
			const struct sched_var *v = &sched_vars[k];
			char buf[64];
			int pinned = bench_named_value(p, v, buf, sizeof(buf));
			int want = v->group == SV_POLICY || v->group == SV_PLACE || (v->group == SV_HMP && base->hmp_switches);
			assert_int_equal(pinned, want);
			if (pinned)
				assert_int_equal(v->hz, SV_FIXED);
		}
	}
	const struct bench_named_policy *report = &bench_named_policies[4];
	char buf[64];
	assert_string_equal(report->name, "hmp-report");
	assert_true(bench_named_value(report, sched_var_find("kern.sched.hmp.perf0"), buf, sizeof(buf)));
	assert_string_equal(buf, "strict");
	assert_true(bench_named_value(report, sched_var_find("kern.sched.hmp.steer"), buf, sizeof(buf)));
	assert_string_equal(buf, "1");
	assert_true(bench_named_value(report, sched_var_find("kern.sched.policy"), buf, sizeof(buf)));
	assert_string_equal(buf, "hmp");
	assert_false(bench_named_value(report, sched_var_find("kern.sched.hmp.audit"), buf, sizeof(buf)));
	assert_false(bench_named_value(&bench_named_policies[0], sched_var_find("kern.sched.hmp.steer"), buf,
				       sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_ranges_and_words),
		cmocka_unit_test(test_defaults_and_hz),
		cmocka_unit_test(test_named_policies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
