/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_stats_cli — the kernel's benchmark statistics and report on the
 * host, for the Python tests in tests/host/ (built as
 * build/host/bench_stats_cli by `make test`).
 *
 *   bench_stats_cli stats [SEED]
 *       reads cases from stdin, one a line: "THREADS | A values | B values"
 *       (integers), and prints one line of key=value per case: each
 *       column's statistics (suffix _a, _b) and B against A.
 *   bench_stats_cli report FILE.table
 *       prints bench_report() of a seed report table (tests/data/seed-report/)
 *       as the kernel would print it on the console.
 *
 * Refuses a malformed or out-of-range case naming its line, exit status 1.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bench/bench_table.h>
#include <sim/seed_table.h>

#define LINE_MAX_BYTES (1 << 16)

static struct bench_table_scratch scratch;
static int64_t va[BENCH_MAX_SAMPLES], vb[BENCH_MAX_SAMPLES];

/* Integers of s up to the next '|' or the end, into v; count or -1. */
static int parse_values(char **s, int64_t *v)
{
	int n = 0;
	char *p = *s;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '|' || *p == '\n' || *p == 0)
			break;
		if (n == BENCH_MAX_SAMPLES)
			return -1;
		char *end;
		errno = 0;
		long long x = strtoll(p, &end, 10);
		if (end == p || errno || (*end != ' ' && *end != '\t' && *end != '|' && *end != '\n' && *end))
			return -1;
		v[n++] = x;
		p = end;
	}
	*s = *p == '|' ? p + 1 : p;
	return n;
}

static void print_col(const char *k, const struct bench_col *c)
{
	printf(" n_%s=%d min_%s=%lld max_%s=%lld sum_%s=%lld mean_%s=%lld median2_%s=%lld median_%s=%lld"
	       " mpc_%s=%lld cv_%s=%lld", k, c->n, k, (long long)c->min, k, (long long)c->max, k,
	       (long long)c->sum, k, (long long)c->mean, k, (long long)c->median2, k, (long long)c->median, k,
	       (long long)c->median_per_core, k, (long long)c->cv);
}

static int run_stats(uint64_t seed)
{
	static char line[LINE_MAX_BYTES];
	int lineno = 0;
	while (fgets(line, sizeof(line), stdin)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(stdin)) {
			fprintf(stderr, "stdin:%d: line longer than %d bytes\n", lineno, LINE_MAX_BYTES - 2);
			return 1;
		}
		char *p = line, *end;
		errno = 0;
		long threads = strtol(p, &end, 10);
		p = end;
		while (*p == ' ')
			p++;
		if (end == line || errno || *p++ != '|') {
			fprintf(stderr, "stdin:%d: expected 'THREADS | A values | B values'\n", lineno);
			return 1;
		}
		int na = parse_values(&p, va), nb = parse_values(&p, vb);
		struct bench_col ca, cb;
		if (na < 0 || nb < 0 || threads < 1 || threads > BENCH_MAX_THREADS ||
		    bench_stats_column(va, na, (int)threads, scratch.s.a, &ca) ||
		    bench_stats_column(vb, nb, (int)threads, scratch.s.a, &cb)) {
			fprintf(stderr, "stdin:%d: not a valid case (1..%d samples of 0..%lld each, threads 1..%d)\n",
				lineno, BENCH_MAX_SAMPLES, (long long)BENCH_VALUE_MAX, BENCH_MAX_THREADS);
			return 1;
		}
		struct bench_cmp m;
		bench_compare(va, &ca, vb, &cb, seed, &scratch.s, &m);
		printf("case=%d", lineno);
		print_col("a", &ca);
		print_col("b", &cb);
		printf(" rate_avg=%lld rate_median=%lld rate_max_min=%lld rate_min_min=%lld method=%s u2_b=%lld"
		       " p=%llu ci_lo=%lld ci_hi=%lld\n", (long long)m.rate_avg, (long long)m.rate_median,
		       (long long)m.rate_max_min, (long long)m.rate_min_min,
		       m.mwu.method == BENCH_MWU_EXACT ? "exact" : "normal", (long long)m.mwu.u2_b,
		       (unsigned long long)m.mwu.p, (long long)m.ci.lo, (long long)m.ci.hi);
	}
	return 0;
}

static void to_stdout(void *arg, const char *fmt, va_list ap)
{
	(void)arg;
	vprintf(fmt, ap);
}

static int run_report(const char *path)
{
	static struct seed_table t;
	if (seed_table_load(path, &t))
		return 1;
	const char *names[2] = { t.policy[0], t.policy[1] };
	struct bench_sweep sw = { .name = "sysbench-cpu", .unit = "events", .group_label = "Kernel Config",
				  .decimals = 2, .ncols = SEED_COLS, .threads = t.threads, .npolicies = 2,
				  .policy = names, .nsamples = SEED_SAMPLES, .v = t.v };
	struct bench_out o = { to_stdout, NULL };
	return bench_report(&sw, &o, &scratch) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && argc <= 3 && strcmp(argv[1], "stats") == 0) {
		char *end = NULL;
		uint64_t seed = argc == 3 ? strtoull(argv[2], &end, 0) : BENCH_BOOTSTRAP_SEED;
		if (argc == 3 && (*end || end == argv[2])) {
			fprintf(stderr, "bench_stats_cli: seed '%s' is not a number\n", argv[2]);
			return 2;
		}
		return run_stats(seed);
	}
	if (argc == 3 && strcmp(argv[1], "report") == 0)
		return run_report(argv[2]);
	fprintf(stderr, "usage: bench_stats_cli stats [SEED] < cases\n       bench_stats_cli report FILE.table\n");
	return 2;
}
