/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_table.c — a sweep's tables in the seed report's layout, then the
 * rows the report lacked (see bench_table.h, docs/bench.md).
 *
 * Layout: a label column of 17 characters, then per thread count a space
 * and the value right-aligned in 13 characters: the widths of the report's
 * separator "-----------------+-------------+...". A wider cell widens
 * every value column (two passes: measure, then print). The longest line,
 * 17 + 16 * (1 + 47) characters or a heading with four 64-character
 * policy names, fits BENCH_LINE_MAX.
 */
#include <lib/string.h>
#include <lib/format.h>
#include <bench/bench_table.h>

enum cell_kind {
	K_THREADS, K_SAMPLE, K_MIN, K_MAX, K_AVG, K_MEDIAN, K_MPC, K_CV,
	/* against the baseline: */
	K_RATE_AVG, K_RATE_MEDIAN, K_RATE_MAX_MIN, K_RATE_MIN_MIN, K_MWU_P, K_MWU_TEST, K_CI_LO, K_CI_HI,
};

struct tab {
	const struct bench_sweep *sw;
	const struct bench_out *o;
	struct bench_table_scratch *t;
	int measure;   /* 1: only widen lw and cw */
	int lw, cw;    /* label and value column widths */
};

/* Appends n spaces. */
static void put_spaces(struct strbuf *sb, int n)
{
	while (n-- > 0)
		strbuf_putc(sb, ' ');
}

/* A sample cell: the value, or "-" past the samples taken. */
static void sample_text(const struct bench_sweep *sw, int p, int c, int s, struct strbuf *cb)
{
	int n = sw->count ? sw->count[p * sw->ncols + c] : sw->nsamples;
	const int64_t *v = sw->v + ((size_t)p * (size_t)sw->ncols + (size_t)c) * (size_t)sw->nsamples;
	if (s < n)
		bench_put_fixed(cb, v[s], sw->decimals);
	else
		strbuf_puts(cb, "-");
}

/* Writes one cell's text into cb ("-" for what is not defined). */
static void cell_text(const struct tab *tb, enum cell_kind k, int p, int c, int arg, struct strbuf *cb)
{
	const struct bench_col *col = &tb->t->col[p][c];
	const struct bench_cmp *m = &tb->t->cmp[p][c];
	int d = tb->sw->decimals;
	if (k == K_THREADS) {
		strbuf_printf(cb, "%d", tb->sw->threads[c]);
		return;
	}
	if (k == K_SAMPLE) {
		sample_text(tb->sw, p, c, arg, cb);
		return;
	}
	if (col->n == 0 || (k >= K_RATE_AVG && m->mwu.method == BENCH_MWU_NONE)) {
		strbuf_puts(cb, "-");
		return;
	}
	switch (k) {
	case K_MIN: bench_put_fixed(cb, col->min, d); break;
	case K_MAX: bench_put_fixed(cb, col->max, d); break;
	case K_AVG: bench_put_fixed(cb, col->mean, d); break;
	case K_MEDIAN: bench_put_fixed(cb, col->median, d); break;
	case K_MPC: bench_put_fixed(cb, col->median_per_core, d); break;
	case K_CV: bench_put_pct(cb, col->cv); break;
	case K_RATE_AVG: bench_put_pct(cb, m->rate_avg); break;
	case K_RATE_MEDIAN: bench_put_pct(cb, m->rate_median); break;
	case K_RATE_MAX_MIN: bench_put_pct(cb, m->rate_max_min); break;
	case K_RATE_MIN_MIN: bench_put_pct(cb, m->rate_min_min); break;
	case K_MWU_P: bench_put_p4(cb, m->mwu.p); break;
	case K_MWU_TEST: strbuf_puts(cb, m->mwu.method == BENCH_MWU_EXACT ? "exact" : "normal"); break;
	case K_CI_LO: bench_put_pct(cb, m->ci.lo); break;
	case K_CI_HI: bench_put_pct(cb, m->ci.hi); break;
	default: break;
	}
}

/* One line: the label, then one cell of kind k per thread count (policy
 * p, sample or argument arg). */
static void row(struct tab *tb, const char *label, enum cell_kind k, int p, int arg)
{
	struct strbuf sb;
	int len = (int)strlen(label);
	strbuf_init(&sb, tb->t->line, sizeof(tb->t->line));
	if (tb->measure && len > tb->lw)
		tb->lw = len;
	strbuf_puts(&sb, label);
	put_spaces(&sb, tb->lw - len);
	for (int c = 0; c < tb->sw->ncols; c++) {
		char cell[48];
		struct strbuf cb;
		strbuf_init(&cb, cell, sizeof(cell));
		cell_text(tb, k, p, c, arg, &cb);
		if (tb->measure && (int)cb.len > tb->cw)
			tb->cw = (int)cb.len;
		put_spaces(&sb, 1 + tb->cw - (int)cb.len);
		strbuf_puts(&sb, cell);
	}
	if (!tb->measure)
		bench_printf(tb->o, "%s\n", tb->t->line);
}

/* The separator: dashes under the label, then "+" and dashes per column. */
static void separator(struct tab *tb)
{
	struct strbuf sb;
	if (tb->measure)
		return;
	strbuf_init(&sb, tb->t->line, sizeof(tb->t->line));
	for (int i = 0; i < tb->lw; i++)
		strbuf_putc(&sb, '-');
	for (int c = 0; c < tb->sw->ncols; c++) {
		strbuf_putc(&sb, '+');
		for (int i = 0; i < tb->cw; i++)
			strbuf_putc(&sb, '-');
	}
	bench_printf(tb->o, "%s\n", tb->t->line);
}

/* Policy p's table: heading, samples, statistics, and for p >= 1 the
 * report's Rate rows against the baseline. */
static void policy_table(struct tab *tb, int p)
{
	const struct bench_sweep *sw = tb->sw;
	if (!tb->measure)
		bench_printf(tb->o, "[%s] %s\n", sw->group_label ? sw->group_label : "Policy", sw->policy[p]);
	row(tb, "Use Cores", K_THREADS, p, 0);
	separator(tb);
	for (int s = 0; s < sw->nsamples; s++) {
		char label[24];
		struct strbuf lb;
		strbuf_init(&lb, label, sizeof(label));
		strbuf_printf(&lb, "Sample %d", s + 1);
		row(tb, label, K_SAMPLE, p, s);
	}
	separator(tb);
	row(tb, "Min", K_MIN, p, 0);
	row(tb, "Max", K_MAX, p, 0);
	row(tb, "Avg.", K_AVG, p, 0);
	row(tb, "Median", K_MEDIAN, p, 0);
	row(tb, "Median Per Core", K_MPC, p, 0);
	separator(tb);
	if (p == 0)
		return;
	row(tb, "Rate(Avg.)", K_RATE_AVG, p, 0);
	row(tb, "Rate(Median)", K_RATE_MEDIAN, p, 0);
	row(tb, "Rate(Max-Min)", K_RATE_MAX_MIN, p, 0);
	row(tb, "Rate(Min-Min)", K_RATE_MIN_MIN, p, 0);
	separator(tb);
}

/* What the report lacked: the CV of every policy, and for every policy
 * against the baseline the Mann-Whitney p-value and the bootstrap CI of
 * the median ratio. Policies are lettered A, B, ... in their order. */
static void beyond_table(struct tab *tb)
{
	const struct bench_sweep *sw = tb->sw;
	if (!tb->measure) {
		struct strbuf sb;
		strbuf_init(&sb, tb->t->line, sizeof(tb->t->line));
		strbuf_puts(&sb, "[Beyond the report]");
		for (int p = 0; p < sw->npolicies; p++)
			strbuf_printf(&sb, "%s %c = %s", p ? ";" : "", 'A' + p, sw->policy[p]);
		bench_printf(tb->o, "%s\n", tb->t->line);
	}
	row(tb, "Use Cores", K_THREADS, 0, 0);
	separator(tb);
	for (int p = 0; p < sw->npolicies; p++) {
		char label[24];
		struct strbuf lb;
		strbuf_init(&lb, label, sizeof(label));
		strbuf_printf(&lb, "CV %c", 'A' + p);
		row(tb, label, K_CV, p, 0);
	}
	static const struct {
		const char *fmt;
		enum cell_kind k;
	} cmp_rows[] = { { "MWU p %c:A", K_MWU_P }, { "MWU test %c:A", K_MWU_TEST },
			 { "Med %c:A CI95 lo", K_CI_LO }, { "Med %c:A CI95 hi", K_CI_HI } };
	for (int p = 1; p < sw->npolicies; p++) {
		for (size_t i = 0; i < sizeof(cmp_rows) / sizeof(cmp_rows[0]); i++) {
			char label[24];
			struct strbuf lb;
			strbuf_init(&lb, label, sizeof(label));
			strbuf_printf(&lb, cmp_rows[i].fmt, 'A' + p);
			row(tb, label, cmp_rows[i].k, p, 0);
		}
	}
	separator(tb);
	if (tb->measure)
		return;
	bench_printf(tb->o, "CV: sample standard deviation / mean. MWU: Mann-Whitney U test, two-sided, "
		     "exact without ties up to %d pairs, else normal approximation with tie correction.\n",
		     BENCH_MWU_EXACT_CELLS);
	bench_printf(tb->o, "CI95: percentile bootstrap of median(X) / median(A), %d resamples, seed 0x%llx.\n",
		     BENCH_BOOTSTRAP_RESAMPLES, (unsigned long long)(sw->seed ? sw->seed : BENCH_BOOTSTRAP_SEED));
	bench_note_significance(tb->o, tb->t, sw->npolicies, sw->ncols);
}

/* A p-value (BENCH_P_ONE units) as "0.333". */
static void p_text(char *buf, size_t len, uint64_t p)
{
	uint64_t milli = (p + BENCH_P_ONE / 2000) / (BENCH_P_ONE / 1000);
	ksnprintf(buf, len, "%llu.%03llu", (unsigned long long)(milli / 1000),
		  (unsigned long long)(milli % 1000));
}

/* See bench_table.h. */
void bench_note_significance(const struct bench_out *o, const struct bench_table_scratch *t, int npol,
			     int ncols)
{
	uint64_t worst = 0, alpha = BENCH_P_ONE / 20;
	int wa = 0, wb = 0;
	for (int p = 1; p < npol; p++)
		for (int c = 0; c < ncols; c++) {
			int na = t->col[0][c].n, nb = t->col[p][c].n;
			uint64_t min_p = na && nb ? bench_mwu_min_p(na, nb) : 0;
			if (min_p > worst) {
				worst = min_p;
				wa = na;
				wb = nb;
			}
		}
	if (worst < alpha)
		return;
	int need = bench_mwu_runs_for(alpha);
	char pw[16], pn[16];
	p_text(pw, sizeof(pw), worst);
	p_text(pn, sizeof(pn), bench_mwu_min_p(need, need));
	bench_printf(o, "Too few runs for significance: with %d and %d runs the smallest two-sided Mann-Whitney "
		     "p is %s, so the test cannot reach p < 0.05; %d runs per policy can (%s).\n", wa, wb, pw,
		     need, pn);
}

void bench_table_print(const struct bench_sweep *sw, const struct bench_out *o, struct bench_table_scratch *t)
{
	struct tab tb = { .sw = sw, .o = o, .t = t, .measure = 1, .lw = 17, .cw = 13 };
	for (int pass = 0; pass < 2; pass++) {
		for (int p = 0; p < sw->npolicies; p++)
			policy_table(&tb, p);
		beyond_table(&tb);
		tb.measure = 0;
	}
}
