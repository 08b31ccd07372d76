/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_report.c — schedsim's output (see sim_report.h). The tables of the
 * seed report's layout come from kernel/bench (bench_report), unchanged;
 * the summary tables use the same column widths (a 17-character label,
 * values right-aligned in 13).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <bench/bench_csv.h>
#include <bench/bench_stats.h>
#include <sim/seed_table.h>
#include <sim/sim_report.h>

/* bench_out callback: to the FILE in arg. */
static void file_vprintf(void *arg, const char *fmt, va_list ap)
{
	vfprintf(arg, fmt, ap);
}

static struct bench_table_scratch scratch;
static int label_width = 17;

/* The label column: 17 characters, or wide enough for the policy names. */
static void set_label_width(const struct sim_sweep *sw, int extra)
{
	label_width = 17;
	for (int p = 0; p < sw->npol; p++)
		if ((int)strlen(sw->pol[p].name) + extra > label_width)
			label_width = (int)strlen(sw->pol[p].name) + extra;
}

/* The label column: a and b, left-aligned in label_width. */
static void print_label(const char *a, const char *b)
{
	char l[160];
	snprintf(l, sizeof(l), "%s%s", a, b);
	printf("%-*s", label_width, l);
}

/* The separator line of ncols columns. */
static void print_separator(int ncols)
{
	for (int i = 0; i < label_width; i++)
		putchar('-');
	for (int c = 0; c < ncols; c++)
		printf("+-------------");
	putchar('\n');
}

/* A title, the "Use Cores" line and a separator. */
static void print_heading(const struct sim_sweep *sw, const char *title)
{
	printf("%s\n", title);
	print_label("Use Cores", "");
	for (int c = 0; c < sw->ncols; c++)
		printf(" %13d", sw->threads[c]);
	putchar('\n');
	print_separator(sw->ncols);
}

/* A fixed-point value (v / 10^decimals) or a percentage (0.01 %) in a cell. */
static void print_cell(int64_t v, int pct, int decimals)
{
	char buf[64];
	struct strbuf sb;
	strbuf_init(&sb, buf, sizeof(buf));
	if (pct)
		bench_put_pct(&sb, v);
	else if (v == BENCH_NA)
		strbuf_puts(&sb, "-");
	else
		bench_put_fixed(&sb, v, decimals);
	printf(" %13s", buf);
}

/* Statistics of policy p's column c. */
static void column(const struct sim_sweep *sw, int p, int c, struct bench_col *col)
{
	static int64_t sorted[BENCH_MAX_SAMPLES];
	if (bench_stats_column(sim_sample(sw, p, c, 0), sw->runs, sw->threads[c], sorted, col))
		memset(col, 0, sizeof(*col));
}

/* See sim_report.h. */
int sim_report_tables(const struct sim_sweep *sw)
{
	static int64_t v[BENCH_MAX_POLICIES * BENCH_MAX_COLS * BENCH_MAX_SAMPLES];
	struct bench_out out = { file_vprintf, stdout };
	for (int first = 1, part = 1; first < sw->npol || part == 1; first += BENCH_MAX_POLICIES - 1, part++) {
		const char *names[BENCH_MAX_POLICIES];
		int idx[BENCH_MAX_POLICIES] = { 0 }, n = 1;
		names[0] = sw->pol[0].name;
		for (int p = first; p < sw->npol && n < BENCH_MAX_POLICIES; p++, n++) {
			idx[n] = p;
			names[n] = sw->pol[p].name;
		}
		for (int k = 0; k < n; k++)
			for (int c = 0; c < sw->ncols; c++)
				memcpy(&v[((size_t)k * (size_t)sw->ncols + (size_t)c) * (size_t)sw->runs],
				       sim_sample(sw, idx[k], c, 0), (size_t)sw->runs * sizeof(int64_t));
		char name[BENCH_SWEEP_NAME_MAX + 8];
		snprintf(name, sizeof(name), part == 1 ? "%s" : "%s.%d", sw->name, part);
		struct bench_sweep b = { .name = name, .unit = sw->wl->unit, .group_label = "Policy",
					 .decimals = sw->wl->decimals, .ncols = sw->ncols, .threads = sw->threads,
					 .npolicies = n, .policy = names, .nsamples = sw->runs, .v = v };
		if (bench_report(&b, &out, &scratch))
			return -1;
		printf("\n");
		if (sw->npol == 1)
			break;
	}
	return 0;
}

/* See sim_report.h. */
void sim_report_summary(const struct sim_sweep *sw)
{
	char title[160];
	int oracle = -1;
	struct bench_col a, b;
	set_label_width(sw, 8);
	snprintf(title, sizeof(title), "[schedsim] median of %d run%s (%s)", sw->runs, sw->runs == 1 ? "" : "s",
		 sw->wl->unit);
	print_heading(sw, title);
	for (int p = 0; p < sw->npol; p++) {
		print_label(sw->pol[p].name, "");
		for (int c = 0; c < sw->ncols; c++) {
			column(sw, p, c, &a);
			print_cell(a.median, 0, sw->wl->decimals);
		}
		putchar('\n');
		if (sw->pol[p].kind == SIM_POL_ORACLE && oracle < 0)
			oracle = p;
	}
	print_separator(sw->ncols);
	if (sw->npol > 1) {
		snprintf(title, sizeof(title), "[schedsim] Rate(Median) against %s", sw->pol[0].name);
		print_heading(sw, title);
		for (int p = 1; p < sw->npol; p++) {
			print_label(sw->pol[p].name, "");
			for (int c = 0; c < sw->ncols; c++) {
				column(sw, 0, c, &a);
				column(sw, p, c, &b);
				print_cell(bench_ratio((uint64_t)b.median2, (uint64_t)a.median2), 1, 0);
			}
			putchar('\n');
		}
		print_separator(sw->ncols);
	}
	if (oracle < 0)
		return;
	snprintf(title, sizeof(title), "[schedsim] against %s: median / its median, worst run / its median",
		 sw->pol[oracle].name);
	print_heading(sw, title);
	for (int p = 0; p < sw->npol; p++) {
		if (p == oracle)
			continue;
		for (int worst = 0; worst < 2; worst++) {
			print_label(sw->pol[p].name, worst ? " worst" : " median");
			for (int c = 0; c < sw->ncols; c++) {
				column(sw, oracle, c, &a);
				column(sw, p, c, &b);
				uint64_t num = worst ? 2 * (uint64_t)b.min : (uint64_t)b.median2;
				print_cell(bench_ratio(num, (uint64_t)a.median2), 1, 0);
			}
			putchar('\n');
		}
	}
	print_separator(sw->ncols);
}

/* See sim_report.h. */
int sim_report_compare(const struct sim_sweep *sw, const char *table)
{
	static struct seed_table t;
	if (sw->npol < 2) {
		fprintf(stderr, "schedsim: --compare needs two policies (the report's two kernels)\n");
		return -1;
	}
	if (seed_table_load(table, &t))
		return -1;
	char title[600];
	struct bench_col a, b;
	set_label_width(sw, 12);
	snprintf(title, sizeof(title),
		 "[schedsim] Rate(Median) %s / %s beside the seed report's (%s)", sw->pol[1].name,
		 sw->pol[0].name, table);
	print_heading(sw, title);
	print_label("seed report", "");
	for (int c = 0; c < sw->ncols; c++) {
		int64_t v = BENCH_NA;
		for (int k = 0; k < SEED_COLS; k++)
			if (t.threads[k] == sw->threads[c])
				v = t.rate[SEED_RATE_MEDIAN][k];
		print_cell(v, 1, 0);
	}
	putchar('\n');
	print_label("simulated", "");
	for (int c = 0; c < sw->ncols; c++) {
		column(sw, 0, c, &a);
		column(sw, 1, c, &b);
		print_cell(bench_ratio((uint64_t)b.median2, (uint64_t)a.median2), 1, 0);
	}
	putchar('\n');
	print_separator(sw->ncols);
	return 0;
}

/* total / calls with one decimal (x10), or BENCH_NA without calls. */
static int64_t per_call(uint64_t total, uint64_t calls)
{
	return calls ? (int64_t)((total * 10 + calls / 2) / calls) : BENCH_NA;
}

/* See sim_report.h. */
void sim_report_cost(const struct sim_sweep *sw)
{
	static const char *const what[] = { "groups", "cpus", "muls", "stat hits", "stat recomputes" };
	char title[160];
	set_label_width(sw, 18);
	for (int k = 0; k < 3; k++) {
		if (k < 2)
			snprintf(title, sizeof(title), "[schedsim] cost per %s (work counted in kernel/sched/; calls "
				 "per run)", k ? "balancer pass" : "sched_pickcpu");
		else
			snprintf(title, sizeof(title), "[schedsim] cost of the rest per run (idle stealing, "
				 "up-migration scans, repicks at a tick)");
		print_heading(sw, title);
		for (int p = 0; p < sw->npol; p++) {
			for (int f = k == 2 ? 0 : -1; f < (k == 1 ? 5 : 3); f++) {
				char l[48];
				snprintf(l, sizeof(l), " %s", f < 0 ? "calls/run" : what[f]);
				print_label(sw->pol[p].name, l);
				for (int c = 0; c < sw->ncols; c++) {
					const struct sim_cost_bucket *b = &sw->cost[p][c][k];
					const uint64_t *ops = &b->ops.groups;
					uint64_t per = k == 2 ? (uint64_t)sw->runs : b->calls;
					print_cell(f < 0 ? per_call(b->calls, (uint64_t)sw->runs) : per_call(ops[f], per),
						   0, 1);
				}
				putchar('\n');
			}
		}
		print_separator(sw->ncols);
	}
}

/* See sim_report.h. */
void sim_trace_write(FILE *f, const struct sim_sweep *sw, int p, int c, int r, const struct sim_result *res)
{
	static struct bench_csv csv;
	struct bench_out out = { file_vprintf, f };
	char name[BENCH_CSV_NAME_MAX + 1];
	snprintf(name, sizeof(name), "trace-%d-%d-%d", p + 1, sw->threads[c], r + 1);
	if (bench_csv_begin(&csv, &out, name, "trace/1"))
		return;
	static const char *const header[] = { "policy", "threads", "run", "thread", "cpu", "core_type",
					      "start_ns", "end_ns" };
	bench_csv_header(&csv, header, sizeof(header) / sizeof(header[0]));
	for (size_t i = 0; i < res->nseg; i++) {
		const struct sim_seg *s = &res->seg[i];
		bench_csv_str(&csv, sw->pol[p].name);
		bench_csv_int(&csv, sw->threads[c]);
		bench_csv_int(&csv, r + 1);
		bench_csv_int(&csv, s->thread);
		bench_csv_int(&csv, s->cpu);
		bench_csv_str(&csv, machine_core_type_name(sw->sm->m.cpu[s->cpu].type));
		bench_csv_int(&csv, (int64_t)s->start);
		bench_csv_int(&csv, (int64_t)s->end);
		bench_csv_row(&csv);
	}
	bench_csv_end(&csv);
}
