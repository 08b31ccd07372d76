/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests of the benchmark driver (kernel/bench/bench_drv.c,
 * bench_drv_report.c): the plan parser's defaults, forms and refusals;
 * runs alternating policies A B A B with every policy put back after its
 * run; a stop keeping the completed runs; a failed check leaving its run
 * out of the samples; a policy that cannot be set stopping the plan; the
 * report's tables and CSV blocks (framing, counts) in both layouts. The
 * platform is a fake that records what the driver asks of it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <bench/bench_drv.h>
#include <tests/unit/bench_rt_host.h>

static char text[1 << 18];
static size_t text_len;

static void to_text(void *arg, const char *fmt, va_list ap)
{
	(void)arg;
	int n = vsnprintf(text + text_len, sizeof(text) - text_len, fmt, ap);
	assert_true(n >= 0 && (size_t)n < sizeof(text) - text_len);
	text_len += (size_t)n;
}

static const struct bench_out out = { to_text, NULL };

static int known(void *arg, const char *name)
{
	(void)arg;
	return strcmp(name, "ule") == 0 || strcmp(name, "hmp") == 0 || strcmp(name, "hmp-no-d") == 0 ||
	       strcmp(name, "x") == 0 || strcmp(name, "y") == 0;
}

/* Parses the words of line (split at spaces) into pl; returns the status. */
static int parse(struct bench_plan *pl, int sweep, const char *line, char *err, size_t len)
{
	static char buf[512];
	char *argv[40];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *s = strtok(buf, " "); s; s = strtok(NULL, " "))
		argv[argc++] = s;
	err[0] = 0;
	return bench_plan_parse(pl, sweep, argc, argv, known, NULL, err, len);
}

static void test_plan_defaults_and_forms(void **state)
{
	(void)state;
	struct bench_plan pl;
	char err[200];
	assert_int_equal(parse(&pl, 0, "cpu", err, sizeof(err)), 0);
	assert_string_equal(pl.wl->name, "cpu");
	assert_int_equal(pl.ncols, 1);
	assert_int_equal(pl.threads[0], 4);
	assert_int_equal(pl.runs, BENCH_DEFAULT_RUNS);
	assert_int_equal(pl.npol, 2);
	assert_string_equal(pl.policy[0], "ule");
	assert_string_equal(pl.policy[1], "hmp");
	assert_int_equal(pl.opt[0], 10000);
	assert_int_equal(bench_plan_total(&pl), 6);
	assert_int_equal(parse(&pl, 1, "cpu", err, sizeof(err)), 0);
	assert_int_equal(pl.runs, BENCH_SWEEP_RUNS);
	assert_int_equal(pl.sweep, 1);
	assert_int_equal(parse(&pl, 1, "cpu --threads 4,6,8,10,12,16,20 --runs 2 --policy hmp --time=2 "
			       "--max-prime 20000", err, sizeof(err)), 0);
	assert_int_equal(pl.ncols, 7);
	assert_int_equal(pl.threads[6], 20);
	assert_int_equal(pl.runs, 2);
	assert_int_equal(pl.npol, 1);
	assert_string_equal(pl.policy[0], "hmp");
	assert_int_equal(pl.opt[1], 2);
	assert_int_equal(pl.opt[0], 20000);
	assert_int_equal(parse(&pl, 0, "schbench --message-threads 2 --threads 2", err, sizeof(err)), 0);
}

static void test_plan_refusals(void **state)
{
	(void)state;
	static const struct { const char *line, *want; } cases[] = {
		{ "", "no workload named" },
		{ "sysbench", "no workload 'sysbench' (cpu, make, pgbench, hackbench, schbench, frames, classmix)" },
		{ "cpu --threads 0", "--threads: 0 is outside 1..256" },
		{ "cpu --threads 257", "--threads: 257 is outside 1..256" },
		{ "cpu --threads -1", "--threads: '-1' is not a number (1..256)" },
		{ "cpu --threads 4,,6", "--threads: empty item in '4,,6'" },
		{ "cpu --threads 4,", "--threads: empty item" },
		{ "cpu --threads 4,4", "--threads: 4 appears twice" },
		{ "cpu --threads 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "--threads: more than 16 items" },
		{ "cpu --runs 0", "--runs: 0 is outside 1..1024" },
		{ "cpu --runs 99999999999999999999999", "--runs: '99999999999999999999999' is not a number" },
		{ "cpu --policy ule,foo", "--policy: no policy 'foo'" },
		{ "cpu --policy ule,ule", "--policy: ule appears twice" },
		{ "cpu --policy ule,hmp,x,y,hmp-no-d", "--policy: more than 4 items" },
		{ "cpu --policy ule,bad!name", "--policy: no policy 'bad!name'" },
		{ "cpu --time", "--time needs a value" },
		{ "cpu --time 1 --time 2", "--time is given twice" },
		{ "cpu --threads 2 --threads=3", "--threads is given twice" },
		{ "cpu --bogus 1", "cpu: no option --bogus (it has --max-prime --time --events --threads --runs --policy)" },
		{ "cpu time 1", "cpu: 'time' is not an option (--NAME VALUE)" },
		{ "cpu --=1", "cpu: no option '--=1'" },
		{ "cpu --time 0 --events 0", "cpu: --time 0 and --events 0: the run would never end" },
		{ "cpu --time 4000", "--time: 4000 is outside 0..3600" },
		{ "cpu --runs 1024 --threads 1,2,3", "1024 runs x 3 thread counts x 2 policies = 6144 runs, more than 4096" },
		{ "hackbench --threads 32", "hackbench: 32 groups x 2 x 20 fds = 1280 threads, more than 1024" },
		{ "schbench --threads 1,2 --message-threads 2", "schbench: 1 workers for 2 message threads" },
		{ "frames --renderers 2", "frames: 1 threads for 2 renderers" },
		{ "make --jobs 0", "--jobs: 0 is outside 1..4096" },
		{ "pgbench --server-us 0", "--server-us: 0 is outside 1..100000" },
	};
	struct bench_plan pl;
	char err[200];
	char *ctl[] = { "cpu", "--time", "1\n2" };   /* messages echo words: refused whole */
	assert_int_equal(bench_plan_parse(&pl, 0, 3, ctl, known, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "word 3 holds a control character (0x0a)");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = parse(&pl, 0, cases[i].line, err, sizeof(err));
		if (rc != -1 || !strstr(err, cases[i].want))
			fail_msg("'%s': status %d, message '%s', expected '%s'", cases[i].line, rc, err,
				 cases[i].want);
		assert_null(strchr(err, '\n'));
	}
}

/* ---- the driver on a fake platform ---- */

struct fake {
	char log[4096];
	char current[32];     /* the policy set, "" after a restore */
	int applies, restores, runs;
	int stop_at, fail_check_at, apply_fail_at;   /* 1-based run / apply number; 0: never */
	int metered;          /* 1: runs report energy (ule 3 J, hmp 2 J, each over 1 s) */
};

static int fake_apply(void *arg, const char *name, char *err, size_t len)
{
	struct fake *f = arg;
	assert_string_equal(f->current, "");   /* the last run's policy was put back */
	f->applies++;
	if (f->applies == f->apply_fail_at) {
		snprintf(err, len, "kern.sched.policy=%s: refused", name);
		return -1;
	}
	snprintf(f->current, sizeof(f->current), "%s", name);
	strncat(f->log, name, sizeof(f->log) - strlen(f->log) - 2);
	strcat(f->log, " ");
	return 0;
}

static int fake_restore(void *arg, char *err, size_t len)
{
	struct fake *f = arg;
	(void)err;
	(void)len;
	f->restores++;
	f->current[0] = 0;
	return 0;
}

static int fake_run(void *arg, const struct bench_wl *wl, const uint64_t *opt, int threads,
		    struct bench_result *res)
{
	struct fake *f = arg;
	(void)wl;
	(void)opt;
	assert_string_not_equal(f->current, "");
	f->runs++;
	int hmp = strcmp(f->current, "hmp") == 0;
	res->value = (hmp ? 300000 : 200000) + threads * 1000 + f->runs;
	res->check_ok = f->runs != f->fail_check_at;
	snprintf(res->check, sizeof(res->check), "fake run %d", f->runs);
	res->place.nthreads = (unsigned)threads;
	res->place.run_ns_type[1] = hmp ? 1000 : 600;   /* P */
	res->place.run_ns_type[2] = hmp ? 0 : 400;      /* E */
	res->place.run_ns_shared = hmp ? 0 : 100;
	res->place.end_cpu[0] = (uint16_t)threads;
	res->extra[0] = 7;
	res->energy_uj = f->metered ? (hmp ? 2000000 : 3000000) : -1;
	res->elapsed_ns = 1000000000u;
	if (f->runs == f->stop_at) {
		res->aborted = 1;
		return 1;
	}
	return 0;
}

static int fake_cpu_type(void *arg, int cpu)
{
	(void)arg;
	return cpu < 12 ? 1 : 2;
}

static int64_t fake_hfi(void *arg)
{
	struct fake *f = arg;
	return f->runs * 2;
}

/* Every CSV block of text: its declared row count equals the rows between
 * its markers; returns the rows of block `name` (-1: not there). */
static int csv_rows(const char *name)
{
	int found = -1;
	for (const char *s = strstr(text, "--- mosaic-bench-csv begin "); s;
	     s = strstr(s + 1, "--- mosaic-bench-csv begin ")) {
		char bname[64];
		assert_int_equal(sscanf(s, "--- mosaic-bench-csv begin %63s", bname), 1);
		const char *line = strchr(s, '\n') + 1;
		int rows = 0;
		while (strncmp(line, "--- mosaic-bench-csv end ", 25) != 0) {
			rows++;
			line = strchr(line, '\n') + 1;
		}
		char ename[64];
		int n;
		assert_int_equal(sscanf(line, "--- mosaic-bench-csv end %63s rows=%d", ename, &n), 2);
		assert_string_equal(ename, bname);
		assert_int_equal(n, rows);
		if (strcmp(bname, name) == 0)
			found = rows;
	}
	return found;
}

/* Runs line's plan on a fake platform f; returns the data (caller frees). */
static void drive(const char *line, int sweep, struct fake *f, struct bench_plan *pl, struct bench_data *d)
{
	char err[200];
	assert_int_equal(parse(pl, sweep, line, err, sizeof(err)), 0);
	assert_int_equal(bench_data_init(d, pl), 0);
	struct bench_plat pf = { f, fake_apply, fake_restore, fake_run, fake_cpu_type, fake_hfi, 1, 0 };
	text_len = 0;
	text[0] = 0;
	bench_drv_run(pl, &pf, &out, d);
	bench_drv_report(pl, &pf, &out, d, 1);
	assert_int_equal(f->applies, f->restores);
}

static void test_alternation_and_report(void **state)
{
	(void)state;
	struct fake f = { 0 };
	struct bench_plan pl;
	struct bench_data d;
	drive("cpu --threads 2,4 --runs 3 --policy ule,hmp", 1, &f, &pl, &d);
	/* sample by sample, thread count by thread count, A B each time */
	assert_string_equal(f.log, "ule hmp ule hmp ule hmp ule hmp ule hmp ule hmp ");
	assert_int_equal(d.done, 12);
	assert_false(d.stopped);
	for (int k = 0; k < 4; k++)
		assert_int_equal(d.count[k], 3);
	/* samples in the report's layout: ule at 2 threads = runs 1, 5, 9 */
	assert_int_equal(d.v[0], 202001);
	assert_int_equal(d.v[1], 202005);
	assert_int_equal(d.v[2], 202009);
	assert_int_equal(d.v[2 * 3 + 0], 302002);   /* hmp, 2 threads, first sample */
	assert_non_null(strstr(text, "bench: run 1 of 12: cpu ule, 2 threads, sample 1 of 3"));
	assert_non_null(strstr(text, "bench: run 12 of 12: cpu hmp, 4 threads, sample 3 of 3"));
	assert_non_null(strstr(text, "[Policy] ule"));
	assert_non_null(strstr(text, "[Policy] hmp"));
	assert_non_null(strstr(text, "Use Cores"));
	assert_non_null(strstr(text, "Rate(Median)"));
	assert_non_null(strstr(text, "[Beyond the report] A = ule; B = hmp"));
	assert_non_null(strstr(text, "[Where the work ran]"));
	assert_non_null(strstr(text, "from the machine model (work clock): events/s (the main figure)"));
	/* ule ran 60 % on P, 10 of it beside a busy sibling, 40 % on E */
	assert_non_null(strstr(text, "where: P 50.0%, P beside a busy SMT sibling 10.0%, E 40.0%"));
	assert_non_null(strstr(text, "2 HFI updates"));
	assert_int_equal(csv_rows("cpu"), 1 + 12);
	assert_int_equal(csv_rows("cpu.summary"), 1 + 4);
	assert_int_equal(csv_rows("cpu.placement"), 1 + 4);
	assert_int_equal(csv_rows("cpu.runs"), 1 + 12);
	assert_int_equal(csv_rows("cpu.extras"), 1 + 12 * 2);
	assert_int_equal(csv_rows("cpu.latency"), -1);   /* cpu has no latencies */
	assert_non_null(strstr(text, "\nule,2 threads,50.00,10.00,40.00,0.00\n"));
	assert_non_null(strstr(text, "\nhmp,4 threads,100.00,0.00,0.00,0.00\n"));
	bench_data_free(&d);
}

/* Energy, where the platform meters it: the run's line, the [Energy]
 * table (work per joule = the figure / average watts, against A with the
 * U test) and its CSV; nothing of it without energy. */
static void test_energy_report(void **state)
{
	(void)state;
	struct fake f = { .metered = 1 };
	struct bench_plan pl;
	struct bench_data d;
	drive("cpu --threads 2 --runs 3 --policy ule,hmp", 0, &f, &pl, &d);
	/* run 2: hmp, 3020.02 events/s at 2 W */
	assert_non_null(strstr(text, "bench:   energy: 2.000 J over 1000 ms, 2.000 W average, 1510.010 events/J\n"));
	assert_non_null(strstr(text, "bench:   energy: 3.000 J over 1000 ms, 3.000 W average, 673.336 events/J\n"));
	assert_non_null(strstr(text, "[Energy] medians of the runs"));
	/* medians: ule 673.343 (runs 1, 3, 5), hmp 1510.020 events/J: 224.26 %; 3 of 3
	 * above: p = 0.1 */
	assert_non_null(strstr(text, "A ule                        2     3        3.000      3.000        673.343         -        -\n"));
	assert_non_null(strstr(text, "B hmp                        2     3        2.000      2.000       1510.020   224.26%   0.1000\n"));
	assert_int_equal(csv_rows("cpu.energy"), 1 + 6);
	assert_non_null(strstr(text, "\nhmp,2,1,2,2.000000,1.000000,2.000,1510.010,events/J\n"));
	bench_data_free(&d);

	struct fake g = { 0 };   /* not metered */
	drive("cpu --threads 2 --runs 1 --policy ule", 0, &g, &pl, &d);
	assert_null(strstr(text, "energy"));
	assert_null(strstr(text, "[Energy]"));
	assert_int_equal(csv_rows("cpu.energy"), -1);
	bench_data_free(&d);
}

static void test_compact_layout_with_latency(void **state)
{
	(void)state;
	struct fake f = { 0 };
	struct bench_plan pl;
	struct bench_data d;
	drive("schbench --threads 2 --runs 2 --policy ule,hmp", 0, &f, &pl, &d);
	assert_null(strstr(text, "[Policy]"));
	assert_non_null(strstr(text, "A ule"));
	assert_non_null(strstr(text, "B hmp"));
	assert_non_null(strstr(text, "wakeup latency p50 0.000"));
	assert_non_null(strstr(text, "from guest time (includes waking, sleeping, channel waits at the "
				     "emulator's speed): requests/s (the main figure), requests, wakeup latency, "
				     "request latency"));
	assert_int_equal(csv_rows("schbench"), 1 + 4);
	assert_int_equal(csv_rows("schbench.latency"), 1 + 2 * 2);
	bench_data_free(&d);
}

static void test_stop_keeps_completed_runs(void **state)
{
	(void)state;
	struct fake f = { .stop_at = 3 };
	struct bench_plan pl;
	struct bench_data d;
	drive("cpu --threads 4 --runs 4", 1, &f, &pl, &d);
	assert_true(d.stopped);
	assert_int_equal(f.runs, 3);
	assert_int_equal(d.count[0], 1);
	assert_int_equal(d.count[1], 1);
	assert_non_null(strstr(text, "run 3 of 8 stopped before its end: not a sample"));
	assert_non_null(strstr(text, "2 of 8 runs completed"));
	assert_non_null(strstr(text, "STOPPED before the end"));
	char row[64];
	snprintf(row, sizeof(row), "\n%-17s%14s\n", "Sample 2", "-");   /* a sample not taken */
	assert_non_null(strstr(text, row));
	assert_int_equal(csv_rows("cpu"), 1 + 2);
	assert_int_equal(csv_rows("cpu.runs"), 1 + 2);
	bench_data_free(&d);
}

static void test_failed_check_is_not_a_sample(void **state)
{
	(void)state;
	struct fake f = { .fail_check_at = 2 };
	struct bench_plan pl;
	struct bench_data d;
	drive("cpu --threads 4 --runs 2", 0, &f, &pl, &d);
	assert_false(d.stopped);
	assert_true(d.failed);
	assert_int_equal(d.done, 4);
	assert_int_equal(d.count[0], 2);
	assert_int_equal(d.count[1], 1);
	assert_non_null(strstr(text, "check FAILED (not a sample): fake run 2"));
	assert_int_equal(csv_rows("cpu"), 1 + 3);
	assert_int_equal(csv_rows("cpu.runs"), 1 + 4);   /* its placement is still shown */
	bench_data_free(&d);
}

static void test_policy_refused_stops(void **state)
{
	(void)state;
	struct fake f = { .apply_fail_at = 2 };
	struct bench_plan pl;
	struct bench_data d;
	drive("cpu --threads 4 --runs 2", 0, &f, &pl, &d);
	assert_true(d.failed);
	assert_int_equal(f.runs, 1);
	assert_non_null(strstr(text, "bench: policy hmp: kern.sched.policy=hmp: refused; stopping"));
	bench_data_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_defaults_and_forms),
		cmocka_unit_test(test_plan_refusals),
		cmocka_unit_test(test_alternation_and_report),
		cmocka_unit_test(test_energy_report),
		cmocka_unit_test(test_compact_layout_with_latency),
		cmocka_unit_test(test_stop_keeps_completed_runs),
		cmocka_unit_test(test_failed_check_is_not_a_sample),
		cmocka_unit_test(test_policy_refused_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
