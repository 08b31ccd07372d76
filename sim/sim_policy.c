/*
 * sim_policy.c — policy specs, the kern.sched.* variables schedsim can
 * set (with the kernel's sysctl ranges, kernel/shell/cmd_sched.c), and
 * the pinning of the oracle and random policies (see sim_policy.h).
 */
#include <stdio.h>
#include <string.h>
#include <parse.h>
#include "ule.h"
#include "sim.h"
#include "sim_policy.h"

struct sim_knob {
	const char *name;         /* full sysctl name */
	const char *opt;          /* policy option name, NULL if none */
	int64_t *var;
	int64_t min, max;
	const char *const *words; /* values by name (index = value), NULL: a number */
};

static const char *const metric_words[] = { "perf", "ee", NULL };
static const char *const primary_words[] = { "all", "performance", "efficiency", NULL };
static const char *const perf0_words[] = { "sdm", "strict", "overflow", NULL };

static const struct sim_knob knobs[] = {
	{ "kern.sched.hmp.weight", "weight", &hmp_sw_weight, 0, 1, NULL },
	{ "kern.sched.hmp.normalize", "normalize", &hmp_sw_normalize, 0, 1, NULL },
	{ "kern.sched.hmp.smt", "smt", &hmp_sw_smt, 0, 1, NULL },
	{ "kern.sched.hmp.steer", "steer", &hmp_sw_steer, 0, 1, NULL },
	{ "kern.sched.hmp.random", "random", &hmp_sw_random, 0, 1, NULL },
	{ "kern.sched.hmp.highest_random", "highest_random", &hmp_sw_highest_random, 0, 1, NULL },
	{ "kern.sched.hmp.smt_steer", "smt_steer", &hmp_sw_smt_steer, 0, 1, NULL },
	{ "kern.sched.hmp.upmigrate", "upmigrate", &hmp_upmigrate, 0, 1, NULL },
	{ "kern.sched.hmp.class_aware", "class_aware", &hmp_class_aware, 0, 1, NULL },
	{ "kern.sched.hmp.audit", "audit", &hmp_audit, 0, 1, NULL },
	{ "kern.sched.hmp.balance_stats", "balance_stats", &hmp_balance_stats, 0, 1, NULL },
	{ "kern.sched.hmp.best", "best", &hmp_sw_best, 0, 1, NULL },
	{ "kern.sched.hmp.latency", "latency", &hmp_sw_latency, 0, 1, NULL },
	{ "kern.sched.hmp.perf0", "perf0", &hmp_perf0, 0, 2, perf0_words },
	{ "kern.sched.hmp.metric", "metric", &hmp_metric, 0, 1, metric_words },
	{ "kern.sched.primary", "primary", &sched_primary_kind, 0, 2, primary_words },
	{ "kern.sched.slice", NULL, &sched_slice, 1, 1000, NULL },
	{ "kern.sched.interact", NULL, &sched_interact, 0, 100, NULL },
	{ "kern.sched.preempt_thresh", NULL, &preempt_thresh, 0, 256, NULL },
	{ "kern.sched.static_boost", NULL, &static_boost, 0, 255, NULL },
	{ "kern.sched.idlespins", NULL, &sched_idlespins, 0, 1000000, NULL },
	{ "kern.sched.idlespinthresh", NULL, &sched_idlespinthresh, 0, 1000000, NULL },
	{ "kern.sched.affinity", NULL, &sched_affinity_ticks, 0, 10000, NULL },
	{ "kern.sched.balance", NULL, &rebalance, 0, 1, NULL },
	{ "kern.sched.balance_interval", NULL, &balance_interval, 1, 100000, NULL },
	{ "kern.sched.steal_idle", NULL, &steal_idle, 0, 1, NULL },
	{ "kern.sched.steal_thresh", NULL, &steal_thresh, 1, 1000, NULL },
	{ "kern.sched.trysteal_limit", NULL, &trysteal_limit, 0, 16, NULL },
	{ "kern.sched.always_steal", NULL, &always_steal, 0, 1, NULL },
	{ "kern.sched.debug", NULL, &sched_debug, 0, 1, NULL },
};
#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

static int64_t saved[NKNOBS];

/* See sim_policy.h. */
void sim_tunables_save(void)
{
	for (size_t i = 0; i < NKNOBS; i++)
		saved[i] = *knobs[i].var;
}

/* See sim_policy.h. */
void sim_tunables_restore(void)
{
	for (size_t i = 0; i < NKNOBS; i++)
		*knobs[i].var = saved[i];
}

/* See sim_policy.h. */
void sim_setting_apply(const struct sim_setting *s)
{
	*s->knob->var = s->value;
}

/* VALUE for knob k (a word of its list, or a number in its range) into
 * *v; 0, or -1 with a message naming what. */
static int knob_value(const struct sim_knob *k, const char *value, int64_t *v, const char *what,
		      char *err, size_t len)
{
	if (k->words) {
		for (int i = 0; k->words[i]; i++)
			if (strcmp(value, k->words[i]) == 0) {
				*v = i;
				return 0;
			}
		char list[128] = "";
		for (int i = 0; k->words[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
				 k->words[i]);
		snprintf(err, len, "%s: '%s' is not one of %s", what, value, list);
		return -1;
	}
	return parse_i64_range(value, k->min, k->max, v, what, err, len);
}

/* See sim_policy.h. */
int sim_sysctl_parse(const char *spec, struct sim_setting *s, char *err, size_t len)
{
	const char *eq = strchr(spec, '=');
	if (!eq) {
		snprintf(err, len, "--sysctl '%s': expected NAME=VALUE", spec);
		return -1;
	}
	for (size_t i = 0; i < NKNOBS; i++) {
		if (strlen(knobs[i].name) != (size_t)(eq - spec) || strncmp(spec, knobs[i].name, (size_t)(eq - spec)))
			continue;
		s->knob = &knobs[i];
		return knob_value(&knobs[i], eq + 1, &s->value, knobs[i].name, err, len);
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
	for (size_t i = 0; i < NKNOBS; i++) {
		if (!knobs[i].opt || strcmp(word, knobs[i].opt))
			continue;
		for (int j = 0; j < p->nopts; j++)
			if (p->opt[j].knob == &knobs[i]) {
				snprintf(err, len, "policy '%s': option '%s' given twice", spec, word);
				return -1;
			}
		if (p->nopts == SIM_POLICY_MAX_OPTS) {
			snprintf(err, len, "policy '%s': more than %d options", spec, SIM_POLICY_MAX_OPTS);
			return -1;
		}
		char what[96];
		snprintf(what, sizeof(what), "policy '%s': %s", spec, word);
		p->opt[p->nopts].knob = &knobs[i];
		return knob_value(&knobs[i], eq + 1, &p->opt[p->nopts++].value, what, err, len);
	}
	snprintf(err, len, "policy '%s': unknown option '%s' (schedsim --list shows them)", spec, word);
	return -1;
}

/* The named policies of the kernel's `bench` (kernel/shell/
 * cmd_bench_policy.c, docs/bench.md "Policies"), each a base and the
 * options that differ from the kernel's defaults (every run starts from
 * them); tests/host/test_sim.py checks that both lists name the same
 * policies. */
static const struct {
	const char *name;
	int kind;
	const char *opts;   /* ":"-separated NAME=VALUE, "" for none */
} named[] = {
	{ "ule", SIM_POL_ULE, "" },
	{ "hmp", SIM_POL_HMP, "" },
	{ "hmp-no-d", SIM_POL_HMP, "steer=0" },
	{ "hmp-upmigrate", SIM_POL_HMP, "upmigrate=0" },
	{ "hmp-report", SIM_POL_HMP, "upmigrate=0:smt_steer=0:best=0:latency=0:perf0=strict" },
	{ "hmp+class", SIM_POL_HMP, "class_aware=1" },
	{ "primary-p", SIM_POL_ULE, "primary=performance" },
	{ "primary-e", SIM_POL_ULE, "primary=efficiency" },
	{ "oracle", SIM_POL_ORACLE, "" },
	{ "random", SIM_POL_RANDOM, "" },
};
#define NNAMED (sizeof(named) / sizeof(named[0]))

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
	size_t k = 0;
	while (k < NNAMED && (strlen(named[k].name) != base_len || strncmp(spec, named[k].name, base_len)))
		k++;
	if (k == NNAMED) {
		snprintf(err, len, "policy '%s': '%.*s' is not a policy (schedsim --list shows them)", spec,
			 (int)(base_len < 40 ? base_len : 40), spec);
		return -1;
	}
	p->kind = named[k].kind;
	if (policy_options(spec, named[k].opts, p, err, len))
		return -1;
	return policy_options(spec, spec + base_len, p, err, len);
}

/* See sim_policy.h. */
void sim_policy_apply(const struct sim_policy *p)
{
	sched_policy = p->kind == SIM_POL_HMP ? SCHED_POLICY_HMP : SCHED_POLICY_ULE;
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

/* Lists the variables and options (schedsim --list). */
void sim_policy_list(FILE *f)
{
	fprintf(f, "policies (POLICY[:NAME=VALUE]...):\n");
	for (size_t i = 0; i < NNAMED; i++)
		fprintf(f, "  %-16s %s%s%s\n", named[i].name,
			named[i].kind == SIM_POL_HMP ? "hmp" : named[i].kind == SIM_POL_ULE ? "ule" :
			named[i].kind == SIM_POL_ORACLE ? "oracle (simulator only)" : "random (simulator only)",
			named[i].opts[0] ? ":" : "", named[i].opts);
	fprintf(f, "options (NAME=VALUE):\n");
	for (size_t i = 0; i < NKNOBS; i++)
		if (knobs[i].opt)
			fprintf(f, "  %-16s %s\n", knobs[i].opt, knobs[i].name);
	fprintf(f, "variables (--sysctl NAME=VALUE):\n");
	for (size_t i = 0; i < NKNOBS; i++) {
		if (knobs[i].words) {
			fprintf(f, "  %-32s", knobs[i].name);
			for (int w = 0; knobs[i].words[w]; w++)
				fprintf(f, "%s%s", w ? "|" : "", knobs[i].words[w]);
			fprintf(f, "\n");
		} else {
			fprintf(f, "  %-32s %lld..%lld\n", knobs[i].name, (long long)knobs[i].min,
				(long long)knobs[i].max);
		}
	}
}
