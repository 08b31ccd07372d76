/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_props.c — the property run (sim_props.h; docs/sim.md "Property
 * run"). For each generated machine, each workload of the plan
 * (sim_props_plan.c: cpu, make, pgbench, hackbench, schbench, frames) and
 * each of its thread counts T, the plan's number of runs (seeded as a
 * sweep seeded with the machine's number: the same seeds for every
 * policy) of ule, ule with every hmp input scrambled, hmp, and for cpu the
 * oracle where it is an upper bound; then the checks:
 *   P1  median(hmp) >= 0.99 × median(ule) for cpu, 0.98 × for the others
 *       (a lower-is-better figure inverted), where the machine's HFI table
 *       describes the speeds the work clock runs it at (sim_props_facts_of);
 *       on the others how hmp fares is reported, not checked;
 *   P2  cpu: median(hmp) >= 0.97 × median(oracle) where the oracle is an
 *       upper bound for hmp;
 *   P3  cpu: in every run of ule, hmp and the oracle, no CPU idle while
 *       another has two or more threads for longer than the balancer's
 *       longest gap plus a tick (sim_watch.c);
 *   P4  ule with hmp's inputs scrambled gives the same value, engine
 *       events, cost counts and placement segments as ule, in the first
 *       run of every count of every workload.
 * --policy NAME puts any registered policy (or named bench policy) in
 * hmp's place. With --control POLICY both sides of P1 are POLICY's, the second under
 * other seeds (the sweep seed plus 2^32), and only P1 is checked, on every
 * machine: the noise of the medians (docs/sim.md, "The runs").
 * A machine's checks give a record (its counts, its P1 points in order,
 * its report) that the run adds to its totals in machine order, so
 * --procs checks machines in several processes (sim_procs.c) and prints
 * the same bytes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <bench/bench_math.h>
#include <bench/bench_out.h>
#include <lib/strbuf.h>
#include <sched/ule.h>
#include <sim/sim_clock.h>
#include <sim/sim_gen.h>
#include <sim/sim_procs.h>
#include <sim/sim_policy.h>
#include <sim/sim_props.h>
#include <sim/sim_props_tally.h>
#include <sim/sim_report.h>

#define CONTROL_SEED_OFFSET (1ull << 32)   /* --control's second side: the sweep seed plus this */
#define LINES_PER_WL 40                    /* failure lines of one workload on one machine, at most */
#define LINE_MAX_BYTES 512
/* A machine's report: every workload's lines and its reproduce lines fit. */
#define REPORT_BYTES (SIM_PROPS_NWL * (LINES_PER_WL * LINE_MAX_BYTES + 4096))

/* The policies of a run: ule, the candidate (hmp unless --policy names
 * another registered one) and the oracle; with --control, control_pol. */
static struct sim_policy pols[NPOL], control_pol;

/* One machine being checked: its facts, what it gives the run, its
 * failures as text. */
struct mstate {
	const struct sim_props *pr;
	struct props_record rec;
	struct props_point p1[SIM_PROPS_NWL * SIM_PROPS_MAX_COUNTS];
	uint64_t seed;
	const struct sim_machine *sm;
	struct sim_props_facts f;
	uint64_t allowed_ns;     /* P3's limit */
	int failed[SIM_PROPS_NWL][NPROP], p3_failed[NPOL], nosample[SIM_PROPS_NWL], any;
	/* the workload being checked */
	int w, runs, runs_used;   /* the plan's runs; the most a count of it took */
	const struct bench_wl *bw;
	uint64_t opt[BENCH_WL_OPT_MAX];
	int nfail, fail_counts[SIM_PROPS_MAX_COUNTS], lines, lines_left_out;
	char text[REPORT_BYTES];
	size_t n;
};

/* Appends a printf-formatted line to the machine's report. */
static void put(struct mstate *ms, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct mstate *ms, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(ms->text) - ms->n;
	va_start(ap, fmt);
	int k = vsnprintf(ms->text + ms->n, room, fmt, ap);
	va_end(ap);
	if (k >= 0 && (size_t)k < room)
		ms->n += (size_t)k;
}

/* A failure line of the workload being checked: at most LINES_PER_WL. */
static void note(struct mstate *ms, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct mstate *ms, const char *fmt, ...)
{
	char line[LINE_MAX_BYTES];
	va_list ap;
	if (ms->lines++ >= LINES_PER_WL) {
		ms->lines_left_out++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	put(ms, "  %s %s", sim_props_wls[ms->w].name, line);
}

/* A median given twice (median2) in the workload's decimals, into buf. */
static const char *val(const struct bench_wl *bw, int64_t median2, char *buf, size_t len)
{
	struct strbuf sb;
	strbuf_init(&sb, buf, len);
	bench_put_fixed(&sb, (int64_t)bench_div_round((uint64_t)median2, 2), bw->decimals);
	return buf;
}

/* Twice the median of v[0..n-1] (exact: the two middle values summed for
 * even n, the middle one doubled for odd); v is sorted in place. */
static int64_t median2(int64_t *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int64_t x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return n % 2 ? 2 * v[n / 2] : v[n / 2 - 1] + v[n / 2];
}

/* Runs cfg into *res; 0, or -1 (noted, counted) when it gave no sample. */
static int run(struct mstate *ms, const struct sim_config *cfg, int r, struct sim_result *res)
{
	char a[24];
	int rc = sim_run(cfg, res);
	ms->rec.s.runs++;
	ms->rec.s.events += res->events;
	if (!rc && res->value >= 0 && res->value <= BENCH_VALUE_MAX)
		return 0;
	note(ms, "%s at %d %s, run %d: no sample\n", cfg->policy->name, cfg->threads,
	     sim_props_noun(ms->bw, cfg->threads, a, sizeof(a)), r + 1);
	ms->nosample[ms->w] = 1;
	ms->rec.s.nosample++;
	return -1;
}

/* Where two runs of ule differ (value, engine events, cost counts,
 * placement segments) into buf; 0 when they are the same. */
static int differ(const struct sim_result *a, const struct sim_result *b, char *buf, size_t len)
{
	if (a->value != b->value)
		return snprintf(buf, len, "value %lld, scrambled %lld", (long long)a->value, (long long)b->value), 1;
	if (a->events != b->events)
		return snprintf(buf, len, "engine events %llu, scrambled %llu", (unsigned long long)a->events,
				(unsigned long long)b->events), 1;
	if (memcmp(a->cost, b->cost, sizeof(a->cost)))
		return snprintf(buf, len, "scheduler cost counts differ"), 1;
	for (size_t i = 0; i < a->nseg || i < b->nseg; i++) {
		if (i >= a->nseg || i >= b->nseg)
			return snprintf(buf, len, "%zu placement segments, scrambled %zu", a->nseg, b->nseg), 1;
		const struct sim_seg *x = &a->seg[i], *y = &b->seg[i];
		if (x->thread != y->thread || x->cpu != y->cpu || x->start != y->start || x->end != y->end)
			return snprintf(buf, len, "placement segment %zu: thread %u on cpu %u from %llu ns, scrambled "
					"thread %u on cpu %u from %llu ns", i, x->thread, x->cpu,
					(unsigned long long)x->start, y->thread, y->cpu, (unsigned long long)y->start), 1;
	}
	return 0;
}

/* A failure of property p at thread count T (counted once per point). */
static void failed_at(struct mstate *ms, int p, int T, int *point_failed)
{
	if (!point_failed[p]) {
		point_failed[p] = 1;
		ms->rec.s.failed[p]++;
	}
	ms->failed[ms->w][p] = 1;
	ms->any = 1;
	if (!ms->nfail || ms->fail_counts[ms->nfail - 1] != T)
		ms->fail_counts[ms->nfail++] = T;
}

/* P3 for one run's observer result w of policy p at T. */
static void check_watch(struct mstate *ms, int p, int T, int r, const struct sim_watch_result *w,
			int *point_failed, int *p3_point)
{
	struct props_record *m = &ms->rec;
	char a[32], b[32], c[32];
	if (w->longest_ns > m->longest_ns[p]) {
		m->longest_ns[p] = w->longest_ns;
		m->longest_threads[p] = T;
	}
	if (w->watched && w->longest_ns <= ms->allowed_ns)
		return;
	failed_at(ms, P3, T, point_failed);
	if (!p3_point[p]) {
		p3_point[p] = 1;
		m->s.p3_failed[p]++;
	}
	ms->p3_failed[p] = 1;
	if (!w->watched)
		note(ms, "P3 %s at %d thread%s, run %d: the workload's threads never all started\n", sim_props_pol_name[p], T,
		     T == 1 ? "" : "s", r + 1);
	else
		note(ms, "P3 %s at %d thread%s, run %d: cpu %d idle while cpu %d had %d threads for %s from %s "
		     "(limit %s)\n", sim_props_pol_name[p], T, T == 1 ? "" : "s", r + 1, w->idle_cpu, w->busy_cpu,
		     w->busy_load, sim_props_secs(w->longest_ns, a, sizeof(a)), sim_props_secs(w->at_ns, b, sizeof(b)),
		     sim_props_secs(ms->allowed_ns, c, sizeof(c)));
}

/* P1 at T from the medians (given twice) of n runs: checked where it
 * applies (and always in the control run), else kept for information;
 * the point goes into the machine's record either way. */
static void check_p1(struct mstate *ms, int T, int n, int64_t ule2, int64_t hmp2, int *point_failed)
{
	const struct sim_props_wl *pw = &sim_props_wls[ms->w];
	int lower = !ms->bw->higher_is_better;
	int64_t num = lower ? ule2 : hmp2, den = lower ? hmp2 : ule2;
	if (den <= 0)
		return;
	int64_t ratio = (int64_t)((__int128)num * 10000 / den);   /* medians up to 2 × 10^15 */
	int below = num * 100 < den * pw->min_pct;
	int checked = ms->f.p1_why == SIM_PROPS_P1_APPLIES || ms->pr->control;
	ms->p1[ms->rec.np1++] = (struct props_point){ ratio, ms->w, T, (uint8_t)checked, (uint8_t)below };
	if (!checked || !below)
		return;
	char a[40], b[40], c[24];
	failed_at(ms, P1, T, point_failed);
	const char *who = ms->pr->control ? "other seeds" : sim_props_pol_name[POL_HMP], *base = ms->pr->control ? "seeds" : "ule";
	const char *unit = ms->bw->unit;
	if (lower)
		note(ms, "P1 at %d %s, %d runs: %s %s %s > %s %s %s / 0.%02d (%.2f %%, lower is better)\n", T,
		     sim_props_noun(ms->bw, T, c, sizeof(c)), n, who, val(ms->bw, hmp2, a, sizeof(a)), unit, base,
		     val(ms->bw, ule2, b, sizeof(b)), unit, pw->min_pct, (double)ratio / 100.0);
	else
		note(ms, "P1 at %d %s, %d runs: %s %s %s < 0.%02d x %s %s %s (%.2f %%)\n", T,
		     sim_props_noun(ms->bw, T, c, sizeof(c)), n, who, val(ms->bw, hmp2, a, sizeof(a)), unit, pw->min_pct, base, val(ms->bw, ule2, b, sizeof(b)),
		     unit, (double)ratio / 100.0);
}

/* Run r at thread count T of ule (with P4's scrambled twin in the first
 * run), hmp (in the control run the control policy under other seeds)
 * and, with oracle, the oracle: the samples into v[policy][r]; P3 for cpu. */
static void run_point(struct mstate *ms, int T, int r, int oracle, int64_t (*v)[SIM_PROPS_MAX_RUNS],
		      int *point_failed, int *p3_point)
{
	const struct sim_props *pr = ms->pr;
	struct sim_config cfg = pr->base;
	struct sim_result ule, other;
	char a[40], d[256];
	cfg.sm = ms->sm;
	cfg.wl = sim_workload_find(sim_props_wls[ms->w].name);
	cfg.opt = ms->opt;
	cfg.threads = T;
	cfg.seed = sim_run_seed(ms->seed, T, r);
	cfg.watch = ms->w == 0 && !pr->control;
	cfg.policy = pr->control ? &control_pol : &pols[POL_ULE];
	cfg.trace = !pr->control && r == 0;
	int bad = run(ms, &cfg, r, &ule);
	if (!ms->allowed_ns) {   /* the run's balance interval, its ticks in ns */
		uint64_t interval = (uint64_t)balance_interval, tick = 1000000000ull / (uint64_t)cfg.hz;
		ms->allowed_ns = ((interval / 2 > 1 ? interval / 2 : 1) + interval) * tick;
	}
	if (cfg.trace) {   /* P4: the first run */
		cfg.hmp_scramble = 1;
		cfg.scramble_seed = ms->seed;
		bad |= run(ms, &cfg, r, &other);
		if (!bad && differ(&ule, &other, d, sizeof(d))) {
			failed_at(ms, P4, T, point_failed);
			note(ms, "P4 ule at %d %s, run %d: %s\n", T, sim_props_noun(ms->bw, T, a, sizeof(a)), r + 1, d);
		}
		free(other.seg);
		free(other.hfi);
	}
	v[POL_ULE][r] = ule.value;
	if (cfg.watch)
		check_watch(ms, POL_ULE, T, r, &ule.watch, point_failed, p3_point);
	free(ule.seg);
	free(ule.hfi);
	cfg.hmp_scramble = 0;
	cfg.trace = 0;
	for (int p = POL_HMP; p <= (oracle ? POL_ORACLE : POL_HMP); p++) {
		cfg.policy = p == POL_HMP && pr->control ? &control_pol : &pols[p];
		if (pr->control)
			cfg.seed = sim_run_seed(ms->seed + CONTROL_SEED_OFFSET, T, r);
		run(ms, &cfg, r, &other);
		v[p][r] = other.value;
		if (cfg.watch)
			check_watch(ms, p, T, r, &other.watch, point_failed, p3_point);
		free(other.seg);
		free(other.hfi);
	}
}

/* Twice the median of policy p's first n samples of v (v untouched). */
static int64_t median_of(int64_t (*v)[SIM_PROPS_MAX_RUNS], int p, int n)
{
	int64_t copy[SIM_PROPS_MAX_RUNS];
	memcpy(copy, v[p], (size_t)n * sizeof(copy[0]));
	return median2(copy, n);
}

/* Whether P1 (where it is checked) or P2 (with oracle) fails on the
 * medians of the first n runs. */
static int fails(const struct mstate *ms, int64_t (*v)[SIM_PROPS_MAX_RUNS], int n, int oracle)
{
	int64_t ule2 = median_of(v, POL_ULE, n), hmp2 = median_of(v, POL_HMP, n);
	int lower = !ms->bw->higher_is_better, p1 = ms->f.p1_why == SIM_PROPS_P1_APPLIES || ms->pr->control;
	int64_t num = lower ? ule2 : hmp2, den = lower ? hmp2 : ule2;
	return (p1 && den > 0 && num * 100 < den * sim_props_wls[ms->w].min_pct) ||
	       (oracle && hmp2 * 100 < median_of(v, POL_ORACLE, n) * 97);
}

/* Every run of the workload being checked at thread count T, and the
 * checks. A point that fails P1 or P2 on the plan's runs is judged again
 * on SIM_PROPS_MAX_RUNS runs (the first ones and more): medians the
 * runs' own spread cannot move across the threshold (docs/sim.md, "The
 * runs"); its numbers are those. */
static void check_count(struct mstate *ms, int T)
{
	const struct sim_props *pr = ms->pr;
	int n = ms->runs, point_failed[NPROP] = { 0 }, p3_point[NPOL] = { 0 };
	int oracle = ms->w == 0 && ms->f.bound && !pr->control;
	int64_t v[NPOL][SIM_PROPS_MAX_RUNS];
	char a[40], b[40];
	for (int r = 0; r < n; r++)
		run_point(ms, T, r, oracle, v, point_failed, p3_point);
	if (n < SIM_PROPS_MAX_RUNS && fails(ms, v, n, oracle)) {
		for (int r = n; r < SIM_PROPS_MAX_RUNS; r++)
			run_point(ms, T, r, oracle, v, point_failed, p3_point);
		n = SIM_PROPS_MAX_RUNS;
		ms->rec.s.confirmed++;
	}
	ms->runs_used = n > ms->runs_used ? n : ms->runs_used;
	int64_t ule2 = median_of(v, POL_ULE, n), hmp2 = median_of(v, POL_HMP, n);
	check_p1(ms, T, n, ule2, hmp2, point_failed);
	if (oracle) {
		int64_t or2 = median_of(v, POL_ORACLE, n);
		if (hmp2 * 100 < or2 * 97) {
			failed_at(ms, P2, T, point_failed);
			note(ms, "P2 at %d thread%s, %d runs: %s %s < 0.97 x oracle %s (%.2f %%)\n", T, T == 1 ? "" : "s", n,
			     sim_props_pol_name[POL_HMP],
			     val(ms->bw, hmp2, a, sizeof(a)), val(ms->bw, or2, b, sizeof(b)),
			     100.0 * (double)hmp2 / (double)or2);
		}
	}
}

/* The workload's options on a command line ("--time 2 --max-prime 10000
 * ..."; make's --seed as --wl-seed, schedsim's own --seed being another). */
static const char *options_text(const struct mstate *ms, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int k = 0; k < ms->bw->nopts && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, " %s%s %llu", strcmp(ms->bw->opts[k].name, "seed") ? "--" : "--wl-",
				      ms->bw->opts[k].name, (unsigned long long)ms->opt[k]);
	return buf;
}

/* The lines that reproduce the failing points of the workload just checked. */
static void reproduce(struct mstate *ms)
{
	const struct sim_props *pr = ms->pr;
	const char *name = sim_props_wls[ms->w].name;
	char list[SIM_PROPS_MAX_COUNTS * 4] = "", opts[512];
	int shown = ms->nfail < BENCH_MAX_COLS ? ms->nfail : BENCH_MAX_COLS;
	for (int i = 0; i < shown; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", ms->fail_counts[i]);
	unsigned long long s = (unsigned long long)ms->seed;
	const char *args = pr->args;
	options_text(ms, opts, sizeof(opts));
	if (ms->lines_left_out)
		put(ms, "  %s: (%d more lines left out)\n", name, ms->lines_left_out);
	put(ms, "  %s: reproduce its checks: schedsim --properties 1 --seed %llu --workload %s%s --threads %s --runs %d%s%s%s%s\n",
	    name, s, name, opts, list, ms->runs_used, args[0] ? " " : "", args, pr->control ? " --control " : "",
	    pr->control ? pr->control_name : "");
	put(ms, "  %s: reproduce the runs:   schedsim --gen %llu > gen-%llu.machine; schedsim --machine gen-%llu.machine "
	    "--workload %s%s --threads %s --runs %d%s%s", name, s, s, s, name, opts, list, ms->runs_used, args[0] ? " " : "",
	    args);
	if (pr->control)
		put(ms, " --policy %s --seed %llu, and the same with --seed %llu\n", pr->control_name, s,
		    s + CONTROL_SEED_OFFSET);
	else
		put(ms, " --policy ule,%s%s --seed %llu%s\n", sim_props_pol_name[POL_HMP], ms->w == 0 && ms->f.bound ? ",oracle" : "", s,
		    ms->failed[ms->w][P3] ? " --trace trace.csv" : "");
	if (ms->failed[ms->w][P4])
		put(ms, "  %s: P4: the same with --policy ule --trace ule.csv, and with --policy ule --hmp-scramble %llu "
		    "--trace scrambled.csv: the trace files should be the same\n", name, s);
	if (ms->nfail > shown)
		put(ms, "  %s: (the first %d of %d failing counts)\n", name, shown, ms->nfail);
}

/* The options of workload w on this machine: the plan's (a run length per
 * P-core of capacity scaled to the machine), or --workload's. */
static void options_of(struct mstate *ms, int w)
{
	const struct sim_props *pr = ms->pr;
	const struct sim_props_wl *pw = &sim_props_wls[w];
	if (pr->only == w)
		memcpy(ms->opt, pr->only_opt, sizeof(ms->opt));
	else
		sim_props_defaults(w, ms->opt);
	if (pw->per_capacity && !(pr->only == w && pr->only_len_given))
		ms->opt[bench_wl_opt_index(ms->bw, pw->len_opt)] =
			pw->len * ((ms->f.capacity + MACHINE_SPEED_ONE - 1) / MACHINE_SPEED_ONE);
}

/* Runs and checks workload w on the machine; its failures into the text. */
static void check_workload(struct mstate *ms, int w)
{
	const struct sim_props *pr = ms->pr;
	struct props_sums *t = &ms->rec.s;
	int counts[SIM_PROPS_MAX_COUNTS];
	ms->w = w;
	ms->bw = bench_wl_find(sim_props_wls[w].name);
	ms->runs = pr->runs ? pr->runs : sim_props_wls[w].runs;
	ms->nfail = ms->lines = ms->lines_left_out = ms->runs_used = 0;
	options_of(ms, w);
	int n = sim_props_counts(pr, w, &ms->f, ms->opt, counts);
	int p1 = ms->f.p1_why == SIM_PROPS_P1_APPLIES || pr->control;
	for (int k = 0; k < n; k++) {
		t->points[P1] += p1;
		t->points[P2] += w == 0 && ms->f.bound && !pr->control;
		t->points[P3] += w == 0 && !pr->control;
		t->points[P4] += !pr->control;
		check_count(ms, counts[k]);
	}
	t->wl_machines[w] += p1 && n;
	t->wl_failed_machines[w] += ms->failed[w][P1];
	if (ms->nfail || ms->nosample[w])
		reproduce(ms);
}

/* Appends printf-formatted text to out (len bytes, *n of them used, *n <
 * len), as much of it as fits. */
static void out_add(char *out, size_t len, size_t *n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void out_add(char *out, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(out + *n, len - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n += (size_t)k < len - *n ? (size_t)k : len - *n - 1;
}

/* Runs and checks machine seed: its record in ms->rec and ms->p1, its
 * report (the FAIL block when something failed) in out, *nout bytes. */
static void check_machine(const struct sim_props *pr, struct mstate *ms, uint64_t seed, char *out, size_t len,
			  size_t *nout)
{
	static struct sim_machine sm;
	static char text[SIM_GEN_TEXT_MAX];
	char err[600];
	if (sim_gen_load(seed, &sm, text, err, sizeof(err)))
		sim_fatal("generated machine %llu refused: %s", (unsigned long long)seed, err);
	memset(ms, 0, sizeof(*ms));
	ms->pr = pr;
	ms->seed = seed;
	ms->sm = &sm;
	sim_props_facts_of(&sm.m, &ms->f);
	for (int w = 0; w < SIM_PROPS_NWL; w++)
		if (pr->workloads & (1u << w))
			check_workload(ms, w);
	struct props_record *m = &ms->rec;
	m->seed = seed;
	m->one_type = ms->f.one_type;
	int applies[NPROP] = { ms->f.p1_why == SIM_PROPS_P1_APPLIES || pr->control,
			       ms->f.bound && !pr->control && (pr->workloads & 1), !pr->control && (pr->workloads & 1),
			       !pr->control };
	for (int p = 0; p < NPROP; p++) {
		int failed = 0;
		for (int w = 0; w < SIM_PROPS_NWL; w++)
			failed |= ms->failed[w][p];
		m->s.machines[p] += applies[p];
		m->s.skipped[p] += !applies[p];
		m->s.failed_machines[p] += failed;
	}
	m->s.p1_skipped[pr->control ? SIM_PROPS_P1_APPLIES : ms->f.p1_why]++;
	for (int p = 0; p < NPOL; p++)
		m->s.p3_machines[p] += ms->p3_failed[p];
	int nosample = 0;
	for (int w = 0; w < SIM_PROPS_NWL; w++)
		nosample |= ms->nosample[w];
	*nout = 0;
	if (!ms->any && !nosample)
		return;
	size_t n = 0;
	out_add(out, len, &n, "FAIL machine %llu (%s, %u CPUs):", (unsigned long long)seed, sm.m.model, sm.m.cpu_count);
	for (int w = 0, first = 1; w < SIM_PROPS_NWL; w++) {
		if (!ms->failed[w][P1] && !ms->failed[w][P2] && !ms->failed[w][P3] && !ms->failed[w][P4] && !ms->nosample[w])
			continue;
		out_add(out, len, &n, "%s %s", first ? "" : ";", sim_props_wls[w].name);
		for (int p = 0; p < NPROP; p++)
			if (ms->failed[w][p])
				out_add(out, len, &n, " P%d", p + 1);
		if (ms->nosample[w])
			out_add(out, len, &n, " no sample");
		first = 0;
	}
	out_add(out, len, &n, "\n%.*s--- machine seed %llu ---\n%s--- end ---\n\n", (int)ms->n, ms->text,
		(unsigned long long)seed, text);
	*nout = n;
}

/* sim_procs_make for the property run: checks machine first + i; its
 * record, P1 points and report as bytes. */
static size_t machine_make(uint64_t i, void *ctx, const void **bytes)
{
	static struct mstate ms;
	static char buf[sizeof(struct props_record) + sizeof(ms.p1) + REPORT_BYTES + SIM_GEN_TEXT_MAX + 1024];
	const struct sim_props *pr = ctx;
	size_t head = sizeof(ms.rec), room = sizeof(buf) - head - sizeof(ms.p1), ntext;
	check_machine(pr, &ms, pr->first + i, buf + head + sizeof(ms.p1), room, &ntext);
	size_t np1 = ms.rec.np1 * sizeof(ms.p1[0]);
	ms.rec.ntext = ntext;
	memcpy(buf, &ms.rec, head);
	memcpy(buf + head, ms.p1, np1);
	memmove(buf + head + np1, buf + head + sizeof(ms.p1), ntext);
	*bytes = buf;
	return head + np1 + ntext;
}

static struct props_tally run_tally;   /* the run's, in machine_take's order */

/* sim_procs_take for the property run: machine first + i's bytes (from
 * machine_make) added to the run's figures, its report printed. */
static void machine_take(uint64_t i, const void *bytes, size_t n, void *ctx)
{
	const struct sim_props *pr = ctx;
	struct props_record m;
	const char *b = bytes;
	if (n < sizeof(m))
		sim_fatal("machine %llu: its record is cut short", (unsigned long long)(pr->first + i));
	memcpy(&m, b, sizeof(m));
	if (m.seed != pr->first + i || m.np1 > SIM_PROPS_NWL * SIM_PROPS_MAX_COUNTS ||
	    n != sizeof(m) + m.np1 * sizeof(struct props_point) + m.ntext)
		sim_fatal("machine %llu: its record is malformed", (unsigned long long)(pr->first + i));
	sim_props_tally_add(&run_tally, &m, b + sizeof(m));
	if (m.ntext) {
		fwrite(b + sizeof(m) + m.np1 * sizeof(struct props_point), 1, m.ntext, stdout);
		fflush(stdout);   /* a long run shows each failing machine as it is found */
	}
}

/* See sim_props.h. */
int sim_props_run(const struct sim_props *pr)
{
	struct props_tally *t = &run_tally;
	char err[200];
	sim_props_tally_init(t);
	sim_props_pol_name[POL_HMP] = pr->candidate ? pr->candidate : "hmp";
	for (int p = 0; p < NPOL; p++)
		if (sim_policy_parse(sim_props_pol_name[p], &pols[p], err, sizeof(err)))
			sim_fatal("%s", err);
	if (pr->control && sim_policy_parse(pr->control_name, &control_pol, err, sizeof(err)))
		sim_fatal("%s", err);
	sim_props_print_rules(pr);
	double t0 = sim_host_seconds();
	sim_procs_run(pr->count, pr->procs, machine_make, machine_take, (void *)pr);
	sim_props_print_summary(pr, t);
	fprintf(stderr, "schedsim: properties: %llu machines, %llu runs, %llu events in %.2f s\n",
		(unsigned long long)pr->count, (unsigned long long)t->s.runs, (unsigned long long)t->s.events,
		sim_host_seconds() - t0);
	for (int p = 0; p < NPROP; p++)
		if (t->s.failed[p])
			return 1;
	return t->s.nosample ? 1 : 0;
}
