/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_gen.c — a seeded generator of machine descriptions (sim_gen.h).
 * Every draw comes from one splitmix64 stream seeded by the machine's
 * number, so a seed names a machine for good. What it draws, per machine
 * (uniform unless said; percentages are chances per machine):
 *
 *   shape     per package: 1..8 P-cores, SMT on (2 threads each) or off
 *             (50 %: Lunar, Arrow and Panther Lake have none); 0..4 E
 *             modules of 1..4 cores each (each module its own size), one
 *             LLC with the P-cores; 0..4 LP-E cores in a module of their
 *             own with llc=none. At least 2 CPUs: a lone single-thread
 *             P-core gets SMT. The counts of P-cores, E modules and LP-E
 *             cores are uniform on 1 machine in 4; on the others each is
 *             the smaller of two uniform draws (a run costs the square of
 *             the CPUs: small machines are cheap and have the same
 *             features). Two packages (15 %, when a package has at most
 *             16 CPUs): the same package twice, each with its own LLC
 *             (`package=`, `llc=` the package's number), so at most 36
 *             CPUs.
 *   speeds    P 1.0; E 0.850..0.950 (15 %: Skymont, Lunar and Arrow
 *             Lake), else 0.300..0.800; LP-E 0.200..0.600 and at least
 *             0.020 below E; smt-throughput P 1.050..1.600 (with SMT).
 *   numbering in order, a core's threads side by side (40 %); first
 *             threads of every core, then the P-cores' second threads
 *             (15 %, with SMT); Meteor Lake's, package by package: the
 *             first P-core, the E-cores, the other P-cores, the LP-E
 *             cores (20 %); a random permutation (25 %). Core ids follow
 *             the CPU numbers, module ids the shape (package by package:
 *             P-cores, E modules, LP-E). Meteor Lake's numbering comes with
 *             its leaf 0x1F levels (`cpuid-levels smt,core,module`: what
 *             the FreeBSD-compatible tree reads), the others with the
 *             default smt,core; no draw of its own.
 *   HFI       none: hfi-rows 0 (15 %); a row per P-core, per E module and
 *             per LP-E module (40 %); a row per CPU (45 %), numbered by
 *             CPU or by the shape (half each). Values per P-core, E module
 *             and LP-E module (SMT siblings alike, both packages alike):
 *             perf = scale × speed with scale 255 (75 %) or 60..254,
 *             strictly P > E > LP-E, at least 1; E modules tie (70 %) or
 *             differ by up to 3; favoured P-cores (50 % with 2 or more
 *             P-cores: 1 or 2 at the scale, the others 4..16 below); ee P
 *             30..120, E 110..230 per module, LP-E 150..255. Then, each
 *             independently: perf drawn 1..255 per unit, whatever the
 *             speeds (10 %); one row dropped to perf 0 with its ee kept,
 *             "avoid for performance" (12 %), and one to perf 0 and ee 0
 *             (10 %), each by a throttle event 500 ms after boot (before
 *             the workload starts), as hardware gives perf 0: the work
 *             clock runs those CPUs at its throttle floor, 1/8, from then
 *             on — except, for "ee 0" on a machine with LP-E cores, by a
 *             coin, the LP-E rows at perf 0 and ee 0 from boot, as the
 *             Core Ultra 7 155H reports them (not slowed: the part runs
 *             them at their speed); every row perf 0 from boot (8 %: ee 0
 *             too, "firmware that reports nothing", or ee kept, half each;
 *             no events then).
 *   power     a power line (20 %): P 8..25 W, E 1.5..7 W, LP-E 0.3..2 W a
 *             busy core, smt= 0..4 W (with SMT); the budget (per package)
 *             35..120 % of what every core of a package busy asks for, so
 *             it binds at some loads on most of these machines and never
 *             on the others.
 *
 * The text is checked by the kernel's parser (sim_gen_load); the
 * generator's own header comment lines say what was drawn.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sim/sim.h>
#include <sim/sim_gen.h>

#define GEN_PKGS 2
#define GEN_PKG_CORES (8 + 16 + 4)
#define GEN_PKG_UNITS (8 + 4 + 1)
#define GEN_MAX_CORES (GEN_PKGS * GEN_PKG_CORES)
#define GEN_MAX_UNITS (GEN_PKGS * GEN_PKG_UNITS)
#define GEN_MAX_CPUS (GEN_PKGS * (16 + 16 + 4))
#define GEN_TWO_PKG_MAX_CPUS 16   /* a package's CPUs, at most, for two packages */
#define GEN_THROTTLE_MS 500       /* the perf-0 events: before the workload starts (1 s) */

enum { NUM_IN_ORDER, NUM_SPLIT, NUM_MTL, NUM_PERMUTED };
enum { HFI_NONE, HFI_SHARED, HFI_PER_CPU };
enum { EV_NONE, EV_AVOID, EV_NEVER };   /* a row's throttle event: perf 0, ee kept or 0 */

struct gen_core {
	int type;          /* CPU_CORE_P, _E, _LPE */
	int threads;       /* 1 or 2 */
	int pkg;           /* package: also its LLC */
	int module;        /* module id; also the unit of its HFI values */
	int id;            /* core id (by first CPU) */
	int cpu[2];        /* CPU number of each thread */
	int row[2];        /* HFI row of each thread, -1 without HFI */
};

struct gen {
	uint64_t s;                          /* the random stream */
	int np, smt, nmod, modsize[4], nlp, npkg, near;
	unsigned speed_e, speed_lp, smt_tp;  /* thousandths */
	int ncores, ncpu, nunits;            /* units of a package: P-cores, E modules, the LP-E module */
	struct gen_core core[GEN_MAX_CORES];
	int numbering, hfi, rows_by_cpu, nrows;
	unsigned unit_perf[GEN_MAX_UNITS], unit_ee[GEN_MAX_UNITS];
	unsigned perf[GEN_MAX_CPUS], ee[GEN_MAX_CPUS];   /* per row, from boot */
	int event[GEN_MAX_CPUS];                         /* per row: EV_* */
	int favoured, random_perf, avoid, never, never_lpe, zero;   /* what was drawn, for the header */
	int power;
	unsigned p_mw, e_mw, lp_mw, smt_mw, budget_mw, demand_mw;
};

/* A number lo..hi (inclusive) from the stream. */
static unsigned pick(struct gen *g, unsigned lo, unsigned hi)
{
	return lo + (unsigned)(sim_mix(&g->s) % (uint64_t)(hi - lo + 1));
}

/* 1 with the chance percent / 100. */
static int chance(struct gen *g, unsigned percent)
{
	return pick(g, 1, 100) <= percent;
}

/* lo..hi, or on a small machine the smaller of two such draws. */
static int count(struct gen *g, int small, unsigned lo, unsigned hi)
{
	int a = (int)pick(g, lo, hi);
	if (!small)
		return a;
	int b = (int)pick(g, lo, hi);
	return a < b ? a : b;
}

/* The shape and the speeds: cores with their types, threads, packages
 * and modules (package by package in the shape's order: P-cores, E
 * modules, LP-E). */
static void draw_shape(struct gen *g)
{
	int small = chance(g, 75);
	g->np = count(g, small, 1, 8);
	g->nmod = count(g, small, 0, 4);
	g->nlp = count(g, small, 0, 4);
	g->smt = chance(g, 50);
	int per_pkg = g->np * (g->smt ? 2 : 1) + g->nlp;
	for (int i = 0; i < g->nmod; i++)
		per_pkg += g->modsize[i] = (int)pick(g, 1, 4);
	if (g->np == 1 && !g->smt && !g->nmod && !g->nlp) {
		g->smt = 1;
		per_pkg++;
	}
	g->near = chance(g, 15);
	g->speed_e = g->near ? pick(g, 850, 950) : pick(g, 300, 800);
	g->speed_lp = pick(g, 200, g->nmod && g->speed_e - 20 < 600 ? g->speed_e - 20 : 600);
	g->smt_tp = pick(g, 1050, 1600);
	g->npkg = chance(g, 15) && per_pkg <= GEN_TWO_PKG_MAX_CPUS ? 2 : 1;
	g->nunits = g->np + g->nmod + (g->nlp > 0);
	for (int k = 0; k < g->npkg; k++) {
		int unit = k * g->nunits;
		for (int i = 0; i < g->np; i++)
			g->core[g->ncores++] = (struct gen_core){ CPU_CORE_P, g->smt ? 2 : 1, k, unit++, 0, { 0 },
								  { -1, -1 } };
		for (int m = 0; m < g->nmod; m++, unit++)
			for (int i = 0; i < g->modsize[m]; i++)
				g->core[g->ncores++] = (struct gen_core){ CPU_CORE_E, 1, k, unit, 0, { 0 }, { -1, -1 } };
		for (int i = 0; i < g->nlp; i++)
			g->core[g->ncores++] = (struct gen_core){ CPU_CORE_LPE, 1, k, unit, 0, { 0 }, { -1, -1 } };
	}
	g->ncpu = g->npkg * per_pkg;
}

/* Meteor Lake's order of package k's cores, appended to seq[*n..]:
 * its first P-core, its E-cores, its other P-cores, its LP-E cores. */
static void mtl_order(const struct gen *g, int k, int *seq, int *n)
{
	int first = -1;
	for (int c = 0; c < g->ncores; c++)
		if (g->core[c].pkg == k && g->core[c].type == CPU_CORE_P && first < 0)
			seq[(*n)++] = first = c;
	static const int later[] = { CPU_CORE_E, CPU_CORE_P, CPU_CORE_LPE };
	for (int t = 0; t < 3; t++)
		for (int c = 0; c < g->ncores; c++)
			if (g->core[c].pkg == k && g->core[c].type == later[t] && c != first)
				seq[(*n)++] = c;
}

/* CPU numbers: the (core, thread) pairs in the numbering's order get 0,
 * 1, ...; core ids then follow each core's first CPU. */
static void draw_numbering(struct gen *g)
{
	int order[GEN_MAX_CPUS][2], n = 0;
	unsigned r = pick(g, 1, 100);
	g->numbering = r <= 40 ? NUM_IN_ORDER : r <= 55 ? NUM_SPLIT : r <= 75 ? NUM_MTL : NUM_PERMUTED;
	if (g->numbering == NUM_SPLIT && !g->smt)
		g->numbering = NUM_IN_ORDER;
	if (g->numbering == NUM_MTL && (!g->nmod || g->np < 2))
		g->numbering = NUM_IN_ORDER;
	if (g->numbering == NUM_SPLIT) {
		for (int c = 0; c < g->ncores; c++)
			order[n][0] = c, order[n++][1] = 0;
		for (int c = 0; c < g->ncores; c++)
			if (g->core[c].threads == 2)
				order[n][0] = c, order[n++][1] = 1;
	} else {
		int seq[GEN_MAX_CORES], k = 0;
		for (int p = 0; g->numbering == NUM_MTL && p < g->npkg; p++)
			mtl_order(g, p, seq, &k);
		for (int c = 0; g->numbering != NUM_MTL && c < g->ncores; c++)
			seq[k++] = c;
		for (int i = 0; i < k; i++)
			for (int t = 0; t < g->core[seq[i]].threads; t++)
				order[n][0] = seq[i], order[n++][1] = t;
	}
	if (g->numbering == NUM_PERMUTED)
		for (int i = n - 1; i > 0; i--) {
			int j = (int)pick(g, 0, (unsigned)i), a = order[i][0], b = order[i][1];
			order[i][0] = order[j][0], order[i][1] = order[j][1];
			order[j][0] = a, order[j][1] = b;
		}
	for (int i = 0; i < n; i++)
		g->core[order[i][0]].cpu[order[i][1]] = i;
	int next_id = 0, seen[GEN_MAX_CORES] = { 0 };
	for (int i = 0; i < n; i++)
		if (!seen[order[i][0]]) {
			seen[order[i][0]] = 1;
			g->core[order[i][0]].id = next_id++;
		}
}

/* The values of each unit of a package (P-core, E module, LP-E module)
 * as the speeds suggest — strictly P > E > LP-E, ties within a type, maybe
 * favoured P-cores — and the other package's units alike. */
static void draw_unit_values(struct gen *g)
{
	unsigned scale = chance(g, 75) ? 255 : pick(g, 60, 254);
	unsigned p_ee = pick(g, 30, 120), min_p = scale;
	int fav = g->np >= 2 && chance(g, 50) ? (int)pick(g, 1, g->np >= 3 ? 2 : 1) : 0;
	g->favoured = fav;
	unsigned below = pick(g, 4, 16);
	for (int u = 0; u < g->np; u++) {
		g->unit_perf[u] = fav ? scale - below : scale;
		g->unit_ee[u] = p_ee;
	}
	for (int i = 0; i < fav; i++)   /* fav distinct cores back to the scale */
		for (unsigned u = pick(g, 0, (unsigned)g->np - 1);; u = (u + 1) % (unsigned)g->np)
			if (g->unit_perf[u] != scale) {
				g->unit_perf[u] = scale;
				break;
			}
	for (int u = 0; u < g->np; u++)
		min_p = g->unit_perf[u] < min_p ? g->unit_perf[u] : min_p;
	unsigned e = (scale * g->speed_e + 500) / 1000, min_e = 255;
	int jitter = !chance(g, 70);
	for (int m = 0; m < g->nmod; m++) {
		unsigned v = e + (jitter ? pick(g, 0, 6) : 3) - 3;
		v = v >= min_p ? min_p - 1 : v;
		g->unit_perf[g->np + m] = v < 2 ? 2 : v;
		g->unit_ee[g->np + m] = pick(g, 110, 230);
		min_e = g->unit_perf[g->np + m] < min_e ? g->unit_perf[g->np + m] : min_e;
	}
	if (g->nlp) {
		unsigned v = (scale * g->speed_lp + 500) / 1000, top = g->nmod ? min_e : min_p;
		v = v >= top ? top - 1 : v;
		g->unit_perf[g->nunits - 1] = v < 1 ? 1 : v;
		g->unit_ee[g->nunits - 1] = pick(g, 150, 255);
	}
	for (int u = g->nunits; u < g->npkg * g->nunits; u++) {
		g->unit_perf[u] = g->unit_perf[u % g->nunits];
		g->unit_ee[u] = g->unit_ee[u % g->nunits];
	}
	if ((g->random_perf = chance(g, 10)))
		for (int u = 0; u < g->npkg * g->nunits; u++)
			g->unit_perf[u] = pick(g, 1, 255);
}

/* Row `row` dropped to perf 0 (ee 0 too with EV_NEVER) by a throttle
 * event; nothing for a row already at perf 0 from boot. */
static void throttle(struct gen *g, int row, int how)
{
	if (g->perf[row])
		g->event[row] = how;
}

/* HFI rows: which CPU uses which row, the rows' values from their units,
 * then the perf-0 cases. */
static void draw_hfi(struct gen *g)
{
	unsigned r = pick(g, 1, 100);
	g->hfi = r <= 15 ? HFI_NONE : r <= 55 ? HFI_SHARED : HFI_PER_CPU;
	g->rows_by_cpu = chance(g, 50);
	if (g->hfi == HFI_NONE)
		return;
	draw_unit_values(g);
	int unit_row[GEN_MAX_UNITS];
	for (int u = 0; u < GEN_MAX_UNITS; u++)
		unit_row[u] = -1;
	for (int c = 0; c < g->ncores; c++) {
		struct gen_core *k = &g->core[c];
		for (int t = 0; t < k->threads; t++) {
			if (g->hfi == HFI_SHARED) {
				if (unit_row[k->module] < 0)
					unit_row[k->module] = g->nrows++;
				k->row[t] = unit_row[k->module];
			} else {
				k->row[t] = g->rows_by_cpu ? k->cpu[t] : g->nrows;
				g->nrows++;
			}
			g->perf[k->row[t]] = g->unit_perf[k->module];
			g->ee[k->row[t]] = g->unit_ee[k->module];
		}
	}
	if ((g->avoid = chance(g, 12)))
		throttle(g, (int)pick(g, 0, (unsigned)g->nrows - 1), EV_AVOID);
	if ((g->never = chance(g, 10))) {
		if ((g->never_lpe = g->nlp && chance(g, 50))) {
			for (int c = 0; c < g->ncores; c++)
				if (g->core[c].type == CPU_CORE_LPE) {
					g->perf[g->core[c].row[0]] = g->ee[g->core[c].row[0]] = 0;
					g->event[g->core[c].row[0]] = EV_NONE;
				}
		} else {
			throttle(g, (int)pick(g, 0, (unsigned)g->nrows - 1), EV_NEVER);
		}
	}
	if ((g->zero = chance(g, 8))) {
		int ee_too = chance(g, 50);
		for (int row = 0; row < g->nrows; row++) {
			g->perf[row] = 0;
			g->ee[row] = ee_too ? 0 : g->ee[row];
			g->event[row] = EV_NONE;
		}
		g->zero += ee_too;
	}
}

/* The power line: watts of a busy core of each type and of a further SMT
 * thread, and a budget around what a whole package busy asks for. */
static void draw_power(struct gen *g)
{
	if (!(g->power = chance(g, 20)))
		return;
	g->p_mw = pick(g, 8000, 25000);
	g->e_mw = pick(g, 1500, 7000);
	g->lp_mw = pick(g, 300, 2000);
	g->smt_mw = g->smt ? pick(g, 0, 4000) : 0;
	int ne = 0;
	for (int m = 0; m < g->nmod; m++)
		ne += g->modsize[m];
	g->demand_mw = (unsigned)g->np * (g->p_mw + g->smt_mw) + (unsigned)ne * g->e_mw + (unsigned)g->nlp * g->lp_mw;
	g->budget_mw = (unsigned)((uint64_t)g->demand_mw * pick(g, 35, 120) / 100);
}

/* A text being written: buf of len bytes, n used; over once it did not fit. */
struct out {
	char *buf;
	size_t len, n;
	int over;
};

/* Appends printf-formatted text to o. */
static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = o->n < o->len ? o->len - o->n : 0;
	int k = vsnprintf(o->buf + o->n, room, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= room)
		o->over = 1;
	else
		o->n += (size_t)k;
}

/* thousandths as a decimal: 540 → "0.540" (into buf). */
static const char *dec(unsigned v, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%03u", v / 1000, v % 1000);
	return buf;
}

/* Rows with throttle event how (EV_AVOID, EV_NEVER). */
static int rows_thrown(const struct gen *g, int how)
{
	int n = 0;
	for (int row = 0; row < g->nrows; row++)
		n += g->event[row] == how;
	return n;
}

/* The header: model, sizes, speeds, what was drawn as comments. */
static void write_header(struct gen *g, uint64_t seed, struct out *o)
{
	static const char *const numbering[] = { "in order", "first threads first", "Meteor Lake's",
						 "permuted" };
	static const char *const hfi[] = { "none", "a row per P-core and module", "a row per CPU" };
	char a[16], b[16], sizes[32] = "";
	for (int m = 0; m < g->nmod; m++)
		snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%d", m ? "+" : "", g->modsize[m]);
	put(o, "# schedsim --gen %llu (sim/sim_gen.c): a generated machine\n", (unsigned long long)seed);
	put(o, "# numbering %s; HFI %s%s", numbering[g->numbering], hfi[g->hfi],
	    g->hfi == HFI_PER_CPU ? (g->rows_by_cpu ? " (rows by CPU)" : " (rows by core)") : "");
	if (g->hfi != HFI_NONE)
		put(o, "%s%s%s%s%s%s", g->favoured ? "; favoured P-cores" : "", g->random_perf ? "; perf not by speed" : "",
		    rows_thrown(g, EV_AVOID) ? "; a row throttled to perf 0 at 0.5 s" : "",
		    rows_thrown(g, EV_NEVER) ? "; a row throttled to perf 0 ee 0 at 0.5 s" : "",
		    g->never_lpe && !g->zero ? "; LP-E rows perf 0 ee 0" : "",
		    g->zero == 2 ? "; every row perf 0 ee 0" : g->zero ? "; every row perf 0" : "");
	if (g->power)
		put(o, "; power budget %s W of %s W all busy%s", dec(g->budget_mw, a, sizeof(a)),
		    dec(g->demand_mw, b, sizeof(b)), g->npkg > 1 ? " (per package)" : "");
	put(o, "\nmodel gen %llu: %s%dP%s%s%s", (unsigned long long)seed, g->npkg > 1 ? "2 x " : "", g->np,
	    g->smt ? "x2" : "", g->nmod ? " E" : "", sizes);
	if (g->nlp)
		put(o, " %dLP-E", g->nlp);
	put(o, "\ncpus %d\nmemory 512M\nhfi-rows %d\nspeed P 1.0\n", g->ncpu, g->nrows);
	if (g->numbering == NUM_MTL)
		put(o, "cpuid-levels smt,core,module\n");
	if (g->nmod)
		put(o, "speed E %s\n", dec(g->speed_e, a, sizeof(a)));
	if (g->nlp)
		put(o, "speed LP-E %s\n", dec(g->speed_lp, a, sizeof(a)));
	if (g->smt)
		put(o, "smt-throughput P %s\n", dec(g->smt_tp, a, sizeof(a)));
	if (g->power) {
		put(o, "power budget=%s P=%s", dec(g->budget_mw, a, sizeof(a)), dec(g->p_mw, b, sizeof(b)));
		if (g->nmod)
			put(o, " E=%s", dec(g->e_mw, a, sizeof(a)));
		if (g->nlp)
			put(o, " LP-E=%s", dec(g->lp_mw, a, sizeof(a)));
		if (g->smt)
			put(o, " smt=%s", dec(g->smt_mw, a, sizeof(a)));
		put(o, "\n");
	}
}

/* The cpu lines in CPU order, the hfi lines in row order, then the
 * throttle events. */
static void write_cpus(struct gen *g, struct out *o)
{
	for (int cpu = 0; cpu < g->ncpu; cpu++)
		for (int c = 0; c < g->ncores; c++)
			for (int t = 0; t < g->core[c].threads; t++) {
				const struct gen_core *k = &g->core[c];
				if (k->cpu[t] != cpu)
					continue;
				put(o, "cpu %d type=%s core=%d thread=%d module=%d ", cpu,
				    machine_core_type_name((unsigned)k->type), k->id, t, k->module);
				if (k->type == CPU_CORE_LPE)
					put(o, "llc=none ");
				else
					put(o, "llc=%d ", k->pkg);
				if (g->npkg > 1)
					put(o, "package=%d ", k->pkg);
				if (k->row[t] < 0)
					put(o, "row=none\n");
				else
					put(o, "row=%d\n", k->row[t]);
			}
	for (int row = 0; row < g->nrows; row++)
		put(o, "hfi %d perf=%u ee=%u\n", row, g->perf[row], g->ee[row]);
	for (int row = 0; row < g->nrows; row++)
		if (g->event[row])
			put(o, "event %d row=%d perf=0 ee=%u\n", GEN_THROTTLE_MS, row,
			    g->event[row] == EV_NEVER ? 0 : g->ee[row]);
}

/* See sim_gen.h. */
int sim_gen_machine(uint64_t seed, char *buf, size_t len)
{
	static struct gen g;
	memset(&g, 0, sizeof(g));
	g.s = seed ^ 0x67656e6d61636800ull;
	draw_shape(&g);
	draw_numbering(&g);
	draw_hfi(&g);
	draw_power(&g);
	struct out o = { buf, len, 0, 0 };
	write_header(&g, seed, &o);
	write_cpus(&g, &o);
	return o.over ? -1 : (int)o.n;
}

/* See sim_gen.h. */
int sim_gen_load(uint64_t seed, struct sim_machine *sm, char *text, char *err, size_t len)
{
	char path[48];
	snprintf(path, sizeof(path), "gen-%llu.machine", (unsigned long long)seed);
	int n = sim_gen_machine(seed, text, SIM_GEN_TEXT_MAX);
	if (n < 0) {
		snprintf(err, len, "%s: longer than %d bytes", path, SIM_GEN_TEXT_MAX);
		return -1;
	}
	return sim_machine_parse(path, text, (size_t)n, sm, err, len);
}
