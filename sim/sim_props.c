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
#include <sim/sim_policy.h>
#include <sim/sim_props.h>
#include <sim/sim_report.h>

enum { POL_ULE, POL_HMP, POL_ORACLE, NPOL };
enum { P1, P2, P3, P4, NPROP };
#define CONTROL_SEED_OFFSET (1ull << 32)   /* --control's second side: the sweep seed plus this */
#define LINES_PER_WL 40                    /* failure lines of one workload on one machine, at most */
#define LINE_MAX_BYTES 512
/* A machine's report: every workload's lines and its reproduce lines fit. */
#define REPORT_BYTES (SIM_PROPS_NWL * (LINES_PER_WL * LINE_MAX_BYTES + 4096))

/* The policies of a run: ule, the candidate (hmp unless --policy names
 * another registered one) and the oracle; with --control, control_pol. */
static const char *pol_name[NPOL] = { "ule", "hmp", "oracle" };
static struct sim_policy pols[NPOL], control_pol;

/* P1 of one workload over the run (points: machine and count pairs). */
struct wl_tally {
	uint64_t points, failed, machines, failed_machines;
	int32_t *ratio;                           /* hmp / ule × 10000 of each checked point */
	uint64_t *ratio_seed;
	int *ratio_count;
	size_t nratio, cap;
	uint64_t info_points, info_below;         /* where P1 is not checked */
	int64_t info_worst;                       /* lowest hmp/ule there, × 10000 (-1: none yet) */
	uint64_t info_seed;
	int info_count;
	uint64_t one_type_points;                 /* checked points on machines of one core type */
	int64_t one_type_lowest;                  /* their lowest ratio × 10000 (-1: none yet) */
	uint64_t one_type_seed;
	int one_type_count;
};

/* Totals over the run. */
struct tally {
	uint64_t points[NPROP], failed[NPROP], machines[NPROP], failed_machines[NPROP];
	uint64_t skipped[NPROP];                  /* machines a property does not apply to */
	uint64_t p1_skipped[SIM_PROPS_NP1];       /* P1's, by reason */
	struct wl_tally wl[SIM_PROPS_NWL];
	uint64_t p3_failed[NPOL], p3_machines[NPOL];
	uint64_t longest_ns[NPOL], longest_seed[NPOL];
	int longest_threads[NPOL];
	uint64_t runs, events, nosample;
	uint64_t confirmed;                       /* points judged again on SIM_PROPS_MAX_RUNS runs */
};

/* One machine being checked: its facts, its failures as text. */
struct mstate {
	const struct sim_props *pr;
	struct tally *t;
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

/* What a workload counts: "threads", "jobs", "clients", "groups",
 * "workers" (kernel/bench's threads_means up to its first blank), singular
 * for one. */
static const char *noun(const struct bench_wl *bw, int n, char *buf, size_t len)
{
	const char *s = bw->threads_means;
	size_t k = strcspn(s, " (");
	if (n == 1 && k > 1 && s[k - 1] == 's')
		k--;
	snprintf(buf, len, "%.*s", (int)(k < len ? k : len - 1), s);
	return buf;
}

/* A median given twice (median2) in the workload's decimals, into buf. */
static const char *val(const struct bench_wl *bw, int64_t median2, char *buf, size_t len)
{
	struct strbuf sb;
	strbuf_init(&sb, buf, len);
	bench_put_fixed(&sb, (int64_t)bench_div_round((uint64_t)median2, 2), bw->decimals);
	return buf;
}

/* Nanoseconds as seconds with six decimals into buf. */
static const char *secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu s", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns / 1000ull % 1000000));
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
	ms->t->runs++;
	ms->t->events += res->events;
	if (!rc && res->value >= 0 && res->value <= BENCH_VALUE_MAX)
		return 0;
	note(ms, "%s at %d %s, run %d: no sample\n", cfg->policy->name, cfg->threads,
	     noun(ms->bw, cfg->threads, a, sizeof(a)), r + 1);
	ms->nosample[ms->w] = 1;
	ms->t->nosample++;
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
		ms->t->failed[p]++;
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
	struct tally *t = ms->t;
	char a[32], b[32], c[32];
	if (w->longest_ns > t->longest_ns[p]) {
		t->longest_ns[p] = w->longest_ns;
		t->longest_seed[p] = ms->seed;
		t->longest_threads[p] = T;
	}
	if (w->watched && w->longest_ns <= ms->allowed_ns)
		return;
	failed_at(ms, P3, T, point_failed);
	if (!p3_point[p]) {
		p3_point[p] = 1;
		t->p3_failed[p]++;
	}
	ms->p3_failed[p] = 1;
	if (!w->watched)
		note(ms, "P3 %s at %d thread%s, run %d: the workload's threads never all started\n", pol_name[p], T,
		     T == 1 ? "" : "s", r + 1);
	else
		note(ms, "P3 %s at %d thread%s, run %d: cpu %d idle while cpu %d had %d threads for %s from %s "
		     "(limit %s)\n", pol_name[p], T, T == 1 ? "" : "s", r + 1, w->idle_cpu, w->busy_cpu,
		     w->busy_load, secs(w->longest_ns, a, sizeof(a)), secs(w->at_ns, b, sizeof(b)),
		     secs(ms->allowed_ns, c, sizeof(c)));
}

/* P1 at T from the medians (given twice) of n runs: checked where it
 * applies (and always in the control run), else kept for information. */
static void check_p1(struct mstate *ms, int T, int n, int64_t ule2, int64_t hmp2, int *point_failed)
{
	const struct sim_props_wl *pw = &sim_props_wls[ms->w];
	struct wl_tally *wt = &ms->t->wl[ms->w];
	int lower = !ms->bw->higher_is_better;
	int64_t num = lower ? ule2 : hmp2, den = lower ? hmp2 : ule2;
	if (den <= 0)
		return;
	int64_t ratio = (int64_t)((__int128)num * 10000 / den);   /* medians up to 2 × 10^15 */
	int below = num * 100 < den * pw->min_pct;
	if (ms->f.p1_why != SIM_PROPS_P1_APPLIES && !ms->pr->control) {
		wt->info_points++;
		wt->info_below += below;
		if (wt->info_worst < 0 || ratio < wt->info_worst) {
			wt->info_worst = ratio;
			wt->info_seed = ms->seed;
			wt->info_count = T;
		}
		return;
	}
	wt->points++;
	if (wt->nratio == wt->cap) {
		wt->cap = wt->cap ? 2 * wt->cap : 1024;
		wt->ratio = realloc(wt->ratio, wt->cap * sizeof(*wt->ratio));
		wt->ratio_seed = realloc(wt->ratio_seed, wt->cap * sizeof(*wt->ratio_seed));
		wt->ratio_count = realloc(wt->ratio_count, wt->cap * sizeof(*wt->ratio_count));
		if (!wt->ratio || !wt->ratio_seed || !wt->ratio_count)
			sim_fatal("no memory for the property run's ratios");
	}
	wt->ratio[wt->nratio] = (int32_t)(ratio < INT32_MAX ? ratio : INT32_MAX);
	wt->ratio_seed[wt->nratio] = ms->seed;
	wt->ratio_count[wt->nratio++] = T;
	if (ms->f.one_type) {
		wt->one_type_points++;
		if (wt->one_type_lowest < 0 || ratio < wt->one_type_lowest) {
			wt->one_type_lowest = ratio;
			wt->one_type_seed = ms->seed;
			wt->one_type_count = T;
		}
	}
	if (!below)
		return;
	char a[40], b[40], c[24];
	failed_at(ms, P1, T, point_failed);
	wt->failed++;
	const char *who = ms->pr->control ? "other seeds" : pol_name[POL_HMP], *base = ms->pr->control ? "seeds" : "ule";
	const char *unit = ms->bw->unit;
	if (lower)
		note(ms, "P1 at %d %s, %d runs: %s %s %s > %s %s %s / 0.%02d (%.2f %%, lower is better)\n", T,
		     noun(ms->bw, T, c, sizeof(c)), n, who, val(ms->bw, hmp2, a, sizeof(a)), unit, base,
		     val(ms->bw, ule2, b, sizeof(b)), unit, pw->min_pct, (double)ratio / 100.0);
	else
		note(ms, "P1 at %d %s, %d runs: %s %s %s < 0.%02d x %s %s %s (%.2f %%)\n", T,
		     noun(ms->bw, T, c, sizeof(c)), n, who, val(ms->bw, hmp2, a, sizeof(a)), unit, pw->min_pct, base, val(ms->bw, ule2, b, sizeof(b)),
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
			note(ms, "P4 ule at %d %s, run %d: %s\n", T, noun(ms->bw, T, a, sizeof(a)), r + 1, d);
		}
		free(other.seg);
	}
	v[POL_ULE][r] = ule.value;
	if (cfg.watch)
		check_watch(ms, POL_ULE, T, r, &ule.watch, point_failed, p3_point);
	free(ule.seg);
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
		ms->t->confirmed++;
	}
	ms->runs_used = n > ms->runs_used ? n : ms->runs_used;
	int64_t ule2 = median_of(v, POL_ULE, n), hmp2 = median_of(v, POL_HMP, n);
	check_p1(ms, T, n, ule2, hmp2, point_failed);
	if (oracle) {
		int64_t or2 = median_of(v, POL_ORACLE, n);
		if (hmp2 * 100 < or2 * 97) {
			failed_at(ms, P2, T, point_failed);
			note(ms, "P2 at %d thread%s, %d runs: %s %s < 0.97 x oracle %s (%.2f %%)\n", T, T == 1 ? "" : "s", n,
			     pol_name[POL_HMP],
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
		put(ms, " --policy ule,%s%s --seed %llu%s\n", pol_name[POL_HMP], ms->w == 0 && ms->f.bound ? ",oracle" : "", s,
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
	struct tally *t = ms->t;
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
	t->wl[w].machines += p1 && n;
	t->wl[w].failed_machines += ms->failed[w][P1];
	if (ms->nfail || ms->nosample[w])
		reproduce(ms);
}

/* Runs and checks machine seed; its failures printed. */
static void check_machine(const struct sim_props *pr, struct tally *t, uint64_t seed)
{
	static struct sim_machine sm;
	static struct mstate ms;
	static char text[SIM_GEN_TEXT_MAX];
	char err[600];
	if (sim_gen_load(seed, &sm, text, err, sizeof(err)))
		sim_fatal("generated machine %llu refused: %s", (unsigned long long)seed, err);
	memset(&ms, 0, sizeof(ms));
	ms.pr = pr;
	ms.t = t;
	ms.seed = seed;
	ms.sm = &sm;
	sim_props_facts_of(&sm.m, &ms.f);
	for (int w = 0; w < SIM_PROPS_NWL; w++)
		if (pr->workloads & (1u << w))
			check_workload(&ms, w);
	int applies[NPROP] = { ms.f.p1_why == SIM_PROPS_P1_APPLIES || pr->control,
			       ms.f.bound && !pr->control && (pr->workloads & 1), !pr->control && (pr->workloads & 1),
			       !pr->control };
	for (int p = 0; p < NPROP; p++) {
		int failed = 0;
		for (int w = 0; w < SIM_PROPS_NWL; w++)
			failed |= ms.failed[w][p];
		t->machines[p] += applies[p];
		t->skipped[p] += !applies[p];
		t->failed_machines[p] += failed;
	}
	t->p1_skipped[pr->control ? SIM_PROPS_P1_APPLIES : ms.f.p1_why]++;
	for (int p = 0; p < NPOL; p++)
		t->p3_machines[p] += ms.p3_failed[p];
	int nosample = 0;
	for (int w = 0; w < SIM_PROPS_NWL; w++)
		nosample |= ms.nosample[w];
	if (!ms.any && !nosample)
		return;
	printf("FAIL machine %llu (%s, %u CPUs):", (unsigned long long)seed, sm.m.model, sm.m.cpu_count);
	for (int w = 0, first = 1; w < SIM_PROPS_NWL; w++) {
		if (!ms.failed[w][P1] && !ms.failed[w][P2] && !ms.failed[w][P3] && !ms.failed[w][P4] && !ms.nosample[w])
			continue;
		printf("%s %s", first ? "" : ";", sim_props_wls[w].name);
		for (int p = 0; p < NPROP; p++)
			if (ms.failed[w][p])
				printf(" P%d", p + 1);
		if (ms.nosample[w])
			printf(" no sample");
		first = 0;
	}
	printf("\n");
	fwrite(ms.text, 1, ms.n, stdout);
	printf("--- machine seed %llu ---\n%s--- end ---\n\n", (unsigned long long)seed, text);
	fflush(stdout);   /* a long run shows each failing machine as it is found */
}

/* What the run checks, before any result. */
static void print_rules(const struct sim_props *pr)
{
	printf("schedsim: property run: machines %llu..%llu of sim/sim_gen.c (schedsim --gen SEED)%s%s, each run seeded as "
	       "--seed SEED%s\n", (unsigned long long)pr->first, (unsigned long long)(pr->first + pr->count - 1),
	       pr->args[0] ? ", " : "", pr->args, pr->control ? "; control run: P1 of the policy below against itself "
	       "seeded as --seed SEED + 4294967296, on every machine" : "");
	if (pr->control)
		printf("schedsim: control policy %s\n", pr->control_name);
	for (int w = 0; w < SIM_PROPS_NWL; w++) {
		const struct sim_props_wl *pw = &sim_props_wls[w];
		const struct bench_wl *bw = bench_wl_find(pw->name);
		if (!(pr->workloads & (1u << w)))
			continue;
		uint64_t opt[BENCH_WL_OPT_MAX];
		if (pr->only == w)
			memcpy(opt, pr->only_opt, sizeof(opt));
		else
			sim_props_defaults(w, opt);
		printf("schedsim: %s (%s%s): P1 at %d %%,", pw->name, bw->unit, bw->higher_is_better ? "" : ", lower is better",
		       pw->min_pct);
		for (int k = 0; k < bw->nopts; k++)
			if (!pw->per_capacity || strcmp(bw->opts[k].name, pw->len_opt) || (pr->only == w && pr->only_len_given))
				printf(" --%s %llu", bw->opts[k].name, (unsigned long long)opt[k]);
			else
				printf(" --%s %llu per P-core of the machine's capacity", bw->opts[k].name,
				       (unsigned long long)pw->len);
		printf(", %d run%s per policy and count, %s\n", pr->runs ? pr->runs : pw->runs,
		       (pr->runs ? pr->runs : pw->runs) == 1 ? "" : "s",
		       pr->ncounts ? "the counts --threads says" :
		       pw->counts == SIM_PROPS_COUNTS_EVERY ? "threads 1..2 x CPUs" :
		       pw->counts == SIM_PROPS_COUNTS_GROUPS ? "1 and 2 groups" :
		       pw->counts == SIM_PROPS_COUNTS_SHAPE_TO_N1 ?
		       "1, P-cores, P-cores + 1, P-core CPUs, cores, CPUs above perf 0 and + 1, CPUs and + 1" :
		       "1, P-cores, P-cores + 1, P-core CPUs, cores, CPUs above perf 0 and + 1, CPUs and + 1, 2 x CPUs");
	}
	if (pr->control)
		printf("\n");
	if (pr->control)
		return;
	if (strcmp(pol_name[POL_HMP], "hmp"))
		printf("schedsim: the candidate policy is %s: 'hmp' below means %s\n", pol_name[POL_HMP],
		       pol_name[POL_HMP]);
	printf("schedsim: P1 median(hmp) >= the workload's share of median(ule), on machines whose HFI table describes "
	       "their speeds (hmp decides by the table, the work clock by the speeds): perf / speed within 1.25 x for "
	       "all CPUs with rows above perf 0 from boot, no power budget below every core of a package busy; "
	       "a row at perf 0 from boot, or dropped there by an event that also slows its CPUs, is checked; "
	       "elsewhere reported, not checked\n");
	printf("schedsim: P2 cpu: median(hmp) >= 0.97 x median(oracle) where P1 applies and the oracle is an upper bound "
	       "for hmp: no power budget, no event, no row at perf 0 beside rows above it; among CPUs with HFI rows a "
	       "faster CPU (speed) has a strictly higher perf\n");
	printf("schedsim: P3 cpu: in every run of ule, hmp and oracle, from the workload's last spawn to its first exit, "
	       "no CPU idle while another CPU has 2 or more threads for longer than interval/2 + interval ticks of "
	       "kern.sched.balance_interval (the balancer's longest gap, interval/2 + interval - 1 ticks, and one tick "
	       "for its IPI and switch); not counted idle: CPUs no workload thread may run on, under hmp the CPUs "
	       "it is told not to use (hmp_drop_avoided)\n");
	printf("schedsim: P4 every workload: ule with every hmp input scrambled (capacities and scores of every CPU) "
	       "gives the same value, engine events, scheduler cost counts and placement segments in the first run of "
	       "every count\n\n");
}

/* Ratios × 10000 as a percentage into buf. */
static const char *pct(int64_t r, char *buf, size_t len)
{
	snprintf(buf, len, "%lld.%02lld %%", (long long)(r / 100), (long long)(r % 100));
	return buf;
}

static const struct wl_tally *sorting;   /* by_ratio's */

/* qsort order of indices into sorting's ratios: by ratio, then by index
 * (the order the points were checked in). */
static int by_ratio(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int32_t rx = sorting->ratio[x], ry = sorting->ratio[y];
	return rx != ry ? (rx < ry ? -1 : 1) : (x < y ? -1 : x > y);
}

/* P1's line for workload w: points, failures, the spread of hmp / ule
 * (lowest with where, 1st percentile, median) and the unchecked points. */
static void print_wl_summary(const struct sim_props *pr, const struct tally *t, int w)
{
	const struct wl_tally *wt = &t->wl[w];
	const struct bench_wl *bw = bench_wl_find(sim_props_wls[w].name);
	char a[48], b[48], c[48], d[24];
	printf("P1 %s: checked %llu points on %llu machines, failed %llu points on %llu machines", sim_props_wls[w].name,
	       (unsigned long long)wt->points, (unsigned long long)wt->machines, (unsigned long long)wt->failed,
	       (unsigned long long)wt->failed_machines);
	if (wt->nratio) {
		size_t *idx = malloc(wt->nratio * sizeof(*idx));
		if (!idx)
			sim_fatal("no memory for the property run's summary");
		for (size_t i = 0; i < wt->nratio; i++)
			idx[i] = i;
		sorting = wt;
		qsort(idx, wt->nratio, sizeof(*idx), by_ratio);
		size_t lo = idx[0];
		printf("; %s / %s lowest %s (machine %llu, %d %s), 1st percentile %s, median %s",
		       pr->control ? "other seeds" : pol_name[POL_HMP], pr->control ? "seeds" : "ule", pct(wt->ratio[lo], a, sizeof(a)),
		       (unsigned long long)wt->ratio_seed[lo], wt->ratio_count[lo], noun(bw, wt->ratio_count[lo], d, sizeof(d)),
		       pct(wt->ratio[idx[wt->nratio / 100]], b, sizeof(b)), pct(wt->ratio[idx[wt->nratio / 2]], c, sizeof(c)));
		free(idx);
	}
	if (wt->one_type_points)
		printf("; on machines of one core type lowest %s (machine %llu, %d %s)", pct(wt->one_type_lowest, a, sizeof(a)),
		       (unsigned long long)wt->one_type_seed, wt->one_type_count, noun(bw, wt->one_type_count, d, sizeof(d)));
	if (wt->info_points)
		printf("; not checked: below %d %% at %llu of %llu points, worst %s (machine %llu, %d %s)",
		       sim_props_wls[w].min_pct, (unsigned long long)wt->info_below, (unsigned long long)wt->info_points,
		       pct(wt->info_worst, a, sizeof(a)), (unsigned long long)wt->info_seed, wt->info_count,
		       noun(bw, wt->info_count, d, sizeof(d)));
	printf("\n");
}

/* One summary line per property, and P1's per workload. */
static void print_summary(const struct sim_props *pr, const struct tally *t)
{
	static const char *const skip_why[NPROP] = { "", "the oracle not an upper bound, or cpu not run", "cpu not run",
						      "" };
	char a[32];
	for (int p = 0; p < NPROP; p++) {
		printf("P%d: checked %llu points on %llu machines", p + 1, (unsigned long long)t->points[p],
		       (unsigned long long)t->machines[p]);
		if (t->skipped[p] && p == P1)
			printf(" (%llu skipped: %llu with perf not in proportion to speed, %llu with a power budget that "
			       "binds)", (unsigned long long)t->skipped[p],
			       (unsigned long long)t->p1_skipped[SIM_PROPS_P1_RATIO],
			       (unsigned long long)t->p1_skipped[SIM_PROPS_P1_POWER]);
		else if (t->skipped[p])
			printf(" (%llu skipped: %s)", (unsigned long long)t->skipped[p],
			       pr->control ? "the control run checks P1 only" : skip_why[p]);
		printf(", failed %llu points on %llu machines", (unsigned long long)t->failed[p],
		       (unsigned long long)t->failed_machines[p]);
		for (int q = 0; p == P3 && q < NPOL; q++) {
			printf("%s %s %llu points on %llu machines, longest %s", q ? ";" : ":", pol_name[q],
			       (unsigned long long)t->p3_failed[q], (unsigned long long)t->p3_machines[q],
			       secs(t->longest_ns[q], a, sizeof(a)));
			if (t->longest_ns[q])
				printf(" (machine %llu, %d thread%s)", (unsigned long long)t->longest_seed[q],
				       t->longest_threads[q], t->longest_threads[q] == 1 ? "" : "s");
		}
		printf("\n");
		for (int w = 0; p == P1 && w < SIM_PROPS_NWL; w++)
			if (pr->workloads & (1u << w))
				print_wl_summary(pr, t, w);
	}
	printf("points judged again on %d runs: %llu\n", SIM_PROPS_MAX_RUNS, (unsigned long long)t->confirmed);
	printf("runs without a sample: %llu\n", (unsigned long long)t->nosample);
}

/* See sim_props.h. */
int sim_props_run(const struct sim_props *pr)
{
	static struct tally t;
	char err[200];
	for (int w = 0; w < SIM_PROPS_NWL; w++)
		t.wl[w].info_worst = t.wl[w].one_type_lowest = -1;
	pol_name[POL_HMP] = pr->candidate ? pr->candidate : "hmp";
	for (int p = 0; p < NPOL; p++)
		if (sim_policy_parse(pol_name[p], &pols[p], err, sizeof(err)))
			sim_fatal("%s", err);
	if (pr->control && sim_policy_parse(pr->control_name, &control_pol, err, sizeof(err)))
		sim_fatal("%s", err);
	print_rules(pr);
	double t0 = sim_host_seconds();
	for (uint64_t i = 0; i < pr->count; i++)
		check_machine(pr, &t, pr->first + i);
	print_summary(pr, &t);
	fprintf(stderr, "schedsim: properties: %llu machines, %llu runs, %llu events in %.2f s\n",
		(unsigned long long)pr->count, (unsigned long long)t.runs, (unsigned long long)t.events,
		sim_host_seconds() - t0);
	for (int p = 0; p < NPROP; p++)
		if (t.failed[p])
			return 1;
	return t.nosample ? 1 : 0;
}
