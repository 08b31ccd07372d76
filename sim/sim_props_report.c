/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_props_report.c — what the property run prints besides a failing
 * machine's block (sim_props_tally.h): its rules first; the run's totals,
 * machine record by machine record in machine order; and the summary
 * from them.
 */
#include <stdlib.h>
#include <string.h>
#include <sim/sim_props_tally.h>

const char *sim_props_pol_name[NPOL] = { "ule", "hmp", "oracle" };

/* See sim_props_tally.h: kernel/bench's threads_means up to its first
 * blank, singular for one. */
const char *sim_props_noun(const struct bench_wl *bw, int n, char *buf, size_t len)
{
	const char *s = bw->threads_means;
	size_t k = strcspn(s, " (");
	if (n == 1 && k > 1 && s[k - 1] == 's')
		k--;
	snprintf(buf, len, "%.*s", (int)(k < len ? k : len - 1), s);
	return buf;
}

/* See sim_props_tally.h. */
const char *sim_props_secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu s", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns / 1000ull % 1000000));
	return buf;
}

/* Adds the counts of from into to. */
static void sums_add(struct props_sums *to, const struct props_sums *from)
{
	_Static_assert(sizeof(struct props_sums) % sizeof(uint64_t) == 0, "struct props_sums: uint64_t counts only");
	uint64_t *a = (uint64_t *)to;
	const uint64_t *b = (const uint64_t *)from;
	for (size_t i = 0; i < sizeof(*to) / sizeof(uint64_t); i++)
		a[i] += b[i];
}

/* Adds P1 point pt of machine seed to the run's figures of its workload,
 * as the points come (the lowest is the first one with the lowest ratio). */
static void tally_p1(struct props_tally *t, uint64_t seed, int one_type, const struct props_point *pt)
{
	struct props_wl_tally *wt = &t->wl[pt->w];
	if (!pt->checked) {
		wt->info_points++;
		wt->info_below += pt->below;
		if (wt->info_worst < 0 || pt->ratio < wt->info_worst) {
			wt->info_worst = pt->ratio;
			wt->info_seed = seed;
			wt->info_count = pt->count;
		}
		return;
	}
	wt->points++;
	wt->failed += pt->below;
	if (wt->nratio == wt->cap) {
		wt->cap = wt->cap ? 2 * wt->cap : 1024;
		wt->ratio = realloc(wt->ratio, wt->cap * sizeof(*wt->ratio));
		wt->ratio_seed = realloc(wt->ratio_seed, wt->cap * sizeof(*wt->ratio_seed));
		wt->ratio_count = realloc(wt->ratio_count, wt->cap * sizeof(*wt->ratio_count));
		if (!wt->ratio || !wt->ratio_seed || !wt->ratio_count)
			sim_fatal("no memory for the property run's ratios");
	}
	wt->ratio[wt->nratio] = (int32_t)(pt->ratio < INT32_MAX ? pt->ratio : INT32_MAX);
	wt->ratio_seed[wt->nratio] = seed;
	wt->ratio_count[wt->nratio++] = pt->count;
	if (one_type) {
		wt->one_type_points++;
		if (wt->one_type_lowest < 0 || pt->ratio < wt->one_type_lowest) {
			wt->one_type_lowest = pt->ratio;
			wt->one_type_seed = seed;
			wt->one_type_count = pt->count;
		}
	}
}

/* See sim_props_tally.h. */
void sim_props_tally_init(struct props_tally *t)
{
	for (int w = 0; w < SIM_PROPS_NWL; w++)
		t->wl[w].info_worst = t->wl[w].one_type_lowest = -1;
}

/* See sim_props_tally.h. P3's longest stretch is the first longest, as
 * the points' lowest ratios are. */
void sim_props_tally_add(struct props_tally *t, const struct props_record *m, const void *points)
{
	sums_add(&t->s, &m->s);
	for (int p = 0; p < NPOL; p++)
		if (m->longest_ns[p] > t->longest_ns[p]) {
			t->longest_ns[p] = m->longest_ns[p];
			t->longest_seed[p] = m->seed;
			t->longest_threads[p] = m->longest_threads[p];
		}
	for (uint64_t k = 0; k < m->np1; k++) {
		struct props_point pt;
		memcpy(&pt, (const char *)points + k * sizeof(pt), sizeof(pt));
		if (pt.w < 0 || pt.w >= SIM_PROPS_NWL)
			sim_fatal("machine %llu: a P1 point of workload %d", (unsigned long long)m->seed, pt.w);
		tally_p1(t, m->seed, m->one_type, &pt);
	}
}

/* See sim_props_tally.h. */
void sim_props_print_rules(const struct sim_props *pr)
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
	if (strcmp(sim_props_pol_name[POL_HMP], "hmp"))
		printf("schedsim: the candidate policy is %s: 'hmp' below means %s\n", sim_props_pol_name[POL_HMP],
		       sim_props_pol_name[POL_HMP]);
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

static const struct props_wl_tally *sorting;   /* by_ratio's */

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
static void print_wl_summary(const struct sim_props *pr, const struct props_tally *t, int w)
{
	const struct props_wl_tally *wt = &t->wl[w];
	const struct bench_wl *bw = bench_wl_find(sim_props_wls[w].name);
	char a[48], b[48], c[48], d[24];
	printf("P1 %s: checked %llu points on %llu machines, failed %llu points on %llu machines", sim_props_wls[w].name,
	       (unsigned long long)wt->points, (unsigned long long)t->s.wl_machines[w], (unsigned long long)wt->failed,
	       (unsigned long long)t->s.wl_failed_machines[w]);
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
		       pr->control ? "other seeds" : sim_props_pol_name[POL_HMP], pr->control ? "seeds" : "ule", pct(wt->ratio[lo], a, sizeof(a)),
		       (unsigned long long)wt->ratio_seed[lo], wt->ratio_count[lo], sim_props_noun(bw, wt->ratio_count[lo], d, sizeof(d)),
		       pct(wt->ratio[idx[wt->nratio / 100]], b, sizeof(b)), pct(wt->ratio[idx[wt->nratio / 2]], c, sizeof(c)));
		free(idx);
	}
	if (wt->one_type_points)
		printf("; on machines of one core type lowest %s (machine %llu, %d %s)", pct(wt->one_type_lowest, a, sizeof(a)),
		       (unsigned long long)wt->one_type_seed, wt->one_type_count, sim_props_noun(bw, wt->one_type_count, d, sizeof(d)));
	if (wt->info_points)
		printf("; not checked: below %d %% at %llu of %llu points, worst %s (machine %llu, %d %s)",
		       sim_props_wls[w].min_pct, (unsigned long long)wt->info_below, (unsigned long long)wt->info_points,
		       pct(wt->info_worst, a, sizeof(a)), (unsigned long long)wt->info_seed, wt->info_count,
		       sim_props_noun(bw, wt->info_count, d, sizeof(d)));
	printf("\n");
}

/* See sim_props_tally.h. */
void sim_props_print_summary(const struct sim_props *pr, const struct props_tally *t)
{
	static const char *const skip_why[NPROP] = { "", "the oracle not an upper bound, or cpu not run", "cpu not run",
						      "" };
	char a[32];
	for (int p = 0; p < NPROP; p++) {
		printf("P%d: checked %llu points on %llu machines", p + 1, (unsigned long long)t->s.points[p],
		       (unsigned long long)t->s.machines[p]);
		if (t->s.skipped[p] && p == P1)
			printf(" (%llu skipped: %llu with perf not in proportion to speed, %llu with a power budget that "
			       "binds)", (unsigned long long)t->s.skipped[p],
			       (unsigned long long)t->s.p1_skipped[SIM_PROPS_P1_RATIO],
			       (unsigned long long)t->s.p1_skipped[SIM_PROPS_P1_POWER]);
		else if (t->s.skipped[p])
			printf(" (%llu skipped: %s)", (unsigned long long)t->s.skipped[p],
			       pr->control ? "the control run checks P1 only" : skip_why[p]);
		printf(", failed %llu points on %llu machines", (unsigned long long)t->s.failed[p],
		       (unsigned long long)t->s.failed_machines[p]);
		for (int q = 0; p == P3 && q < NPOL; q++) {
			printf("%s %s %llu points on %llu machines, longest %s", q ? ";" : ":", sim_props_pol_name[q],
			       (unsigned long long)t->s.p3_failed[q], (unsigned long long)t->s.p3_machines[q],
			       sim_props_secs(t->longest_ns[q], a, sizeof(a)));
			if (t->longest_ns[q])
				printf(" (machine %llu, %d thread%s)", (unsigned long long)t->longest_seed[q],
				       t->longest_threads[q], t->longest_threads[q] == 1 ? "" : "s");
		}
		printf("\n");
		for (int w = 0; p == P1 && w < SIM_PROPS_NWL; w++)
			if (pr->workloads & (1u << w))
				print_wl_summary(pr, t, w);
	}
	printf("points judged again on %d runs: %llu\n", SIM_PROPS_MAX_RUNS, (unsigned long long)t->s.confirmed);
	printf("runs without a sample: %llu\n", (unsigned long long)t->s.nosample);
}
