/*
 * sim_props.c — the property run (sim_props.h; docs/sim.md "Property
 * run"). For each generated machine and each thread count T, `runs` runs
 * (seeded as a sweep seeded with the machine's number: the same seeds for
 * every policy) of ule, hmp, the oracle (only where it is an upper bound)
 * and ule with every hmp input scrambled, and the checks:
 *   P1  median(hmp) >= 0.99 × median(ule), on machines whose HFI table
 *       describes the speeds the work clock runs them at (facts_of); on
 *       the others how hmp fares is reported, not checked;
 *   P2  median(hmp) >= 0.97 × median(oracle) where the oracle is an upper
 *       bound for hmp (facts_of);
 *   P3  in every run of ule, hmp and the oracle, no CPU idle while another
 *       has two or more threads for longer than the balancer's longest
 *       gap plus a tick (sim_watch.c);
 *   P4  ule with hmp's inputs scrambled gives the same value, engine
 *       events, cost counts and placement segments as ule, run by run.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ule.h"
#include "sim_clock.h"
#include "sim_gen.h"
#include "sim_policy.h"
#include "sim_props.h"
#include "sim_report.h"

enum { POL_ULE, POL_HMP, POL_ORACLE, NPOL };
enum { P1, P2, P3, P4, NPROP };
enum { P1_APPLIES, P1_NEVER, P1_AVOID, P1_RATIO, P1_POWER, NP1 };   /* facts.p1_why */
/* perf / speed of any two CPUs with rows within this ratio (× 100): the
 * generator's truthful tables (perf = scale × speed, favoured cores up to
 * 16 of 255 below, rounding) stay within 1.10 */
#define P1_RATIO_MAX 125
#define MAX_COUNTS (2 * MACHINE_MAX_CPUS)

static const char *const pol_name[NPOL] = { "ule", "hmp", "oracle" };
static struct sim_policy pols[NPOL];

/* What a machine's description says about the properties that apply. */
struct facts {
	int p1;                  /* the table describes the machine */
	int p1_why;              /* why not: P1_NEVER.. */
	int bound;               /* the oracle is an upper bound for hmp */
	struct cpuset never;     /* CPUs hmp is told never to use */
};

/* Totals over the run; points are (machine, thread count) pairs. */
struct tally {
	uint64_t points[NPROP], failed[NPROP], machines[NPROP], failed_machines[NPROP];
	uint64_t skipped[NPROP];                  /* machines a property does not apply to */
	uint64_t p1_skipped[NP1];                 /* P1's, by reason */
	uint64_t p1_info_points, p1_info_below;   /* hmp against ule where P1 is not checked */
	int64_t p1_info_worst;                    /* lowest hmp/ule there, × 10000 (-1: none yet) */
	uint64_t p1_info_seed;
	int p1_info_threads;
	uint64_t p3_failed[NPOL], p3_machines[NPOL];
	uint64_t longest_ns[NPOL], longest_seed[NPOL];
	int longest_threads[NPOL];
	uint64_t runs, events, nosample;
};

/* One machine being checked: its facts, its failures as text. */
struct mstate {
	const struct sim_props *pr;
	struct tally *t;
	uint64_t seed;
	const struct sim_machine *sm;
	struct facts f;
	uint64_t allowed_ns;     /* P3's limit */
	int failed[NPROP], p3_failed[NPOL], nosample;
	int nfail, fail_counts[MAX_COUNTS];
	char text[32768];
	size_t n;
};

/* Appends a printf-formatted line to the machine's report (cut short
 * with a note once it is full). */
static void note(struct mstate *ms, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct mstate *ms, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(ms->text) - ms->n;
	va_start(ap, fmt);
	int k = vsnprintf(ms->text + ms->n, room, fmt, ap);
	va_end(ap);
	if (k >= 0 && (size_t)k < room - 64)
		ms->n += (size_t)k;
	else if (room > 64)
		ms->n += (size_t)snprintf(ms->text + ms->n, room, "  (more failures left out)\n");
}

/* "s" unless n is 1: "1 thread", "2 threads". */
static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* A sample (value × 100) as a decimal into buf. */
static const char *val(int64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%lld.%02lld", (long long)(v / 100), (long long)(v % 100));
	return buf;
}

/* Nanoseconds as seconds with six decimals into buf. */
static const char *secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu s", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns / 1000ull % 1000000));
	return buf;
}

/* The initial HFI perf of a CPU that has a row. */
static unsigned perf_of(const struct machine *m, int c)
{
	return m->hfi[m->cpu[c].hfi_row].perf;
}

/* A CPU's speed in the work clock's model (a type without one runs at 1.0). */
static unsigned speed_of(const struct machine *m, int c)
{
	return m->speed[m->cpu[c].type] ? m->speed[m->cpu[c].type] : MACHINE_SPEED_ONE;
}

/* The rules of P1 and P2 applied to m, as hmp reads the table: when
 * every CPU has a row at perf 0 it is "no information" (nothing avoided,
 * scores ignored); otherwise a CPU whose row has perf 0 is avoided, and
 * "never" used with ee 0 too (a CPU without a row has hmp's default
 * scores). hmp decides by the table, the work clock runs CPUs at their
 * speeds: P1 applies where the two agree — no CPU avoided (the model runs
 * it at full speed all the same), perf / speed the same for every CPU
 * with a row within P1_RATIO_MAX, and no power budget below what every
 * core busy asks for (where it binds, the most work comes from the CPUs
 * that do most per watt, which hmp's perf scores do not say). P2 applies
 * where P1 does and the oracle is an upper bound for hmp: no power budget,
 * and the perf of the CPUs with rows ordered as their speeds, a faster
 * CPU with a strictly higher perf (CPUs of one speed may differ). */
static void facts_of(const struct machine *m, struct facts *f)
{
	int n = (int)m->cpu_count, rows = 0, zeros = 0, avoided = 0, disorder = 0;
	uint64_t lo = UINT64_MAX, hi = 0;   /* perf × 2^20 / speed */
	cpuset_zero(&f->never);
	for (int c = 0; c < n; c++)
		if (m->cpu[c].hfi_row >= 0) {
			rows++;
			zeros += perf_of(m, c) == 0;
		}
	int info = rows && zeros < n;   /* the scores count */
	for (int c = 0; c < n && info; c++) {
		if (m->cpu[c].hfi_row < 0)
			continue;
		uint64_t r = ((uint64_t)perf_of(m, c) << 20) / speed_of(m, c);
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
		if (perf_of(m, c))
			continue;
		avoided++;
		if (m->hfi[m->cpu[c].hfi_row].ee == 0)
			cpuset_set(&f->never, (unsigned)c);
	}
	for (int a = 0; a < n && info; a++)
		for (int b = 0; b < n; b++)
			if (m->cpu[a].hfi_row >= 0 && m->cpu[b].hfi_row >= 0 && speed_of(m, a) > speed_of(m, b) &&
			    perf_of(m, a) <= perf_of(m, b))
				disorder = 1;
	uint64_t demand = 0;   /* mW with every CPU busy */
	for (int c = 0; c < n && m->power.budget_mw; c++)
		demand += m->cpu[c].thread ? m->power.smt_mw : m->power.core_mw[m->cpu[c].type];
	f->p1_why = !cpuset_empty(&f->never) ? P1_NEVER : avoided ? P1_AVOID :
		    info && hi * 100 > lo * P1_RATIO_MAX ? P1_RATIO :
		    m->power.budget_mw && m->power.budget_mw < demand ? P1_POWER : P1_APPLIES;
	f->p1 = f->p1_why == P1_APPLIES;
	f->bound = f->p1 && !m->power.budget_mw && !disorder;
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
	int rc = sim_run(cfg, res);
	ms->t->runs++;
	ms->t->events += res->events;
	if (!rc && res->value >= 0 && res->value <= BENCH_VALUE_MAX)
		return 0;
	note(ms, "  %s at %d thread%s, run %d: no sample\n", cfg->policy->name, cfg->threads, plural(cfg->threads),
	     r + 1);
	ms->nosample = 1;
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
	ms->failed[p] = 1;
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
		note(ms, "  P3 %s at %d thread%s, run %d: the workload's threads never all started\n", pol_name[p], T,
		     plural(T), r + 1);
	else
		note(ms, "  P3 %s at %d thread%s, run %d: cpu %d idle while cpu %d had %d threads for %s from %s "
		     "(limit %s)\n", pol_name[p], T, plural(T), r + 1, w->idle_cpu, w->busy_cpu, w->busy_load,
		     secs(w->longest_ns, a, sizeof(a)), secs(w->at_ns, b, sizeof(b)), secs(ms->allowed_ns, c, sizeof(c)));
}

/* Every run at thread count T and the four checks. */
static void check_count(struct mstate *ms, int T)
{
	const struct sim_props *pr = ms->pr;
	int runs = pr->runs, point_failed[NPROP] = { 0 }, p3_point[NPOL] = { 0 };
	int64_t v[NPOL][SIM_PROPS_MAX_RUNS];
	char a[32], b[32], d[256];
	for (int r = 0; r < runs; r++) {
		struct sim_config cfg = pr->base;
		struct sim_result ule, other;
		cfg.sm = ms->sm;
		cfg.threads = T;
		cfg.seed = sim_run_seed(ms->seed, T, r);
		cfg.watch = 1;
		cfg.policy = &pols[POL_ULE];
		cfg.trace = 1;
		int bad = run(ms, &cfg, r, &ule);
		if (!ms->allowed_ns) {   /* the run's balance interval, its ticks in ns */
			uint64_t interval = (uint64_t)balance_interval, tick = 1000000000ull / (uint64_t)cfg.hz;
			ms->allowed_ns = ((interval / 2 > 1 ? interval / 2 : 1) + interval) * tick;
		}
		cfg.hmp_scramble = 1;
		cfg.scramble_seed = ms->seed;
		bad |= run(ms, &cfg, r, &other);
		if (!bad && differ(&ule, &other, d, sizeof(d))) {
			failed_at(ms, P4, T, point_failed);
			note(ms, "  P4 ule at %d thread%s, run %d: %s\n", T, plural(T), r + 1, d);
		}
		free(other.seg);
		v[POL_ULE][r] = ule.value;
		check_watch(ms, POL_ULE, T, r, &ule.watch, point_failed, p3_point);
		free(ule.seg);
		cfg.hmp_scramble = 0;
		cfg.trace = 0;
		for (int p = POL_HMP; p < NPOL; p++) {
			if (p == POL_ORACLE && !ms->f.bound)
				continue;
			cfg.policy = &pols[p];
			cfg.watch_skip = p == POL_HMP ? &ms->f.never : NULL;
			run(ms, &cfg, r, &other);
			v[p][r] = other.value;
			check_watch(ms, p, T, r, &other.watch, point_failed, p3_point);
			free(other.seg);
		}
	}
	int64_t ule2 = median2(v[POL_ULE], runs), hmp2 = median2(v[POL_HMP], runs);
	if (!ms->f.p1 && ule2 > 0) {   /* reported, not checked */
		struct tally *t = ms->t;
		int64_t ratio = hmp2 * 10000 / ule2;
		t->p1_info_points++;
		t->p1_info_below += hmp2 * 100 < ule2 * 99;
		if (t->p1_info_worst < 0 || ratio < t->p1_info_worst) {
			t->p1_info_worst = ratio;
			t->p1_info_seed = ms->seed;
			t->p1_info_threads = T;
		}
	}
	if (ms->f.p1 && hmp2 * 100 < ule2 * 99) {
		failed_at(ms, P1, T, point_failed);
		note(ms, "  P1 at %d thread%s: hmp %s < 0.99 x ule %s (%.2f %%)\n", T, plural(T), val(hmp2 / 2, a, sizeof(a)),
		     val(ule2 / 2, b, sizeof(b)), 100.0 * (double)hmp2 / (double)ule2);
	}
	if (ms->f.bound) {
		int64_t or2 = median2(v[POL_ORACLE], runs);
		if (hmp2 * 100 < or2 * 97) {
			failed_at(ms, P2, T, point_failed);
			note(ms, "  P2 at %d thread%s: hmp %s < 0.97 x oracle %s (%.2f %%)\n", T, plural(T), val(hmp2 / 2, a, sizeof(a)),
			     val(or2 / 2, b, sizeof(b)), 100.0 * (double)hmp2 / (double)or2);
		}
	}
}

/* The commands that reproduce a failing machine's points, and the machine
 * as a file between marker lines. */
static void print_failure(const struct mstate *ms, const char *text)
{
	const struct sim_props *pr = ms->pr;
	char list[MAX_COUNTS * 4] = "";
	int shown = ms->nfail < BENCH_MAX_COLS ? ms->nfail : BENCH_MAX_COLS;
	for (int i = 0; i < shown; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", ms->fail_counts[i]);
	unsigned long long s = (unsigned long long)ms->seed;
	printf("FAIL machine %llu (%s, %u CPUs):%s%s%s%s%s\n", s, ms->sm->m.model, ms->sm->m.cpu_count,
	       ms->failed[P1] ? " P1" : "", ms->failed[P2] ? " P2" : "", ms->failed[P3] ? " P3" : "",
	       ms->failed[P4] ? " P4" : "", ms->nosample ? " no sample" : "");
	fwrite(ms->text, 1, ms->n, stdout);
	printf("  reproduce its checks: schedsim --properties 1 --seed %llu --threads %s%s%s\n", s, list,
	       pr->args[0] ? " " : "", pr->args);
	printf("  reproduce the runs:   schedsim --gen %llu > gen-%llu.machine; schedsim --machine gen-%llu.machine "
	       "--workload cpu%s%s --threads %s --runs %d --policy ule,hmp%s --seed %llu%s\n", s, s, s,
	       pr->args[0] ? " " : "", pr->args, list, pr->runs, ms->f.bound ? ",oracle" : "", s,
	       ms->failed[P3] ? " --trace trace.csv" : "");
	if (ms->failed[P4])
		printf("  P4: the same with --policy ule --trace ule.csv, and with --policy ule --hmp-scramble %llu "
		       "--trace scrambled.csv: the trace files should be the same\n", s);
	if (ms->nfail > shown)
		printf("  (the first %d of %d failing thread counts)\n", shown, ms->nfail);
	printf("--- machine seed %llu ---\n%s--- end ---\n\n", s, text);
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
	facts_of(&sm.m, &ms.f);
	int ncpu = (int)sm.m.cpu_count;
	for (int k = 0; pr->ncounts ? k < pr->ncounts : k < 2 * ncpu; k++) {
		int T = pr->ncounts ? pr->counts[k] : k + 1;
		if (T > 2 * ncpu)
			continue;
		t->points[P1] += ms.f.p1;
		t->points[P2] += ms.f.bound;
		t->points[P3]++;
		t->points[P4]++;
		check_count(&ms, T);
	}
	int applies[NPROP] = { ms.f.p1, ms.f.bound, 1, 1 };
	for (int p = 0; p < NPROP; p++) {
		t->machines[p] += applies[p];
		t->skipped[p] += !applies[p];
		t->failed_machines[p] += ms.failed[p];
	}
	t->p1_skipped[ms.f.p1_why]++;
	for (int p = 0; p < NPOL; p++)
		t->p3_machines[p] += ms.p3_failed[p];
	if (ms.nfail || ms.nosample)
		print_failure(&ms, text);
}

/* What the run checks, before any result. */
static void print_rules(const struct sim_props *pr)
{
	printf("schedsim: property run: machines %llu..%llu of sim/sim_gen.c (schedsim --gen SEED), workload cpu%s%s, "
	       "threads %s, %d run%s per policy and thread count (seeded as --seed SEED)\n",
	       (unsigned long long)pr->first, (unsigned long long)(pr->first + pr->count - 1), pr->args[0] ? " " : "",
	       pr->args, pr->ncounts ? "as --threads says" : "1..2 x CPUs", pr->runs, pr->runs == 1 ? "" : "s");
	printf("schedsim: P1 median(hmp) >= 0.99 x median(ule), on machines whose HFI table describes their speeds "
	       "(hmp decides by the table, the work clock by the speeds): no CPU at HFI perf 0 while another has "
	       "perf > 0, perf / speed within %d.%02d x for all CPUs with rows, no power budget below every core "
	       "busy; elsewhere reported, not checked\n",
	       P1_RATIO_MAX / 100, P1_RATIO_MAX % 100);
	printf("schedsim: P2 median(hmp) >= 0.97 x median(oracle) where P1 applies and the oracle is an upper bound for "
	       "hmp: no power budget; among CPUs with HFI rows a faster CPU (speed) has a strictly higher perf\n");
	printf("schedsim: P3 in every run of ule, hmp and oracle, from the workload's last spawn to its first exit, no "
	       "CPU idle while another CPU has 2 or more threads for longer than interval/2 + interval ticks of "
	       "kern.sched.balance_interval (the balancer's longest gap, interval/2 + interval - 1 ticks, and one tick "
	       "for its IPI and switch); not counted idle: CPUs no workload thread may run on, under hmp the CPUs "
	       "of HFI perf 0 and ee 0\n");
	printf("schedsim: P4 ule with every hmp input scrambled (capacities and scores of every CPU) gives the same "
	       "value, engine events, scheduler cost counts and placement segments in every run\n\n");
}

/* One summary line per property. */
static void print_summary(const struct tally *t)
{
	static const char *const skip_why[NPROP] = { "", "the oracle not an upper bound", "", "" };
	char a[32];
	for (int p = 0; p < NPROP; p++) {
		printf("P%d: checked %llu points on %llu machines", p + 1, (unsigned long long)t->points[p],
		       (unsigned long long)t->machines[p]);
		if (t->skipped[p] && p == P1)
			printf(" (%llu skipped: %llu told never to use a CPU, %llu to avoid one, %llu with perf not in "
			       "proportion to speed, %llu with a power budget that binds)", (unsigned long long)t->skipped[p],
			       (unsigned long long)t->p1_skipped[P1_NEVER], (unsigned long long)t->p1_skipped[P1_AVOID],
			       (unsigned long long)t->p1_skipped[P1_RATIO], (unsigned long long)t->p1_skipped[P1_POWER]);
		else if (t->skipped[p])
			printf(" (%llu skipped: %s)", (unsigned long long)t->skipped[p], skip_why[p]);
		printf(", failed %llu points on %llu machines", (unsigned long long)t->failed[p],
		       (unsigned long long)t->failed_machines[p]);
		for (int q = 0; p == P3 && q < NPOL; q++) {
			printf("%s %s %llu points on %llu machines, longest %s", q ? ";" : ":", pol_name[q],
			       (unsigned long long)t->p3_failed[q], (unsigned long long)t->p3_machines[q],
			       secs(t->longest_ns[q], a, sizeof(a)));
			if (t->longest_ns[q])
				printf(" (machine %llu, %d thread%s)", (unsigned long long)t->longest_seed[q],
				       t->longest_threads[q], plural(t->longest_threads[q]));
		}
		printf("\n");
	}
	if (t->p1_info_points)
		printf("P1 not checked (the skipped machines, for information): hmp below 0.99 x ule at %llu of %llu "
		       "points, worst %lld.%02lld %% (machine %llu, %d thread%s)\n",
		       (unsigned long long)t->p1_info_below, (unsigned long long)t->p1_info_points,
		       (long long)(t->p1_info_worst / 100), (long long)(t->p1_info_worst % 100),
		       (unsigned long long)t->p1_info_seed, t->p1_info_threads, plural(t->p1_info_threads));
	printf("runs without a sample: %llu\n", (unsigned long long)t->nosample);
}

/* See sim_props.h. */
int sim_props_run(const struct sim_props *pr)
{
	static struct tally t;
	t.p1_info_worst = -1;
	char err[200];
	for (int p = 0; p < NPOL; p++)
		if (sim_policy_parse(pol_name[p], &pols[p], err, sizeof(err)))
			sim_fatal("%s", err);
	print_rules(pr);
	double t0 = sim_host_seconds();
	for (uint64_t i = 0; i < pr->count; i++)
		check_machine(pr, &t, pr->first + i);
	print_summary(&t);
	fprintf(stderr, "schedsim: properties: %llu machines, %llu runs, %llu events in %.2f s\n",
		(unsigned long long)pr->count, (unsigned long long)t.runs, (unsigned long long)t.events,
		sim_host_seconds() - t0);
	for (int p = 0; p < NPROP; p++)
		if (t.failed[p])
			return 1;
	return t.nosample ? 1 : 0;
}
