/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_drv_report.c — the report of a benchmark plan (see bench_drv.h):
 * the seed report's tables or a compact table, the medians of the extra
 * figures and latency percentiles, where the work ran, CSV blocks, and
 * which figures come from the machine model and which from real time.
 */
#include <lib/string.h>
#include <kern/printk.h>
#include <lib/strbuf.h>
#include <bench/bench_csv.h>
#include <bench/bench_drv.h>

static const char *const pct_names[BENCH_LAT_PCTS] = { "p50", "p90", "p99", "p99.9" };

/* See bench_drv.h. */
int bench_drv_run_is(const struct bench_plan *pl, int i, int pol, int col)
{
	int s, c, p;
	bench_drv_run_pos(pl, i, &s, &c, &p);
	return c == col && p == pol;
}

/* See bench_drv.h. */
int64_t bench_drv_median(int64_t *v, int n)
{
	if (n == 0)
		return BENCH_NA;
	bench_sort(v, n);
	int64_t a = v[(n - 1) / 2], b = v[n / 2];
	return a + (b - a + 1) / 2;
}

/* Median over the samples of (pol, col) of the figure get() reads
 * (values < 0 are not defined and left out). */
static int64_t median_runs(const struct bench_plan *pl, const struct bench_data *d, int pol, int col,
			   int64_t *tmp, int64_t (*get)(const struct bench_run_rec *, int), int k)
{
	int n = 0;
	for (int i = 0; i < d->done; i++)
		if (d->rec[i].taken && bench_drv_run_is(pl, i, pol, col) && get(&d->rec[i], k) >= 0)
			tmp[n++] = get(&d->rec[i], k);
	return bench_drv_median(tmp, n);
}

/* Readers for median_runs(): extra figure k; latency set k / 4, percentile k % 4. */
static int64_t get_extra(const struct bench_run_rec *r, int k) { return r->extra[k]; }
static int64_t get_lat(const struct bench_run_rec *r, int k) { return r->lat[k / BENCH_LAT_PCTS][k % BENCH_LAT_PCTS]; }

/* Where the recorded runs of (pol, col) ran: shares in 0.01 % of their
 * run time (P alone, P beside a busy sibling, E, LP-E, other), the
 * migrations, HFI updates (-1: unknown) and end placements by type. */
struct place_sum {
	int runs;
	int64_t share[5];
	uint64_t migrations;
	int64_t hfi;
	unsigned end[4];
};

/* Fills s for the recorded runs of (pol, col). */
static void place_sum(const struct bench_plan *pl, const struct bench_data *d, int pol, int col,
		      struct place_sum *s)
{
	uint64_t t[4] = { 0, 0, 0, 0 }, shared = 0;
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < d->done; i++) {
		const struct bench_run_rec *r = &d->rec[i];
		if (!r->recorded || !bench_drv_run_is(pl, i, pol, col))
			continue;
		s->runs++;
		for (int k = 0; k < 4; k++) {
			t[k] += r->run_ns_type[k];
			s->end[k] += r->end_type[k];
		}
		shared += r->run_ns_shared < r->run_ns_type[1] ? r->run_ns_shared : r->run_ns_type[1];
		s->migrations += r->migrations;
		s->hfi = r->hfi_updates < 0 || s->hfi < 0 ? -1 : s->hfi + r->hfi_updates;
	}
	uint64_t all = t[0] + t[1] + t[2] + t[3];
	uint64_t part[5] = { t[1] - shared, shared, t[2], t[3], t[0] };
	for (int k = 0; k < 5; k++)
		s->share[k] = all ? bench_muldiv(part[k], 10000, all) : 0;
}

/* Runs that completed (stopped and refused runs are not). */
static int completed_runs(const struct bench_data *d)
{
	int n = 0;
	for (int i = 0; i < d->done; i++)
		n += d->rec[i].recorded;
	return n;
}

/* The first lines: what runs, and with what. */
static void report_header(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d)
{
	const struct bench_wl *wl = pl->wl;
	char el[16];
	int completed = completed_runs(d);
	bench_drv_duration(el, sizeof(el), d->end_ns - d->start_ns);
	bench_printf(o, "\nbench: %s: %s\n", wl->name, wl->descr);
	bench_printf(o, "bench: reproduces %s\n", wl->seed);
	bench_printf(o, "bench: %s in %s, %s is better; thread count = %s;", wl->name, wl->unit,
		     wl->higher_is_better ? "higher" : "lower", wl->threads_means);
	for (int k = 0; k < wl->nopts; k++)
		bench_printf(o, " --%s %lu", wl->opts[k].name, pl->opt[k]);
	bench_printf(o, "\nbench: %d of %d runs completed in %s (%d per policy and thread count, policies "
		     "alternating run by run)%s\n", completed, d->total, el, pl->runs,
		     d->stopped ? "; STOPPED before the end: the tables hold the runs completed" : "");
}

/* The compact table: one line per policy and thread count. */
static void report_compact(const struct bench_plan *pl, const struct bench_out *o,
			   const struct bench_table_scratch *t)
{
	bench_printf(o, "%-22s %7s %5s %16s %16s %16s %8s %9s %8s  %s\n", "policy", "threads", "runs",
		     "median", "min", "max", "CV", "med vs A", "MWU p", "CI95 of med/med(A)");
	for (int p = 0; p < pl->npol; p++)
		for (int c = 0; c < pl->ncols; c++) {
			const struct bench_col *col = &t->col[p][c];
			const struct bench_cmp *m = &t->cmp[p][c];
			char name[32], med[24], mn[24], mx[24], cv[16] = "-", rate[16] = "-", pv[16] = "-",
			     ci[40] = "-";
			struct strbuf sb;
			ksnprintf(name, sizeof(name), "%c %s", 'A' + p, pl->policy[p]);
			bench_drv_fixed(med, sizeof(med), col->n ? col->median : BENCH_NA, pl->wl->decimals);
			bench_drv_fixed(mn, sizeof(mn), col->n ? col->min : BENCH_NA, pl->wl->decimals);
			bench_drv_fixed(mx, sizeof(mx), col->n ? col->max : BENCH_NA, pl->wl->decimals);
			if (col->n) {
				strbuf_init(&sb, cv, sizeof(cv));
				bench_put_pct(&sb, col->cv);
			}
			if (p > 0 && col->n && m->mwu.method != BENCH_MWU_NONE) {
				strbuf_init(&sb, rate, sizeof(rate));
				bench_put_pct(&sb, m->rate_median);
				strbuf_init(&sb, pv, sizeof(pv));
				bench_put_p4(&sb, m->mwu.p);
				strbuf_init(&sb, ci, sizeof(ci));
				bench_put_pct(&sb, m->ci.lo);
				strbuf_puts(&sb, " .. ");
				bench_put_pct(&sb, m->ci.hi);
			}
			bench_printf(o, "%-22s %7d %5d %16s %16s %16s %8s %9s %8s  %s\n", name, pl->threads[c],
				     col->n, med, mn, mx, cv, rate, pv, ci);
		}
	bench_printf(o, "CV: sample SD / mean. med vs A: median / median of policy A. MWU p: Mann-Whitney U "
		     "test against A, two-sided. CI95: bootstrap of the median ratio.\n");
	bench_note_significance(o, t, pl->npol, pl->ncols);
}

/* Medians of the extra figures and of the latency percentiles. */
static void report_extras(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d,
			  int64_t *tmp)
{
	const struct bench_wl *wl = pl->wl;
	if (!wl->nextra && !wl->nlat)
		return;
	bench_printf(o, "\n[Medians over the runs]\n");
	for (int p = 0; p < pl->npol; p++)
		for (int c = 0; c < pl->ncols; c++) {
			bench_printf(o, "%-22s threads %d:", pl->policy[p], pl->threads[c]);
			for (int k = 0; k < wl->nextra; k++) {
				char v[24];
				bench_drv_fixed(v, sizeof(v), median_runs(pl, d, p, c, tmp, get_extra, k),
						wl->extras[k].decimals);
				bench_printf(o, "%s %s %s", k ? ";" : "", wl->extras[k].name, v);
				if (wl->extras[k].unit[0] && strcmp(wl->extras[k].unit, wl->extras[k].name))
					bench_printf(o, " %s", wl->extras[k].unit);
			}
			for (int l = 0; l < wl->nlat; l++) {
				bench_printf(o, "%s %s latency", wl->nextra || l ? ";" : "", wl->lat_names[l]);
				for (int q = 0; q < BENCH_LAT_PCTS; q++) {
					char v[24];
					bench_drv_fixed(v, sizeof(v),
							median_runs(pl, d, p, c, tmp, get_lat, l * BENCH_LAT_PCTS + q), 3);
					bench_printf(o, " %s %s", pct_names[q], v);
				}
				bench_printf(o, " us");
			}
			bench_printf(o, "\n");
		}
}

/* Shares in 0.01 % as "12.34%". */
static void pct_text(char *buf, size_t len, int64_t v)
{
	struct strbuf sb;
	strbuf_init(&sb, buf, len);
	bench_put_pct(&sb, v);
}

/* Where the work ran, per policy and thread count. */
static void report_placement(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d)
{
	bench_printf(o, "\n[Where the work ran] share of the threads' run time, all runs of a policy and "
		     "thread count\n");
	bench_printf(o, "%-22s %7s %5s %8s %9s %8s %8s %8s %10s %8s  %s\n", "policy", "threads", "runs",
		     "P-core", "P SMT2", "E-core", "LP-E", "other", "migr/run", "HFI upd",
		     "threads ended on P/E/LP-E/other");
	for (int p = 0; p < pl->npol; p++)
		for (int c = 0; c < pl->ncols; c++) {
			struct place_sum s;
			char sh[5][12], hfi[16] = "-", mig[24] = "-";
			place_sum(pl, d, p, c, &s);
			for (int k = 0; k < 5; k++)
				pct_text(sh[k], sizeof(sh[k]), s.share[k]);
			if (s.hfi >= 0 && s.runs)
				ksnprintf(hfi, sizeof(hfi), "%ld", (long)s.hfi);
			if (s.runs)
				bench_drv_fixed(mig, sizeof(mig), bench_muldiv(s.migrations, 10, (uint64_t)s.runs), 1);
			bench_printf(o, "%-22s %7d %5d %8s %9s %8s %8s %8s %10s %8s  %u/%u/%u/%u\n", pl->policy[p],
				     pl->threads[c], s.runs, sh[0], sh[1], sh[2], sh[3], sh[4], mig, hfi, s.end[1],
				     s.end[2], s.end[3], s.end[0]);
		}
	bench_printf(o, "P-core: on a P-core with its SMT sibling idle; P SMT2: while the sibling was busy. "
		     "Per run: the 'where' lines above.\n");
}

/* Which figures come from the machine model and which from real time. */
static void report_basis(const struct bench_plan *pl, const struct bench_plat *pf, const struct bench_out *o)
{
	const struct bench_wl *wl = pl->wl;
	if (!pf->work_clock) {
		bench_printf(o, "bench: no work clock: every figure is measured in real time (work(W) is a loop "
			     "calibrated at boot on the fastest core).\n");
		return;
	}
	char model[256], timed[256];
	struct strbuf m, t;
	strbuf_init(&m, model, sizeof(model));
	strbuf_init(&t, timed, sizeof(timed));
	strbuf_printf(wl->basis == BENCH_BASIS_WORK ? &m : &t, "%s (%s)", wl->unit, "the main figure");
	for (int k = 0; k < wl->nextra; k++) {
		struct strbuf *sb = wl->extras[k].basis == BENCH_BASIS_WORK ? &m : &t;
		strbuf_printf(sb, "%s%s", sb->len ? ", " : "", wl->extras[k].name);
	}
	for (int l = 0; l < wl->nlat; l++)
		strbuf_printf(&t, "%s%s latency", t.len ? ", " : "", wl->lat_names[l]);
	if (pf->simulated) {
		bench_printf(o, "bench: simulated machine: work is counted at each CPU's modelled speed in "
			     "simulated time, so every figure is the machine model's.\n");
		bench_printf(o, "bench:   from the work clock: %s\n", m.len ? model : "-");
		bench_printf(o, "bench:   from simulated time (waking, sleeping, channel waits as modelled): "
			     "%s\n", t.len ? timed : "-");
		bench_printf(o, "bench:   placement shares: the scheduler's run-time accounting (simulated "
			     "time).\n");
		return;
	}
	bench_printf(o, "bench: emulated machine, work clock on: work is counted at each CPU's modelled "
		     "speed, so what follows from work and placement is the machine model's, whatever "
		     "host runs QEMU.\n");
	bench_printf(o, "bench:   from the machine model (work clock): %s\n", m.len ? model : "-");
	bench_printf(o, "bench:   from guest time (includes waking, sleeping, channel waits at the "
		     "emulator's speed): %s\n", t.len ? timed : "-");
	bench_printf(o, "bench:   placement shares: the scheduler's run-time accounting (guest time).\n");
}

/* The case name of a CSV row: "4 threads". */
static void case_text(char *buf, size_t len, int threads, const char *suffix)
{
	ksnprintf(buf, len, "%d threads%s%s", threads, suffix ? ", " : "", suffix ? suffix : "");
}

/* CSV NAME.placement (placement/1) and NAME.latency (latency/1). */
static void csv_summaries(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d,
			  int64_t *tmp)
{
	struct bench_csv c;
	char name[BENCH_CSV_NAME_MAX + 1], cs[48];
	static const char *const ph[] = { "policy", "case", "p_core_pct", "smt_shared_pct", "e_core_pct",
					  "lp_e_core_pct" };
	ksnprintf(name, sizeof(name), "%s.placement", pl->wl->name);
	bench_csv_begin(&c, o, name, "placement/1");
	bench_csv_header(&c, ph, sizeof(ph) / sizeof(ph[0]));
	for (int p = 0; p < pl->npol; p++)
		for (int col = 0; col < pl->ncols; col++) {
			struct place_sum s;
			place_sum(pl, d, p, col, &s);
			if (!s.runs)
				continue;
			case_text(cs, sizeof(cs), pl->threads[col], NULL);
			bench_csv_str(&c, pl->policy[p]);
			bench_csv_str(&c, cs);
			for (int k = 0; k < 4; k++)
				bench_csv_fixed(&c, s.share[k], 2);
			bench_csv_row(&c);
		}
	bench_csv_end(&c);
	if (!pl->wl->nlat)
		return;
	static const char *const lh[] = { "policy", "case", "p50", "p90", "p99", "p99_9", "unit" };
	ksnprintf(name, sizeof(name), "%s.latency", pl->wl->name);
	bench_csv_begin(&c, o, name, "latency/1");
	bench_csv_header(&c, lh, sizeof(lh) / sizeof(lh[0]));
	for (int p = 0; p < pl->npol; p++)
		for (int col = 0; col < pl->ncols; col++)
			for (int l = 0; l < pl->wl->nlat; l++) {
				int64_t v[BENCH_LAT_PCTS];
				for (int q = 0; q < BENCH_LAT_PCTS; q++)
					v[q] = median_runs(pl, d, p, col, tmp, get_lat, l * BENCH_LAT_PCTS + q);
				if (v[0] < 0)
					continue;
				case_text(cs, sizeof(cs), pl->threads[col], pl->wl->lat_names[l]);
				bench_csv_str(&c, pl->policy[p]);
				bench_csv_str(&c, cs);
				for (int q = 0; q < BENCH_LAT_PCTS; q++)
					bench_csv_fixed(&c, v[q], 3);
				bench_csv_str(&c, "us");
				bench_csv_row(&c);
			}
	bench_csv_end(&c);
}

/* CSV NAME.runs (runs/1): every completed run in the order taken. */
static void csv_runs(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d)
{
	struct bench_csv c;
	char name[BENCH_CSV_NAME_MAX + 1];
	static const char *const h[] = { "policy", "threads", "sample", "order", "value", "unit", "taken",
					 "p_core_pct", "smt_shared_pct", "e_core_pct", "lp_e_core_pct",
					 "other_pct", "migrations", "hfi_updates", "end_p", "end_e",
					 "end_lp_e", "end_other" };
	ksnprintf(name, sizeof(name), "%s.runs", pl->wl->name);
	bench_csv_begin(&c, o, name, "runs/1");
	bench_csv_header(&c, h, sizeof(h) / sizeof(h[0]));
	for (int i = 0; i < d->done; i++) {
		const struct bench_run_rec *r = &d->rec[i];
		if (!r->recorded)
			continue;
		int s, col, p;
		bench_drv_run_pos(pl, i, &s, &col, &p);
		uint64_t all = r->run_ns_type[0] + r->run_ns_type[1] + r->run_ns_type[2] + r->run_ns_type[3];
		uint64_t sh = r->run_ns_shared < r->run_ns_type[1] ? r->run_ns_shared : r->run_ns_type[1];
		uint64_t part[5] = { r->run_ns_type[1] - sh, sh, r->run_ns_type[2], r->run_ns_type[3],
				     r->run_ns_type[0] };
		bench_csv_str(&c, pl->policy[p]);
		bench_csv_int(&c, pl->threads[col]);
		bench_csv_int(&c, s + 1);
		bench_csv_int(&c, i + 1);
		bench_csv_fixed(&c, r->value, pl->wl->decimals);
		bench_csv_str(&c, pl->wl->unit);
		bench_csv_int(&c, r->taken);
		for (int k = 0; k < 5; k++)
			bench_csv_fixed(&c, all ? bench_muldiv(part[k], 10000, all) : 0, 2);
		bench_csv_int(&c, (int64_t)r->migrations);
		if (r->hfi_updates >= 0)
			bench_csv_int(&c, r->hfi_updates);
		else
			bench_csv_empty(&c);
		bench_csv_int(&c, r->end_type[1]);
		bench_csv_int(&c, r->end_type[2]);
		bench_csv_int(&c, r->end_type[3]);
		bench_csv_int(&c, r->end_type[0]);
		bench_csv_row(&c);
	}
	bench_csv_end(&c);
}

/* CSV NAME.extras (run-extras/1): the extra figures and percentiles of every run. */
static void csv_extras(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d)
{
	const struct bench_wl *wl = pl->wl;
	if (!wl->nextra && !wl->nlat)
		return;
	struct bench_csv c;
	char name[BENCH_CSV_NAME_MAX + 1], fig[48];
	static const char *const h[] = { "policy", "threads", "sample", "order", "figure", "value", "unit" };
	ksnprintf(name, sizeof(name), "%s.extras", wl->name);
	bench_csv_begin(&c, o, name, "run-extras/1");
	bench_csv_header(&c, h, sizeof(h) / sizeof(h[0]));
	for (int i = 0; i < d->done; i++) {
		const struct bench_run_rec *r = &d->rec[i];
		if (!r->recorded)
			continue;
		int s, col, p;
		bench_drv_run_pos(pl, i, &s, &col, &p);
		for (int k = 0; k < wl->nextra + wl->nlat * BENCH_LAT_PCTS; k++) {
			int64_t v;
			int dec;
			const char *unit;
			if (k < wl->nextra) {
				v = r->extra[k];
				dec = wl->extras[k].decimals;
				unit = wl->extras[k].unit;
				ksnprintf(fig, sizeof(fig), "%s", wl->extras[k].name);
			} else {
				int l = (k - wl->nextra) / BENCH_LAT_PCTS, q = (k - wl->nextra) % BENCH_LAT_PCTS;
				v = r->lat[l][q];
				dec = 3;
				unit = "us";
				ksnprintf(fig, sizeof(fig), "%s latency %s", wl->lat_names[l], pct_names[q]);
			}
			bench_csv_str(&c, pl->policy[p]);
			bench_csv_int(&c, pl->threads[col]);
			bench_csv_int(&c, s + 1);
			bench_csv_int(&c, i + 1);
			bench_csv_str(&c, fig);
			if (v < 0)
				bench_csv_empty(&c);
			else
				bench_csv_fixed(&c, v, dec);
			bench_csv_str(&c, unit[0] ? unit : "-");
			bench_csv_row(&c);
		}
	}
	bench_csv_end(&c);
}

/* See bench_drv.h. */
void bench_drv_report(const struct bench_plan *pl, const struct bench_plat *pf, const struct bench_out *o,
		      struct bench_data *d, int csv)
{
	const char *names[BENCH_MAX_POLICIES];
	int taken = 0;
	for (int p = 0; p < pl->npol; p++)
		names[p] = pl->policy[p];
	for (int k = 0; k < pl->npol * pl->ncols; k++)
		taken += d->count[k];
	report_header(pl, o, d);
	if (!completed_runs(d)) {
		bench_printf(o, "bench: no run completed: nothing to report\n");
		return;
	}
	struct bench_sweep sw = {
		.name = pl->wl->name, .unit = pl->wl->unit, .group_label = "Policy",
		.decimals = pl->wl->decimals, .ncols = pl->ncols, .threads = pl->threads,
		.npolicies = pl->npol, .policy = names, .nsamples = pl->runs, .count = d->count, .v = d->v,
	};
	int64_t *tmp = brt_calloc((size_t)pl->runs, sizeof(*tmp));
	if (!tmp) {
		bench_printf(o, "bench: no memory for the report\n");
		return;
	}
	bench_printf(o, "\n");
	if (taken && bench_sweep_compute(&sw, o, d->scratch) == 0) {
		if (pl->sweep)
			bench_table_print(&sw, o, d->scratch);
		else
			report_compact(pl, o, d->scratch);
		if (csv)
			bench_table_csv(&sw, o, d->scratch);
	}
	report_extras(pl, o, d, tmp);
	report_placement(pl, o, d);
	bench_drv_energy_report(pl, o, d);
	if (csv) {
		csv_summaries(pl, o, d, tmp);
		csv_runs(pl, o, d);
		csv_extras(pl, o, d);
		bench_drv_energy_csv(pl, o, d);
	}
	report_basis(pl, pf, o);
	brt_free(tmp);
}
