/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_policy.c — policy specs, the kern.sched.* variables schedsim can set
 * (the scheduler's variable table, kernel/sched/sched_vars.def, with the
 * kernel's ranges and words), the named policies (kernel/bench/
 * bench_policy_table.c, the kernel's `bench` ones) and the pinning of the
 * oracle and random policies (see sim_policy.h).
 */
#include <stdio.h>
#include <string.h>
#include <lib/parse.h>
#include <sched/ule.h>
#include <sched/sched_policy.h>
#include <sim/sim.h>
#include <sim/sim_policy.h>
#include <sched/sched_vars.h>
#include <bench/bench_policy_table.h>

#define SIM_MAX_VARS 64

static int64_t saved[SIM_MAX_VARS];

/* See sim_policy.h. */
void sim_tunables_save(void)
{
	for (unsigned i = 0; i < sched_nvars && i < SIM_MAX_VARS; i++)
		saved[i] = *sched_vars[i].var;
}

/* See sim_policy.h. */
void sim_tunables_restore(void)
{
	for (unsigned i = 0; i < sched_nvars && i < SIM_MAX_VARS; i++)
		*sched_vars[i].var = saved[i];
}

/* See sim_policy.h. */
void sim_setting_apply(const struct sim_setting *s)
{
	*s->var->var = s->value;
}

/* VALUE for variable v (a word of its list, or a number in its range)
 * into *x; 0, or -1 with a message naming what. */
static int var_value(const struct sched_var *v, const char *value, int64_t *x, const char *what, char *err,
		     size_t len)
{
	if (v->kind != SV_NUMBER) {
		*x = sched_var_word_value(v, value);
		if (*x >= 0)
			return 0;
		snprintf(err, len, "%s: '%s' is not one of %s", what, value, v->words);
		return -1;
	}
	return parse_i64_range(value, v->min, v->max, x, what, err, len);
}

/* v's values into buf: "min..max", or its words joined by sep (with "
 * or a CPU list" for kern.sched.primary). */
static void var_range(const struct sched_var *v, const char *sep, char *buf, size_t len)
{
	size_t n, used = 0;
	buf[0] = 0;
	if (v->kind == SV_NUMBER) {
		snprintf(buf, len, "%lld..%lld", (long long)v->min, (long long)v->max);
		return;
	}
	for (int64_t k = 0; k <= v->max; k++) {
		const char *w = sched_var_word(v, k, &n);
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s", k ? sep : "", (int)n, w);
		if (used >= len)
			return;
	}
	if (v->kind == SV_WORDS_OR_CPUS)
		snprintf(buf + used, len - used, " or a CPU list (kernel)");
}

/* v's default into buf: its word, or its number with the hz rule. */
static void var_default(const struct sched_var *v, char *buf, size_t len)
{
	size_t n;
	const char *w = sched_var_word(v, v->def, &n);
	if (w)
		snprintf(buf, len, "%.*s", (int)n, w);
	else if (v->hz != SV_FIXED)
		snprintf(buf, len, "%lld (%s)", (long long)v->def, sched_var_hz_rule(v));
	else
		snprintf(buf, len, "%lld", (long long)v->def);
}

/* 1 if v is a policy option (SHORT=VALUE in a policy spec). */
static int is_option(const struct sched_var *v)
{
	return v->group == SV_HMP || v->group == SV_COUNT || v->group == SV_PLACE || v->group == SV_PEER;
}

/* See sim_policy.h. */
int sim_sysctl_parse(const char *spec, struct sim_setting *s, char *err, size_t len)
{
	const char *eq = strchr(spec, '=');
	if (!eq) {
		snprintf(err, len, "--sysctl '%s': expected NAME=VALUE", spec);
		return -1;
	}
	char name[SIM_POLICY_NAME_MAX + 1];
	const struct sched_var *v = NULL;
	if ((size_t)(eq - spec) < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
		v = sched_var_find(name);
	}
	if (v && v->group == SV_POLICY) {
		snprintf(err, len, "--sysctl '%s': give the policy with --policy", spec);
		return -1;
	}
	if (v) {
		s->var = v;
		return var_value(v, eq + 1, &s->value, v->name, err, len);
	}
	snprintf(err, len, "--sysctl '%s': unknown variable (schedsim --list shows them)", spec);
	return -1;
}

/* Parses one ":NAME=VALUE" option of policy spec into p. */
static int policy_option(const char *spec, char *word, struct sim_policy *p, char *err, size_t len)
{
	char *eq = strchr(word, '=');
	if (!eq) {
		snprintf(err, len, "policy '%s': option '%s' is not NAME=VALUE", spec, word);
		return -1;
	}
	*eq = 0;
	for (unsigned i = 0; i < sched_nvars; i++) {
		const struct sched_var *v = &sched_vars[i];
		if (!is_option(v) || strcmp(word, sched_var_short(v)))
			continue;
		for (int j = 0; j < p->nopts; j++)
			if (p->opt[j].var == v) {
				snprintf(err, len, "policy '%s': option '%s' given twice", spec, word);
				return -1;
			}
		if (p->nopts == SIM_POLICY_MAX_OPTS) {
			snprintf(err, len, "policy '%s': more than %d options", spec, SIM_POLICY_MAX_OPTS);
			return -1;
		}
		char what[96];
		snprintf(what, sizeof(what), "policy '%s': %s", spec, word);
		p->opt[p->nopts].var = v;
		return var_value(v, eq + 1, &p->opt[p->nopts++].value, what, err, len);
	}
	snprintf(err, len, "policy '%s': unknown option '%s' (schedsim --list shows them)", spec, word);
	return -1;
}

/* The policies only schedsim has, after the named ones of
 * bench_policy_table.c. */
static const struct {
	const char *name;
	int kind;
} pinned[] = { { "oracle", SIM_POL_ORACLE }, { "random", SIM_POL_RANDOM } };
#define NPINNED (sizeof(pinned) / sizeof(pinned[0]))

/* Parses the ":"-separated options of text (a copy is cut up) into p. */
static int policy_options(const char *spec, const char *text, struct sim_policy *p, char *err, size_t len)
{
	char buf[SIM_POLICY_NAME_MAX + 1];
	snprintf(buf, sizeof(buf), "%s", text);
	char *save = NULL;
	for (char *word = strtok_r(buf, ":", &save); word; word = strtok_r(NULL, ":", &save))
		if (policy_option(spec, word, p, err, len))
			return -1;
	return 0;
}

/* See sim_policy.h. */
int sim_policy_parse(const char *spec, struct sim_policy *p, char *err, size_t len)
{
	size_t n = strlen(spec);
	memset(p, 0, sizeof(*p));
	if (n > SIM_POLICY_NAME_MAX) {
		snprintf(err, len, "policy '%.20s...': longer than %d characters", spec, SIM_POLICY_NAME_MAX);
		return -1;
	}
	memcpy(p->name, spec, n + 1);
	size_t base_len = strcspn(spec, ":");
	unsigned nnamed = bench_policy_count();
	for (unsigned k = 0; k < nnamed + NPINNED; k++) {
		const struct bench_named_policy *b = k < nnamed ? bench_policy_at(k) : NULL;
		const char *name = b ? b->name : pinned[k - nnamed].name;
		if (strlen(name) != base_len || strncmp(spec, name, base_len))
			continue;
		if (!b) {
			p->kind = pinned[k - nnamed].kind;
			p->sched = SCHED_POLICY_ULE;
		} else {
			const struct sched_policy *base = sched_policy_find(b->base);
			p->kind = SIM_POL_SCHED;
			p->sched = base ? sched_policy_index(base) : SCHED_POLICY_ULE;
			if (policy_options(spec, b->opts, p, err, len))
				return -1;
		}
		return policy_options(spec, spec + base_len, p, err, len);
	}
	snprintf(err, len, "policy '%s': '%.*s' is not a policy (schedsim --list shows them)", spec,
		 (int)(base_len < 40 ? base_len : 40), spec);
	return -1;
}

/* See sim_policy.h. */
void sim_policy_apply(const struct sim_policy *p)
{
	sched_policy = p->sched;
	for (int i = 0; i < p->nopts; i++)
		sim_setting_apply(&p->opt[i]);
}

/* ---- pinning ---- */

static int pin_order[MACHINE_MAX_CPUS];
static int pin_ncpu;

/* See sim_policy.h. A core of n threads with k busy does speed + (smt -
 * speed)(k - 1)/(n - 1) in all (the work clock's model, emul_workclock_model.h), so
 * its first thread adds speed and each further one (smt - speed)/(n - 1);
 * compared in millionths. */
void sim_oracle_order(const struct machine *m, int *order)
{
	int busy[MACHINE_MAX_CPUS] = { 0 }, used[MACHINE_MAX_CPUS] = { 0 };
	unsigned n = m->cpu_count;
	for (unsigned i = 0; i < n; i++) {
		int best = -1;
		int64_t best_gain = -1;
		for (unsigned c = 0; c < n; c++) {
			const struct machine_cpu *mc = &m->cpu[c];
			unsigned core = 0;
			while (m->cpu[core].core != mc->core)
				core++;   /* the core's first CPU names it */
			if (used[c] || mc->thread != busy[core])
				continue;
			int64_t speed = m->speed[mc->type] ? m->speed[mc->type] : MACHINE_SPEED_ONE;
			int64_t gain = speed * 1000;
			if (busy[core] > 0)
				gain = ((int64_t)m->smt_throughput[mc->type] - speed) * 1000 / (mc->smt_threads - 1);
			if (gain > best_gain) {
				best_gain = gain;
				best = (int)c;
			}
		}
		unsigned core = 0;
		while (m->cpu[core].core != m->cpu[best].core)
			core++;
		busy[core]++;
		used[best] = 1;
		order[i] = best;
	}
}

/* See sim_policy.h. */
void sim_policy_prepare(const struct sim_policy *p, const struct machine *m, uint64_t seed)
{
	pin_ncpu = (int)m->cpu_count;
	if (p->kind == SIM_POL_ORACLE) {
		sim_oracle_order(m, pin_order);
	} else if (p->kind == SIM_POL_RANDOM) {
		uint64_t s = seed ^ 0x72616e646f6d0000ull;
		for (int i = 0; i < pin_ncpu; i++)
			pin_order[i] = i;
		for (int i = pin_ncpu - 1; i > 0; i--) {
			int j = (int)(sim_mix(&s) % (uint64_t)(i + 1)), t = pin_order[i];
			pin_order[i] = pin_order[j];
			pin_order[j] = t;
		}
	}
}

/* See sim_policy.h. */
const struct cpuset *sim_policy_pin(const struct sim_policy *p, int k, struct cpuset *buf)
{
	if (p->kind != SIM_POL_ORACLE && p->kind != SIM_POL_RANDOM)
		return NULL;
	cpuset_zero(buf);
	cpuset_set(buf, (unsigned)pin_order[k % pin_ncpu]);
	return buf;
}

/* Lists the policies, the options and the variables (schedsim --list). */
void sim_policy_list(FILE *f)
{
	fprintf(f, "policies (POLICY[:NAME=VALUE]...):\n");
	for (unsigned i = 0; i < bench_policy_count(); i++) {
		const struct bench_named_policy *b = bench_policy_at(i);
		fprintf(f, "  %-16s %s%s%s\n", b->name, b->base, b->opts[0] ? ":" : "", b->opts);
	}
	for (unsigned i = 0; i < NPINNED; i++)
		fprintf(f, "  %-16s %s (simulator only)\n", pinned[i].name, pinned[i].name);
	fprintf(f, "options (NAME=VALUE):\n");
	for (unsigned i = 0; i < sched_nvars; i++)
		if (is_option(&sched_vars[i]))
			fprintf(f, "  %-16s %s\n", sched_var_short(&sched_vars[i]), sched_vars[i].name);
	fprintf(f, "variables (--sysctl NAME=VALUE; kern.sched.policy is --policy):\n");
	for (unsigned i = 0; i < sched_nvars; i++) {
		const struct sched_var *v = &sched_vars[i];
		char range[64], def[64];
		if (v->group == SV_POLICY)
			continue;
		var_range(v, ", ", range, sizeof(range));
		var_default(v, def, sizeof(def));
		fprintf(f, "  %-32s %s%s%s, default %s: %s\n", v->name, range, v->unit[0] ? " " : "", v->unit, def,
			v->descr);
	}
}

/* See sim_policy.h. */
int sim_vars_markdown(FILE *f, const char *which)
{
	int hmp = !strcmp(which, "hmp"), peers = !strcmp(which, "peers");
	if (!strcmp(which, "policies")) {
		fprintf(f, "| policy | base | options (beyond the defaults) | what |\n| --- | --- | --- | --- |\n");
		for (unsigned i = 0; i < bench_policy_count(); i++) {
			const struct bench_named_policy *b = bench_policy_at(i);
			fprintf(f, "| `%s` | %s | %s | %s |\n", b->name, b->base,
				b->opts[0] ? b->opts : "—", b->descr);
		}
		return 0;
	}
	if (!hmp && !peers && strcmp(which, "ule"))
		return -1;
	fprintf(f, "| variable | default | values | unit | counterpart | meaning |\n");
	fprintf(f, "| --- | --- | --- | --- | --- | --- |\n");
	for (unsigned i = 0; i < sched_nvars; i++) {
		const struct sched_var *v = &sched_vars[i];
		char range[64], def[64];
		if (peers ? v->group != SV_PEER : (v->group == SV_ULE) == hmp || v->group == SV_PEER)
			continue;
		var_range(v, ", ", range, sizeof(range));
		var_default(v, def, sizeof(def));
		fprintf(f, "| `%s` | %s | %s | %s | %s | %s |\n", v->name, def, range, v->unit[0] ? v->unit : "—",
			v->counterpart, v->descr);
	}
	return 0;
}
