/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_sweep.c — checking a sweep and computing its statistics (see
 * bench_table.h): validate everything first, then fill the scratch space.
 */
#include <lib/string.h>
#include <bench/bench_csv.h>
#include <bench/bench_table.h>

/* The samples of policy p at column c. */
static const int64_t *sweep_col(const struct bench_sweep *sw, int p, int c)
{
	return sw->v + ((size_t)p * (size_t)sw->ncols + (size_t)c) * (size_t)sw->nsamples;
}

/* How many samples of policy p at column c were taken. */
static int sweep_count(const struct bench_sweep *sw, int p, int c)
{
	return sw->count ? sw->count[p * sw->ncols + c] : sw->nsamples;
}

/* The policy-independent fields; 0 or -1 with the reason in sb. */
static int check_shape(const struct bench_sweep *sw, struct strbuf *sb)
{
	if (!sw->name || !bench_csv_name_ok(sw->name) || strlen(sw->name) > BENCH_SWEEP_NAME_MAX)
		return strbuf_printf(sb, "sweep name '%.48s' is not 1..%d of A-Z a-z 0-9 . _ -",
				     sw->name ? sw->name : "", BENCH_SWEEP_NAME_MAX), -1;
	if (!sw->unit || !sw->unit[0] || !bench_csv_text_ok(sw->unit, BENCH_LABEL_MAX))
		return strbuf_printf(sb, "%s: unit '%.40s' is not 1..%d characters without control characters",
				     sw->name, sw->unit ? sw->unit : "", BENCH_LABEL_MAX), -1;
	if (sw->group_label && (!sw->group_label[0] || !bench_csv_text_ok(sw->group_label, BENCH_LABEL_MAX)))
		return strbuf_printf(sb, "%s: group label '%.40s' is not 1..%d characters without control characters",
				     sw->name, sw->group_label, BENCH_LABEL_MAX), -1;
	if (sw->decimals < 0 || sw->decimals > BENCH_DECIMALS_MAX)
		return strbuf_printf(sb, "%s: decimals %d is outside 0..%d", sw->name, sw->decimals,
				     BENCH_DECIMALS_MAX), -1;
	if (sw->ncols < 1 || sw->ncols > BENCH_MAX_COLS || !sw->threads)
		return strbuf_printf(sb, "%s: %d thread counts is outside 1..%d", sw->name,
				     sw->threads ? sw->ncols : 0, BENCH_MAX_COLS), -1;
	for (int c = 0; c < sw->ncols; c++)
		if (sw->threads[c] < 1 || sw->threads[c] > BENCH_MAX_THREADS)
			return strbuf_printf(sb, "%s: column %d: %d threads is outside 1..%d", sw->name, c + 1,
					     sw->threads[c], BENCH_MAX_THREADS), -1;
	if (sw->npolicies < 1 || sw->npolicies > BENCH_MAX_POLICIES || !sw->policy)
		return strbuf_printf(sb, "%s: %d policies is outside 1..%d", sw->name,
				     sw->policy ? sw->npolicies : 0, BENCH_MAX_POLICIES), -1;
	for (int p = 0; p < sw->npolicies; p++)
		if (!sw->policy[p] || !sw->policy[p][0] || !bench_csv_text_ok(sw->policy[p], BENCH_POLICY_MAX))
			return strbuf_printf(sb, "%s: policy %d: name '%.70s' is not 1..%d characters without "
					     "control characters", sw->name, p + 1,
					     sw->policy[p] ? sw->policy[p] : "", BENCH_POLICY_MAX), -1;
	if (sw->nsamples < 1 || sw->nsamples > BENCH_MAX_SAMPLES || !sw->v)
		return strbuf_printf(sb, "%s: %d samples is outside 1..%d", sw->name,
				     sw->v ? sw->nsamples : 0, BENCH_MAX_SAMPLES), -1;
	return 0;
}

int bench_sweep_check(const struct bench_sweep *sw, char *why, size_t size)
{
	struct strbuf sb;
	strbuf_init(&sb, why, size);
	if (check_shape(sw, &sb))
		return -1;
	for (int p = 0; p < sw->npolicies; p++) {
		for (int c = 0; c < sw->ncols; c++) {
			int n = sweep_count(sw, p, c);
			if (n < 0 || n > sw->nsamples) {
				strbuf_printf(&sb, "%s: policy %s, %d threads: %d samples taken is outside 0..%d",
					      sw->name, sw->policy[p], sw->threads[c], n, sw->nsamples);
				return -1;
			}
			const int64_t *v = sweep_col(sw, p, c);
			for (int s = 0; s < n; s++) {
				if (v[s] < 0 || v[s] > BENCH_VALUE_MAX) {
					strbuf_printf(&sb, "%s: policy %s, %d threads, sample %d: %lld is outside 0..%lld",
						      sw->name, sw->policy[p], sw->threads[c], s + 1, (long long)v[s],
						      (long long)BENCH_VALUE_MAX);
					return -1;
				}
			}
		}
	}
	return 0;
}

/* All comparison fields "not defined" (a column not taken). */
static void cmp_none(struct bench_cmp *m)
{
	m->rate_avg = m->rate_median = m->rate_max_min = m->rate_min_min = BENCH_NA;
	m->mwu.method = BENCH_MWU_NONE;
	m->mwu.u2_b = 0;
	m->mwu.p = BENCH_P_ONE;
	m->ci.lo = m->ci.hi = BENCH_NA;
}

int bench_sweep_compute(const struct bench_sweep *sw, const struct bench_out *o, struct bench_table_scratch *t)
{
	if (bench_sweep_check(sw, t->line, sizeof(t->line))) {
		bench_printf(o, "bench: %s\n", t->line);
		return -1;
	}
	uint64_t seed = sw->seed ? sw->seed : BENCH_BOOTSTRAP_SEED;
	for (int p = 0; p < sw->npolicies; p++) {
		for (int c = 0; c < sw->ncols; c++) {
			struct bench_col *col = &t->col[p][c];
			int n = sweep_count(sw, p, c);
			memset(col, 0, sizeof(*col));
			col->threads = sw->threads[c];
			if (n)
				bench_stats_column(sweep_col(sw, p, c), n, sw->threads[c], t->s.a, col);
			cmp_none(&t->cmp[p][c]);
			if (p && n && t->col[0][c].n)
				bench_compare(sweep_col(sw, 0, c), &t->col[0][c], sweep_col(sw, p, c), col, seed,
					      &t->s, &t->cmp[p][c]);
		}
	}
	return 0;
}

int bench_report(const struct bench_sweep *sw, const struct bench_out *o, struct bench_table_scratch *t)
{
	if (bench_sweep_compute(sw, o, t))
		return -1;
	bench_table_print(sw, o, t);
	bench_table_csv(sw, o, t);
	return 0;
}
