/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_table_csv.c — a sweep's data as two CSV blocks (see bench_table.h;
 * schemas in docs/bench.md):
 *   NAME          sweep/1          policy,threads,sample,value,unit
 *   NAME.summary  sweep-summary/1  one row per policy and thread count
 */
#include <bench/bench_csv.h>
#include <bench/bench_table.h>

static const char *const summary_header[] = {
	"policy", "threads", "n", "min", "max", "mean", "median", "median_per_core", "cv_pct",
	"baseline", "rate_avg_pct", "rate_median_pct", "rate_max_min_pct", "rate_min_min_pct",
	"mwu_p", "mwu_method", "median_ratio_ci_lo_pct", "median_ratio_ci_hi_pct",
};

/* A value in 0.01 % as a percentage with two decimals, or empty. */
static void csv_pct(struct bench_csv *c, int64_t v)
{
	if (v == BENCH_NA)
		bench_csv_empty(c);
	else
		bench_csv_fixed(c, v, 2);
}

/* The block of raw samples. */
static void csv_samples(const struct bench_sweep *sw, const struct bench_out *o)
{
	struct bench_csv c;
	static const char *const header[] = { "policy", "threads", "sample", "value", "unit" };
	bench_csv_begin(&c, o, sw->name, "sweep/1");
	bench_csv_header(&c, header, sizeof(header) / sizeof(header[0]));
	for (int p = 0; p < sw->npolicies; p++) {
		for (int col = 0; col < sw->ncols; col++) {
			int n = sw->count ? sw->count[p * sw->ncols + col] : sw->nsamples;
			const int64_t *v = sw->v + ((size_t)p * (size_t)sw->ncols + (size_t)col) * (size_t)sw->nsamples;
			for (int s = 0; s < n; s++) {
				bench_csv_str(&c, sw->policy[p]);
				bench_csv_int(&c, sw->threads[col]);
				bench_csv_int(&c, s + 1);
				bench_csv_fixed(&c, v[s], sw->decimals);
				bench_csv_str(&c, sw->unit);
				bench_csv_row(&c);
			}
		}
	}
	bench_csv_end(&c);
}

/* One summary row: policy p at column col. */
static void summary_row(const struct bench_sweep *sw, const struct bench_table_scratch *t, int p, int col,
			struct bench_csv *c)
{
	const struct bench_col *s = &t->col[p][col];
	const struct bench_cmp *m = &t->cmp[p][col];
	int d = sw->decimals;
	bench_csv_str(c, sw->policy[p]);
	bench_csv_int(c, sw->threads[col]);
	bench_csv_int(c, s->n);
	if (s->n) {
		bench_csv_fixed(c, s->min, d);
		bench_csv_fixed(c, s->max, d);
		bench_csv_fixed(c, s->mean, d);
		bench_csv_fixed(c, s->median, d);
		bench_csv_fixed(c, s->median_per_core, d);
		csv_pct(c, s->cv);
	} else {
		for (int i = 0; i < 6; i++)
			bench_csv_empty(c);
	}
	if (p == 0) {
		for (int i = 0; i < 9; i++)
			bench_csv_empty(c);
		bench_csv_row(c);
		return;
	}
	bench_csv_str(c, sw->policy[0]);
	int none = m->mwu.method == BENCH_MWU_NONE;
	csv_pct(c, none ? BENCH_NA : m->rate_avg);
	csv_pct(c, none ? BENCH_NA : m->rate_median);
	csv_pct(c, none ? BENCH_NA : m->rate_max_min);
	csv_pct(c, none ? BENCH_NA : m->rate_min_min);
	if (none) {
		bench_csv_empty(c);
		bench_csv_empty(c);
	} else {
		bench_csv_fixed(c, (int64_t)m->mwu.p, 12);
		bench_csv_str(c, m->mwu.method == BENCH_MWU_EXACT ? "exact" : "normal");
	}
	csv_pct(c, none ? BENCH_NA : m->ci.lo);
	csv_pct(c, none ? BENCH_NA : m->ci.hi);
	bench_csv_row(c);
}

/* The block of statistics per policy and thread count. */
static void csv_summary(const struct bench_sweep *sw, const struct bench_out *o, const struct bench_table_scratch *t)
{
	char name[BENCH_CSV_NAME_MAX + 1];
	struct strbuf nb;
	struct bench_csv c;
	strbuf_init(&nb, name, sizeof(name));
	strbuf_printf(&nb, "%s.summary", sw->name);   /* sweep names leave room */
	bench_csv_begin(&c, o, name, "sweep-summary/1");
	bench_csv_header(&c, summary_header, sizeof(summary_header) / sizeof(summary_header[0]));
	for (int p = 0; p < sw->npolicies; p++)
		for (int col = 0; col < sw->ncols; col++)
			summary_row(sw, t, p, col, &c);
	bench_csv_end(&c);
}

void bench_table_csv(const struct bench_sweep *sw, const struct bench_out *o, struct bench_table_scratch *t)
{
	csv_samples(sw, o);
	csv_summary(sw, o, t);
}
