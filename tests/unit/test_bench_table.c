/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests of the benchmark report (kernel/bench/bench_table.c,
 * bench_table_csv.c, bench_sweep.c, bench_csv.c, bench_out.c): the seed
 * report's tables reproduced word for word from its samples, the layout,
 * the CSV blocks read back, quoting, refusals, partial sweeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <bench/bench_csv.h>
#include <bench/bench_table.h>
#include <sim/seed_table.h>

static struct bench_table_scratch scratch;
static char text[1 << 18];
static size_t text_len;

/* The report callback: appends to text[]. */
static void to_text(void *arg, const char *fmt, va_list ap)
{
	(void)arg;
	int n = vsnprintf(text + text_len, sizeof(text) - text_len, fmt, ap);
	assert_true(n >= 0 && (size_t)n < sizeof(text) - text_len);
	text_len += (size_t)n;
}

static const struct bench_out out = { to_text, NULL };

static void text_reset(void)
{
	text_len = 0;
	text[0] = 0;
}

/* "\n" + a table line as the layout should print it (label in 17
 * columns, cells right-aligned in 1 + width) + "\n", for strstr(). */
static const char *table_line(int width, const char *label, const char *c1, const char *c2)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "\n%-17s%*s%*s\n", label, width + 1, c1, width + 1, c2);
	return buf;
}

/* Like table_line(), the first two of seven cells, not the line's end. */
static const char *line_start(const char *label, const char *c1, const char *c2)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "\n%-17s%14s%14s ", label, c1, c2);
	return buf;
}

/* The sweep of one machine's seed tables, as the report's layout names it. */
static struct bench_sweep seed_sweep(const struct seed_table *t, const char **names)
{
	names[0] = t->policy[0];
	names[1] = t->policy[1];
	return (struct bench_sweep){ .name = "sysbench-cpu", .unit = "events", .group_label = "Kernel Config",
				     .decimals = 2, .ncols = SEED_COLS, .threads = t->threads,
				     .npolicies = 2, .policy = names, .nsamples = SEED_SAMPLES, .v = t->v };
}

/* Reads a whole file into a new string. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* The report's tables of one machine, word for word, from its samples
 * (the one difference: the report's misspelt "Meian" row is "Median"). */
static void check_seed_table(const char *path)
{
	static struct seed_table t;
	const char *names[2];
	assert_int_equal(seed_table_load(path, &t), 0);
	struct bench_sweep sw = seed_sweep(&t, names);
	text_reset();
	assert_int_equal(bench_sweep_compute(&sw, &out, &scratch), 0);
	bench_table_print(&sw, &out, &scratch);
	char *beyond = strstr(text, "[Beyond the report]");
	assert_non_null(beyond);
	*beyond = 0;   /* the report's part */
	char *want = slurp(path);
	static char *ww[2048], *gw[2048];
	int nw = seed_words(want, ww, 2048), ng = seed_words(text, gw, 2048);
	for (int i = 0; i < nw; i++)
		if (strcmp(ww[i], "Meian") == 0)
			ww[i] = "Median";
	for (int i = 0; i < nw && i < ng; i++)
		if (strcmp(ww[i], gw[i]) != 0)
			fail_msg("%s: word %d: printed '%s', the report '%s' (after '%s')", path, i, gw[i], ww[i],
				 i ? ww[i - 1] : "");
	assert_int_equal(ng, nw);
	free(want);
}

static void test_seed_i7_1370p(void **state)
{
	(void)state;
	check_seed_table("tests/data/seed-report/i7-1370p.table");
}

static void test_seed_core_ultra_7_155h(void **state)
{
	(void)state;
	check_seed_table("tests/data/seed-report/core-ultra-7-155h.table");
}

static const char separator7[] = "-----------------+-------------+-------------+-------------+-------------"
				 "+-------------+-------------+-------------";

/* Column layout: the report's separator byte for byte, labels in 17
 * columns, values right-aligned under the dashes. */
static void test_layout(void **state)
{
	(void)state;
	static struct seed_table t;
	const char *names[2];
	assert_int_equal(seed_table_load("tests/data/seed-report/i7-1370p.table", &t), 0);
	struct bench_sweep sw = seed_sweep(&t, names);
	text_reset();
	assert_int_equal(bench_sweep_compute(&sw, &out, &scratch), 0);
	bench_table_print(&sw, &out, &scratch);
	assert_non_null(strstr(text, "[Kernel Config] GENERIC\nUse Cores                     4             6 "));
	assert_non_null(strstr(text, separator7));
	assert_non_null(strstr(text, line_start("Sample 1", "29256908.74", "45009378.55")));
	assert_non_null(strstr(text, line_start("Sample 1", "32786738.39", "48682126.54")));
	assert_non_null(strstr(text, line_start("Median Per Core", "7280106.25", "7210322.61")));
	assert_non_null(strstr(text, line_start("Rate(Max-Min)", "129.92%", "118.13%")));
	/* every line of a table is as long as its separator */
	for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		if (line[0] != '[' && strncmp(line, "CV:", 3) && strncmp(line, "CI95:", 5))
			assert_int_equal(nl - line, (long)strlen(separator7));
	}
	assert_non_null(strstr(text, "[Beyond the report] A = GENERIC; B = hmp(4) / intelhfi(4) enable + sched_ule(4) patched\n"));
	assert_non_null(strstr(text, line_start("MWU test B:A", "exact", "exact")));
	assert_non_null(strstr(text, "\nCV A  "));
	assert_non_null(strstr(text, "\nMed B:A CI95 lo  "));
}

/* FNV-1a over the rows of a block, each with its '\n'. */
static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Finds block name in text: its rows (header first) between the markers
 * are checked against the end marker's count and hash; returns the rows. */
static char *csv_block(const char *name, const char *schema, int *rows)
{
	char begin[128], end[128];
	snprintf(begin, sizeof(begin), "--- mosaic-bench-csv begin %s schema=%s ---\n", name, schema);
	char *b = strstr(text, begin);
	assert_non_null(b);
	b += strlen(begin);
	snprintf(end, sizeof(end), "--- mosaic-bench-csv end %s rows=", name);
	char *e = strstr(b, end);
	assert_non_null(e);
	unsigned n, h;
	assert_int_equal(sscanf(e + strlen(end), "%u fnv1a=%x ---", &n, &h), 2);
	int count = 0;
	for (char *p = b; p < e; p++)
		count += *p == '\n';
	assert_int_equal(count, (int)n);
	assert_true(fnv1a(b, (size_t)(e - b)) == h);
	*rows = count;
	char *copy = malloc((size_t)(e - b) + 1);
	memcpy(copy, b, (size_t)(e - b));
	copy[e - b] = 0;
	return copy;
}

static void test_seed_csv(void **state)
{
	(void)state;
	static struct seed_table t;
	const char *names[2];
	assert_int_equal(seed_table_load("tests/data/seed-report/core-ultra-7-155h.table", &t), 0);
	struct bench_sweep sw = seed_sweep(&t, names);
	text_reset();
	assert_int_equal(bench_report(&sw, &out, &scratch), 0);
	int rows;
	char *s = csv_block("sysbench-cpu", "sweep/1", &rows);
	assert_int_equal(rows, 1 + 2 * SEED_COLS * SEED_SAMPLES);
	const char *head = "policy,threads,sample,value,unit\nGENERIC,4,1,24319693.18,events\n";
	assert_true(strncmp(s, head, strlen(head)) == 0);
	/* every sample read back */
	char *line = strchr(s, '\n') + 1;
	for (int p = 0; p < 2; p++) {
		for (int c = 0; c < SEED_COLS; c++) {
			for (int k = 0; k < SEED_SAMPLES; k++) {
				char want[160];
				int64_t v = t.v[(p * SEED_COLS + c) * SEED_SAMPLES + k];
				snprintf(want, sizeof(want), "%s,%d,%d,%lld.%02lld,events\n", t.policy[p], t.threads[c],
					 k + 1, (long long)(v / 100), (long long)(v % 100));
				assert_true(strncmp(line, want, strlen(want)) == 0);
				line += strlen(want);
			}
		}
	}
	free(s);
	s = csv_block("sysbench-cpu.summary", "sweep-summary/1", &rows);
	assert_int_equal(rows, 1 + 2 * SEED_COLS);
	assert_non_null(strstr(s, "\nGENERIC,4,12,21855879.01,33018330.82,26781242.67,25588073.68,6397018.42,"));
	assert_non_null(strstr(s, "\nhmp(4) / intelhfi(4) enable + sched_ule(4) patched,4,12,29394294.62,33347791.98,"
				  "31955691.84,32642585.26,8160646.31,"));
	assert_non_null(strstr(s, ",GENERIC,119.32,127.57,152.58,134.49,0.0"));
	assert_non_null(strstr(s, ",GENERIC,99.95,99.86,101.34,99.49,"));
	free(s);
}

/* A writer that collects into text[]. */
static void test_csv_quoting(void **state)
{
	(void)state;
	struct bench_csv c;
	text_reset();
	assert_int_equal(bench_csv_begin(&c, &out, "q", "x/1"), 0);
	const char *fields[] = { "plain", "a,b", "say \"hi\"", "-x", " lead", "trail ", "", "ok-", "é" };
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		bench_csv_str(&c, fields[i]);
	bench_csv_int(&c, -5);
	bench_csv_fixed(&c, -5, 2);
	bench_csv_empty(&c);
	assert_int_equal(bench_csv_row(&c), 0);
	bench_csv_end(&c);
	const char *row = "plain,\"a,b\",\"say \"\"hi\"\"\",\"-x\",\" lead\",\"trail \",\"\",ok-,é,-5,-0.05,\n";
	char want[512];
	snprintf(want, sizeof(want), "--- mosaic-bench-csv begin q schema=x/1 ---\n%s"
		 "--- mosaic-bench-csv end q rows=1 fnv1a=%08x ---\n", row, fnv1a(row, strlen(row)));
	assert_string_equal(text, want);

	/* a control character drops the row and breaks the block */
	text_reset();
	assert_int_equal(bench_csv_begin(&c, &out, "q", "x/1"), 0);
	bench_csv_str(&c, "tab\there");
	assert_int_equal(bench_csv_row(&c), -1);
	bench_csv_str(&c, "fine");
	assert_int_equal(bench_csv_row(&c), 0);
	bench_csv_end(&c);
	assert_string_equal(text, "--- mosaic-bench-csv begin q schema=x/1 ---\nfine\n"
				  "--- mosaic-bench-csv end q broken ---\n");
	/* a row longer than BENCH_CSV_ROW_MAX - 1 */
	text_reset();
	assert_int_equal(bench_csv_begin(&c, &out, "q", "x/1"), 0);
	for (int i = 0; i < 60; i++)
		bench_csv_str(&c, "0123456789");
	assert_int_equal(bench_csv_row(&c), -1);
	bench_csv_end(&c);
	assert_non_null(strstr(text, "end q broken"));
	/* names */
	text_reset();
	assert_int_equal(bench_csv_begin(&c, &out, "a b", "x/1"), -1);
	assert_int_equal(bench_csv_begin(&c, &out, "", "x/1"), -1);
	assert_int_equal(bench_csv_begin(&c, &out, "a/b", "x/1"), -1);
	assert_int_equal(bench_csv_begin(&c, &out, "ab", "x 1"), -1);
	assert_int_equal((int)text_len, 0);
	assert_true(bench_csv_name_ok("abcdefghijabcdefghijabcdefghijabcdefghijabcdefgh"));    /* 48 */
	assert_false(bench_csv_name_ok("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghi"));  /* 49 */
}

/* A small sweep: 2 thread counts, policies as given, 3 samples each. */
static int64_t small_v[4 * 2 * 3] = { 100, 110, 120, 200, 210, 220, 130, 140, 150, 260, 270, 280,
				      100, 100, 100, 200, 200, 200, 1, 2, 3, 4, 5, 6 };
static const int small_threads[2] = { 1, 2 };
static const char *small_names[4] = { "base", "new, better", "same", "tiny" };

static struct bench_sweep small_sweep(int npolicies)
{
	return (struct bench_sweep){ .name = "small", .unit = "ops", .decimals = 0, .ncols = 2,
				     .threads = small_threads, .npolicies = npolicies, .policy = small_names,
				     .nsamples = 3, .v = small_v };
}

/* Each refused sweep: one message naming the problem, nothing else. */
static void test_refusals(void **state)
{
	(void)state;
	static const struct {
		int what;
		const char *msg;
	} cases[] = {
		{ 0, "bench: sweep name 'bad name' is not 1..40 of A-Z a-z 0-9 . _ -\n" },
		{ 1, "bench: small: unit '' is not 1..32 characters without control characters\n" },
		{ 2, "bench: small: decimals 7 is outside 0..6\n" },
		{ 3, "bench: small: column 2: 0 threads is outside 1..4096\n" },
		{ 4, "bench: small: 5 policies is outside 1..4\n" },
		{ 5, "bench: small: policy 2: name 'new\nline' is not 1..64 characters without control characters\n" },
		{ 6, "bench: small: policy base, 2 threads, sample 3: -4 is outside 0..1000000000000000\n" },
		{ 7, "bench: small: policy new, better, 1 threads: 4 samples taken is outside 0..3\n" },
		{ 8, "bench: small: 17 thread counts is outside 1..16\n" },
		{ 9, "bench: small: 0 samples is outside 1..1024\n" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bench_sweep sw = small_sweep(2);
		const int threads0[2] = { 1, 0 };
		const char *names[2] = { "base", "new\nline" };
		int64_t v[12];
		int count[4] = { 3, 3, 4, 3 };
		memcpy(v, small_v, sizeof(v));
		switch (cases[i].what) {
		case 0: sw.name = "bad name"; break;
		case 1: sw.unit = ""; break;
		case 2: sw.decimals = 7; break;
		case 3: sw.threads = threads0; break;
		case 4: sw.npolicies = 5; break;
		case 5: sw.policy = names; break;
		case 6: v[5] = -4; sw.v = v; break;
		case 7: sw.count = count; break;
		case 8: sw.ncols = 17; break;
		case 9: sw.nsamples = 0; break;
		}
		text_reset();
		assert_int_equal(bench_report(&sw, &out, &scratch), -1);
		assert_string_equal(text, cases[i].msg);
	}
}

/* Columns not taken and samples missing print "-" (and empty CSV fields). */
static void test_partial(void **state)
{
	(void)state;
	struct bench_sweep sw = small_sweep(2);
	const int count[4] = { 3, 0, 2, 3 };   /* base: 3 then none; new: 2 then 3 */
	sw.count = count;
	text_reset();
	assert_int_equal(bench_report(&sw, &out, &scratch), 0);
	assert_non_null(strstr(text, table_line(13, "Sample 3", "120", "-")));
	assert_non_null(strstr(text, table_line(13, "Sample 3", "-", "280")));
	assert_non_null(strstr(text, table_line(13, "Min", "100", "-")));
	assert_non_null(strstr(text, table_line(13, "Avg.", "135", "270")));
	assert_non_null(strstr(text, table_line(13, "Rate(Avg.)", "122.73%", "-")));   /* 135 / 110 */
	assert_non_null(strstr(text, table_line(13, "CV B", "5.24%", "3.70%")));
	assert_non_null(strstr(text, table_line(13, "MWU p B:A", "0.2000", "-")));   /* 2 of C(5, 2) = 10 */
	assert_non_null(strstr(text, table_line(13, "Med B:A CI95 hi", "140.00%", "-")));
	assert_non_null(strstr(text, "\nbase,2,0,,,,,,,,,,,,,,,\n"));
	assert_non_null(strstr(text, "\n\"new, better\",2,3,260,280,270,270,135,3.70,base,,,,,,,,\n"));
	assert_non_null(strstr(text, "\n\"new, better\",1,2,130,140,135,135,135,5.24,base,122.73,122.73,"
				     "140.00,130.00,0.200000000000,exact,"));
	assert_null(strstr(text, "\n\"new, better\",1,3,"));   /* the sample not taken */
}

/* Three policies: each compared with the first; zeros give "-" rates. */
static void test_three_policies(void **state)
{
	(void)state;
	struct bench_sweep sw = small_sweep(4);
	text_reset();
	assert_int_equal(bench_report(&sw, &out, &scratch), 0);
	assert_non_null(strstr(text, "[Policy] same\n"));
	assert_non_null(strstr(text, "; D = tiny\n"));
	assert_non_null(strstr(text, "\nMWU p D:A "));
	assert_non_null(strstr(text, table_line(13, "CV C", "0.00%", "0.00%")));
	assert_non_null(strstr(text, table_line(13, "Rate(Avg.)", "90.91%", "95.24%")));      /* same: 100 / 110 */
	assert_non_null(strstr(text, table_line(13, "Rate(Min-Min)", "1.00%", "2.00%")));     /* tiny: 1/100, 4/200 */
	assert_non_null(strstr(text, table_line(13, "MWU test C:A", "normal", "normal")));   /* ties */
	assert_non_null(strstr(text, "\nsame,1,3,100,100,100,100,100,0.00,base,90.91,90.91,100.00,100.00,"
				     "0.196705602459,normal,"));
}

/* Wide values widen every value column and its dashes alike. */
static void test_wide_values(void **state)
{
	(void)state;
	int64_t v[6] = { BENCH_VALUE_MAX, 1, 2, 3, 4, 5 };
	struct bench_sweep sw = small_sweep(1);
	sw.v = v;
	sw.decimals = 6;
	text_reset();
	assert_int_equal(bench_report(&sw, &out, &scratch), 0);
	assert_non_null(strstr(text, table_line(17, "Sample 1", "1000000000.000000", "0.000003")));
	assert_non_null(strstr(text, table_line(17, "Avg.", "333333333.333334", "0.000004")));
	assert_non_null(strstr(text, "\n-----------------+-----------------+-----------------\n"));
	/* the CSV has the same digits */
	assert_non_null(strstr(text, "\nbase,1,1,1000000000.000000,ops\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_i7_1370p),
		cmocka_unit_test(test_seed_core_ultra_7_155h),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_seed_csv),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_three_policies),
		cmocka_unit_test(test_wide_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
