/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_drv_energy.c — what each run cost in energy, where the platform
 * meters it (the RAPL counters in the kernel, real or emulated; the
 * machine's power model in schedsim): joules, average watts and, for a
 * figure that is a rate per second, work per joule (the figure divided by
 * the average watts); per run, as medians against policy A with the
 * Mann-Whitney U test, and as CSV (docs/bench.md, "Energy").
 */
#include <kern/printk.h>
#include <lib/strbuf.h>
#include <lib/string.h>
#include <bench/bench_drv.h>
#include <bench/bench_rt.h>
#include <bench/bench_csv.h>
#include <bench/bench_stats.h>

/* The run's average power, mW; BENCH_NA unknown. */
static int64_t run_mw(const struct bench_run_rec *r)
{
	if (r->energy_uj < 0 || !r->elapsed_ns)
		return BENCH_NA;
	return bench_muldiv((uint64_t)r->energy_uj, 1000000u, r->elapsed_ns);
}

/* The run's work per joule in thousandths of the workload's per-joule
 * unit: figure (x 10^decimals) / watts; BENCH_NA without a per-joule unit
 * or energy. */
static int64_t run_per_joule(const struct bench_wl *wl, const struct bench_run_rec *r)
{
	if (!wl->per_joule || r->energy_uj <= 0 || r->value < 0)
		return BENCH_NA;
	int64_t v = bench_muldiv((uint64_t)r->value, r->elapsed_ns, (uint64_t)r->energy_uj);
	for (int k = 0; k < wl->decimals; k++)
		v /= 10;
	return v;
}

/* See bench_drv.h. */
void bench_drv_energy_line(const struct bench_plan *pl, const struct bench_out *o,
			   const struct bench_run_rec *r)
{
	char j[24], w[24], pj[24];
	if (r->energy_uj < 0)
		return;
	bench_drv_fixed(j, sizeof(j), r->energy_uj / 1000, 3);
	bench_drv_fixed(w, sizeof(w), run_mw(r), 3);
	bench_printf(o, "bench:   energy: %s J over %lu ms, %s W average", j,
		     (unsigned long)(r->elapsed_ns / 1000000u), w);
	if (pl->wl->per_joule) {
		bench_drv_fixed(pj, sizeof(pj), run_per_joule(pl->wl, r), 3);
		bench_printf(o, ", %s %s", pj, pl->wl->per_joule);
	}
	bench_printf(o, "\n");
}

/* The figure the energy table compares: work per joule where the
 * workload has a unit for it, else joules (µJ). */
static int64_t compared(const struct bench_wl *wl, const struct bench_run_rec *r)
{
	return wl->per_joule ? run_per_joule(wl, r) : r->energy_uj;
}

/* The taken runs of (pol, col) with energy: their compared figures into
 * v (sorted), their µJ and mW into uj and mw (unsorted); the count. */
static int energy_runs(const struct bench_plan *pl, const struct bench_data *d, int pol, int col,
		       int64_t *v, int64_t *uj, int64_t *mw)
{
	int n = 0;
	for (int i = 0; i < d->done; i++) {
		const struct bench_run_rec *r = &d->rec[i];
		if (!r->taken || r->energy_uj < 0 || !bench_drv_run_is(pl, i, pol, col) ||
		    compared(pl->wl, r) < 0)
			continue;
		v[n] = compared(pl->wl, r);
		uj[n] = r->energy_uj;
		mw[n++] = run_mw(r);
	}
	bench_sort(v, n);
	return n;
}

/* Scratch of the table: two sorted columns, µJ and mW, the U test's. */
struct energy_scratch {
	int64_t a[BENCH_MAX_SAMPLES], b[BENCH_MAX_SAMPLES];
	int64_t uj[BENCH_MAX_SAMPLES], mw[BENCH_MAX_SAMPLES];
	int64_t poly[BENCH_MWU_POLY];
};

/* One line of the table: (pol, col) against A's column s->a[0..na). */
static void energy_row(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d,
		       struct energy_scratch *s, int pol, int col, int na)
{
	int n = energy_runs(pl, d, pol, col, s->b, s->uj, s->mw);
	char name[32], j[24], w[24], pj[24] = "-", vs[16] = "-", p[16] = "-";
	struct strbuf sb;
	ksnprintf(name, sizeof(name), "%c %s", 'A' + pol, pl->policy[pol]);
	bench_drv_fixed(j, sizeof(j), n ? bench_drv_median(s->uj, n) / 1000 : BENCH_NA, 3);
	bench_drv_fixed(w, sizeof(w), bench_drv_median(s->mw, n), 3);
	int64_t med = bench_drv_median(s->b, n);
	if (pl->wl->per_joule)
		bench_drv_fixed(pj, sizeof(pj), med, 3);
	if (pol > 0 && n && na) {
		struct bench_mwu m;
		int64_t ma = bench_drv_median(s->a, na);   /* s->a is sorted: sorting again keeps it */
		strbuf_init(&sb, vs, sizeof(vs));
		bench_put_pct(&sb, bench_ratio((uint64_t)med, (uint64_t)ma));
		bench_mwu(s->a, na, s->b, n, s->poly, &m);
		strbuf_init(&sb, p, sizeof(p));
		bench_put_p4(&sb, m.p);
	}
	bench_printf(o, "%-22s %7d %5d %12s %10s %14s %9s %8s\n", name, pl->threads[col], n, j, w, pj, vs, p);
}

/* See bench_drv.h. */
void bench_drv_energy_report(const struct bench_plan *pl, const struct bench_out *o,
			     const struct bench_data *d)
{
	int any = 0;
	for (int i = 0; i < d->done && !any; i++)
		any = d->rec[i].recorded && d->rec[i].energy_uj >= 0;
	if (!any)
		return;
	struct energy_scratch *s = brt_calloc(1, sizeof(*s));
	if (!s) {
		bench_printf(o, "bench: no memory for the energy table\n");
		return;
	}
	const char *per = pl->wl->per_joule ? pl->wl->per_joule : "J";
	bench_printf(o, "\n[Energy] medians of the runs: joules and average watts of the whole machine "
		     "during each run%s\n", pl->wl->per_joule ? ", and the figure per joule" : "");
	bench_printf(o, "%-22s %7s %5s %12s %10s %14s %9s %8s\n", "policy", "threads", "runs", "joules",
		     "watts", pl->wl->per_joule ? per : "-", "med vs A", "MWU p");
	for (int c = 0; c < pl->ncols; c++) {
		int na = energy_runs(pl, d, 0, c, s->a, s->uj, s->mw);
		for (int p = 0; p < pl->npol; p++)
			energy_row(pl, o, d, s, p, c, na);
	}
	bench_printf(o, "med vs A, MWU p: %s of each policy against policy A (Mann-Whitney U, two-sided)%s.\n",
		     pl->wl->per_joule ? per : "joules",
		     pl->wl->per_joule ? "; per joule = the figure / average watts" : "");
	brt_free(s);
}

/* See bench_drv.h. */
void bench_drv_energy_csv(const struct bench_plan *pl, const struct bench_out *o, const struct bench_data *d)
{
	struct bench_csv c;
	char name[BENCH_CSV_NAME_MAX + 1];
	static const char *const h[] = { "policy", "threads", "sample", "order", "joules", "seconds", "watts",
					 "per_joule", "per_joule_unit" };
	int any = 0;
	for (int i = 0; i < d->done && !any; i++)
		any = d->rec[i].recorded && d->rec[i].energy_uj >= 0;
	if (!any)
		return;
	ksnprintf(name, sizeof(name), "%s.energy", pl->wl->name);
	bench_csv_begin(&c, o, name, "energy/1");
	bench_csv_header(&c, h, sizeof(h) / sizeof(h[0]));
	for (int i = 0; i < d->done; i++) {
		const struct bench_run_rec *r = &d->rec[i];
		if (!r->recorded || r->energy_uj < 0)
			continue;
		int s, col, p;
		bench_drv_run_pos(pl, i, &s, &col, &p);
		bench_csv_str(&c, pl->policy[p]);
		bench_csv_int(&c, pl->threads[col]);
		bench_csv_int(&c, s + 1);
		bench_csv_int(&c, i + 1);
		bench_csv_fixed(&c, r->energy_uj, 6);
		bench_csv_fixed(&c, (int64_t)(r->elapsed_ns / 1000u), 6);
		bench_csv_fixed(&c, run_mw(r), 3);
		if (pl->wl->per_joule) {
			bench_csv_fixed(&c, run_per_joule(pl->wl, r), 3);
			bench_csv_str(&c, pl->wl->per_joule);
		} else {
			bench_csv_empty(&c);
			bench_csv_empty(&c);
		}
		bench_csv_row(&c);
	}
	bench_csv_end(&c);
}
