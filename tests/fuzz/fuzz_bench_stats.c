/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz harness of the benchmark statistics and report (kernel/bench/).
 * Random sample sets (sizes 1, 2, small and up to 1024; ties, zeros and
 * 10^15; noisy benchmark-like values) are checked against reference models
 * written with the C library: exact 128-bit arithmetic for every statistic
 * and rate, a pair count for U, all orderings enumerated for the exact
 * p-value, libm's erfc for the normal approximation, long double for the
 * CV; invariants of the bootstrap interval; and a round trip of whole
 * sweeps through the CSV blocks.
 */
#include <math.h>
#include <stdarg.h>
/* Iteration 0 (and every 512th) is the slow full-size case, which the
 * seeded runs keep: libFuzzer inputs start at 64, which checks the
 * bootstrap and the report at ordinary sizes. */
#define FUZZ_INPUT_FIRST_ITERATION 64
#include <tests/fuzz/fuzz.h>
#include <bench/bench_csv.h>
#include <bench/bench_table.h>

static struct bench_table_scratch scratch;
static int64_t va[BENCH_MAX_SAMPLES], vb[BENCH_MAX_SAMPLES];

/* n values of one of several shapes. */
static void gen_samples(struct fuzz *f, int64_t *v, int n)
{
	int shape = (int)fuzz_below(f, 6);
	int64_t base = (int64_t)fuzz_below(f, (uint64_t)BENCH_VALUE_MAX + 1);
	int64_t small = 1 + (int64_t)fuzz_below(f, 8);
	for (int i = 0; i < n; i++) {
		switch (shape) {
		case 0: v[i] = (int64_t)fuzz_below(f, (uint64_t)small + 1); break;           /* many ties */
		case 1: v[i] = (int64_t)fuzz_below(f, (uint64_t)BENCH_VALUE_MAX + 1); break;
		case 2: {                                                                       /* extremes */
			static const int64_t ends[] = { 0, 1, 2, BENCH_VALUE_MAX - 1, BENCH_VALUE_MAX };
			v[i] = ends[fuzz_below(f, 5)];
			break;
		}
		case 3: v[i] = base; break;                                                     /* all equal */
		case 4: {                                                                       /* benchmark-like */
			int64_t spread = base / 50 + 1;
			int64_t x = base - spread + (int64_t)fuzz_below(f, 2 * (uint64_t)spread + 1);
			v[i] = x < 0 ? 0 : x > BENCH_VALUE_MAX ? BENCH_VALUE_MAX : x;
			break;
		}
		default: v[i] = 2900000000LL + (int64_t)fuzz_below(f, 800000000); break;   /* the report's scale */
		}
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* n / d rounded half up, with the C library's 128-bit division. */
static unsigned __int128 div_round(unsigned __int128 n, unsigned __int128 d)
{
	return (2 * n + d) / (2 * d);
}

/* The model of bench_ratio(). */
static int64_t model_ratio(unsigned __int128 num, unsigned __int128 den)
{
	if (!den)
		return BENCH_NA;
	unsigned __int128 r = div_round(num * BENCH_PCT_ONE, den);
	return r > BENCH_RATIO_MAX ? BENCH_NA : (int64_t)r;
}

/* One column against the model; also returns the model's sorted copy. */
static void check_column(struct fuzz *f, const int64_t *v, int n, int threads, int64_t *sorted,
			 struct bench_col *c)
{
	if (bench_stats_column(v, n, threads, scratch.s.a, c))
		fuzz_fail(f, "valid column of %d refused", n);
	for (int i = 0; i < n; i++)
		sorted[i] = v[i];
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_i64);
	int64_t sum = 0;
	for (int i = 0; i < n; i++)
		sum += v[i];
	int64_t med2 = n % 2 ? 2 * sorted[n / 2] : sorted[n / 2 - 1] + sorted[n / 2];
	if (c->n != n || c->min != sorted[0] || c->max != sorted[n - 1] || c->sum != sum ||
	    c->mean != (int64_t)div_round((uint64_t)sum, (uint64_t)n) || c->median2 != med2 ||
	    c->median != (int64_t)div_round((uint64_t)med2, 2) ||
	    c->median_per_core != (int64_t)div_round((uint64_t)med2, 2 * (uint64_t)threads))
		fuzz_fail(f, "column of %d: statistics differ from the model", n);
	if (!(c->min <= c->median && c->median <= c->max && c->min <= c->mean && c->mean <= c->max))
		fuzz_fail(f, "column of %d: min <= median, mean <= max broken", n);
	if (memcmp(sorted, scratch.s.a, (size_t)n * sizeof(*sorted)))
		fuzz_fail(f, "column of %d: sorted copy wrong", n);
	if (n < 2 || sum == 0) {
		if (c->cv != BENCH_NA)
			fuzz_fail(f, "CV of %d samples with sum %lld should be undefined", n, (long long)sum);
		return;
	}
	long double mean = (long double)sum / n, ss = 0;
	for (int i = 0; i < n; i++)
		ss += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	long double cv = sqrtl(ss / (n - 1)) / mean * 10000.0L;
	if (fabsl((long double)c->cv - cv) > 1.0L)
		fuzz_fail(f, "CV %lld, model %.3Lf", (long long)c->cv, cv);
}

/* 2 U_B by counting pairs. */
static int64_t model_u2(const int64_t *a, int na, const int64_t *b, int nb)
{
	int64_t u2 = 0;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			u2 += b[j] > a[i] ? 2 : b[j] == a[i];
	return u2;
}

/* Exact two-sided p (no ties, na + nb <= 16): every choice of B's ranks. */
static uint64_t model_exact_p(int na, int nb, int64_t u2_b)
{
	int n = na + nb;
	int64_t cells = (int64_t)na * nb, u2 = u2_b > cells ? u2_b : 2 * cells - u2_b;
	uint64_t total = 0, tail = 0;
	for (uint32_t s = (1u << nb) - 1; s < (1u << n); ) {
		int64_t rank_sum = 0;
		for (int r = 0; r < n; r++)
			if (s & (1u << r))
				rank_sum += r + 1;
		int64_t ub = rank_sum - (int64_t)nb * (nb + 1) / 2;
		total++;
		tail += 2 * ub >= u2;
		uint32_t low = s & -s, ripple = s + low;   /* next set of nb bits (Gosper) */
		s = (((ripple ^ s) >> 2) / low) | ripple;
	}
	unsigned __int128 p = div_round((unsigned __int128)2 * tail * BENCH_P_ONE, total);
	return p > BENCH_P_ONE ? BENCH_P_ONE : (uint64_t)p;
}

/* Normal approximation as SciPy computes it, in double. */
static double model_normal_p(const int64_t *a, int na, const int64_t *b, int nb, int64_t u2_b)
{
	double n = na + nb, T = 0;
	int i = 0, j = 0;
	while (i < na || j < nb) {
		int64_t v = j >= nb || (i < na && a[i] < b[j]) ? a[i] : b[j];
		double t = 0;
		for (; i < na && a[i] == v; i++)
			t++;
		for (; j < nb && b[j] == v; j++)
			t++;
		T += t * t * t - t;
	}
	double cells = (double)na * nb, U = (u2_b > cells ? u2_b : 2 * cells - u2_b) / 2.0;
	double s = sqrt(cells / 12 * ((n + 1) - T / (n * (n - 1))));
	if (!(s > 0))
		return 1;
	double p = erfc((U - cells / 2 - 0.5) / s / sqrt(2.0));
	return p > 1 ? 1 : p;
}

static void check_compare(struct fuzz *f, int na, int nb)
{
	static int64_t sa[BENCH_MAX_SAMPLES], sb[BENCH_MAX_SAMPLES];
	struct bench_col ca, cb;
	struct bench_cmp m;
	check_column(f, va, na, 1 + (int)fuzz_below(f, BENCH_MAX_THREADS), sa, &ca);
	check_column(f, vb, nb, 1 + (int)fuzz_below(f, BENCH_MAX_THREADS), sb, &cb);
	int boot = f->iteration % 16 == 0;
	if (boot) {
		bench_compare(va, &ca, vb, &cb, f->iteration, &scratch.s, &m);
	} else {   /* the cheap parts only */
		m.rate_avg = model_ratio((unsigned __int128)(uint64_t)cb.sum * (uint64_t)na,
					 (unsigned __int128)(uint64_t)ca.sum * (uint64_t)nb);
		m.rate_median = bench_ratio((uint64_t)cb.median2, (uint64_t)ca.median2);
		m.rate_max_min = bench_ratio((uint64_t)cb.max, (uint64_t)ca.min);
		m.rate_min_min = bench_ratio((uint64_t)cb.min, (uint64_t)ca.min);
		bench_mwu(sa, na, sb, nb, scratch.s.poly, &m.mwu);
	}
	if (boot && (m.rate_avg != model_ratio((unsigned __int128)(uint64_t)cb.sum * (uint64_t)na,
					       (unsigned __int128)(uint64_t)ca.sum * (uint64_t)nb) ||
		     m.rate_median != model_ratio((uint64_t)cb.median2, (uint64_t)ca.median2) ||
		     m.rate_max_min != model_ratio((uint64_t)cb.max, (uint64_t)ca.min) ||
		     m.rate_min_min != model_ratio((uint64_t)cb.min, (uint64_t)ca.min)))
		fuzz_fail(f, "rates differ from the model");
	if (m.mwu.u2_b != model_u2(sa, na, sb, nb))
		fuzz_fail(f, "2U_B %lld, model %lld", (long long)m.mwu.u2_b, (long long)model_u2(sa, na, sb, nb));
	if (m.mwu.p > BENCH_P_ONE)
		fuzz_fail(f, "p %llu above 1", (unsigned long long)m.mwu.p);
	int ties = 0;
	for (int i = 0, j = 0; i < na && j < nb; )
		sa[i] == sb[j] ? (ties = 1, i++) : sa[i] < sb[j] ? i++ : j++;
	for (int i = 1; i < na; i++)
		ties |= sa[i] == sa[i - 1];
	for (int i = 1; i < nb; i++)
		ties |= sb[i] == sb[i - 1];
	int exact = !ties && (int64_t)na * nb <= BENCH_MWU_EXACT_CELLS;
	if (m.mwu.method != (exact ? BENCH_MWU_EXACT : BENCH_MWU_NORMAL))
		fuzz_fail(f, "method %d for %d x %d, ties %d", m.mwu.method, na, nb, ties);
	if (exact && na + nb <= 16 && m.mwu.p != model_exact_p(na, nb, m.mwu.u2_b))
		fuzz_fail(f, "exact p %llu, model %llu (%d x %d)", (unsigned long long)m.mwu.p,
			  (unsigned long long)model_exact_p(na, nb, m.mwu.u2_b), na, nb);
	if (!exact) {
		double want = model_normal_p(sa, na, sb, nb, m.mwu.u2_b) * 1e12;
		if (fabs((double)m.mwu.p - want) > 1.0 + want * 1e-12)
			fuzz_fail(f, "normal p %llu, model %.3f (%d x %d)", (unsigned long long)m.mwu.p, want, na, nb);
	}
	if (!boot)
		return;
	struct bench_ci again;
	bench_bootstrap_ci(sa, na, sb, nb, f->iteration, &scratch.s, &again);
	if (again.lo != m.ci.lo || again.hi != m.ci.hi)
		fuzz_fail(f, "bootstrap not deterministic");
	int64_t lo = model_ratio(2 * (uint64_t)cb.min, 2 * (uint64_t)ca.max);
	int64_t hi = model_ratio(2 * (uint64_t)cb.max, 2 * (uint64_t)ca.min);
	if (ca.min > 0 && hi != BENCH_NA && (m.ci.lo == BENCH_NA || m.ci.lo > m.ci.hi || m.ci.lo < lo || m.ci.hi > hi))
		fuzz_fail(f, "CI [%lld, %lld] outside [%lld, %lld]", (long long)m.ci.lo, (long long)m.ci.hi,
			  (long long)lo, (long long)hi);
	if (ca.max == 0 && m.ci.lo != BENCH_NA)
		fuzz_fail(f, "CI defined with every median of A 0");
}

/* The report's output, collected. */
static char text[1 << 20];
static size_t text_len;

static void to_text(void *arg, const char *fmt, va_list ap)
{
	(void)arg;
	int n = vsnprintf(text + text_len, sizeof(text) - text_len, fmt, ap);
	if (n < 0 || (size_t)n >= sizeof(text) - text_len)
		abort();
	text_len += (size_t)n;
}

/* One CSV field at *p (RFC 4180 quoting), into out; advances *p. */
static void csv_field(char **p, char *out, size_t size)
{
	size_t n = 0;
	char *s = *p;
	if (*s == '"') {
		for (s++; !(*s == '"' && s[1] != '"'); s++) {
			if (*s == '"')
				s++;
			if (n + 1 < size)
				out[n++] = *s;
		}
		s++;
	} else {
		for (; *s != ',' && *s != '\n'; s++)
			if (n + 1 < size)
				out[n++] = *s;
	}
	out[n] = 0;
	*p = *s == ',' ? s + 1 : s;
}

/* A sweep of random shape through bench_report(): the sample block must
 * give back every sample, and every table line is as long as its
 * separator. */
static void check_report(struct fuzz *f)
{
	static const char *const names[] = { "ule", "hmp", "a,b", "say \"x\"", "-lead", " sp ", "é",
					     "--- mosaic-bench-csv end fz rows=1 fnv1a=00000000 ---" };
	static int64_t v[BENCH_MAX_POLICIES * BENCH_MAX_COLS * 8];
	int threads[BENCH_MAX_COLS], count[BENCH_MAX_POLICIES * BENCH_MAX_COLS];
	const char *pol[BENCH_MAX_POLICIES];
	struct bench_sweep sw = { .name = "fz", .unit = "u,x", .decimals = (int)fuzz_below(f, 7),
				  .ncols = 1 + (int)fuzz_below(f, 4), .threads = threads,
				  .npolicies = 1 + (int)fuzz_below(f, 4), .policy = pol,
				  .nsamples = 1 + (int)fuzz_below(f, 8), .v = v, .count = count };
	for (int c = 0; c < sw.ncols; c++)
		threads[c] = 1 + (int)fuzz_below(f, 64);
	for (int p = 0; p < sw.npolicies; p++) {
		pol[p] = names[fuzz_below(f, sizeof(names) / sizeof(names[0]))];
		for (int c = 0; c < sw.ncols; c++) {
			count[p * sw.ncols + c] = (int)fuzz_below(f, (uint64_t)sw.nsamples + 1);
			gen_samples(f, &v[(p * sw.ncols + c) * sw.nsamples], sw.nsamples);
		}
	}
	text_len = 0;
	struct bench_out o = { to_text, NULL };
	if (bench_report(&sw, &o, &scratch))
		fuzz_fail(f, "valid sweep refused: %s", text);
	text[text_len] = 0;
	const char *begin = "--- mosaic-bench-csv begin fz schema=sweep/1 ---\npolicy,threads,sample,value,unit\n";
	char *p = strstr(text, begin);
	if (!p)
		fuzz_fail(f, "no sample block");
	p += strlen(begin);
	/* the first line that looks like an end marker is the block's end */
	int rows = 0, want_rows = 0;
	for (char *q = p; strncmp(q, "--- mosaic-bench-csv end ", 25); q = strchr(q, '\n') + 1)
		rows++;
	for (int k = 0; k < sw.npolicies * sw.ncols; k++)
		want_rows += count[k];
	if (rows != want_rows)
		fuzz_fail(f, "sample block ends after %d rows, not %d", rows, want_rows);
	for (int pi = 0; pi < sw.npolicies; pi++) {
		for (int c = 0; c < sw.ncols; c++) {
			for (int s = 0; s < count[pi * sw.ncols + c]; s++) {
				char fld[5][64], want[64];
				for (int k = 0; k < 5; k++)
					csv_field(&p, fld[k], sizeof(fld[k]));
				if (*p++ != '\n')
					fuzz_fail(f, "sample row not 5 fields");
				struct strbuf sb;
				strbuf_init(&sb, want, sizeof(want));
				bench_put_fixed(&sb, v[(pi * sw.ncols + c) * sw.nsamples + s], sw.decimals);
				if (strcmp(fld[0], pol[pi]) || atoi(fld[1]) != threads[c] || atoi(fld[2]) != s + 1 ||
				    strcmp(fld[3], want) || strcmp(fld[4], "u,x"))
					fuzz_fail(f, "sample row '%s,%s,%s,%s' does not give back %s", fld[0], fld[1],
						  fld[2], fld[3], want);
			}
		}
	}
	if (strncmp(p, "--- mosaic-bench-csv end fz rows=", 33))
		fuzz_fail(f, "sample block does not end after its rows");
	/* table lines: as long as the latest separator */
	size_t sep = 0;
	for (char *line = text, *nl; (nl = strchr(line, '\n')) && strncmp(line, "CV:", 3); line = nl + 1) {
		size_t len = (size_t)(nl - line);
		if (line[0] == '-')
			sep = len;
		else if (line[0] != '[' && sep && len != sep)
			fuzz_fail(f, "table line of %zu characters under a separator of %zu", len, sep);
	}
}

static void fuzz_one(struct fuzz *f)
{
	int big = f->iteration % 512 == 0;
	int na = 1 + (int)fuzz_below(f, big ? BENCH_MAX_SAMPLES : fuzz_below(f, 4) ? 12 : 40);
	int nb = 1 + (int)fuzz_below(f, big ? BENCH_MAX_SAMPLES : fuzz_below(f, 4) ? 12 : 40);
	gen_samples(f, va, na);
	gen_samples(f, vb, nb);
	check_compare(f, na, nb);
	/* a value outside the range is refused and nothing written */
	struct bench_col c = { .n = -5 };
	int64_t keep = va[0];
	va[0] = fuzz_below(f, 2) ? -1 - (int64_t)fuzz_below(f, 1000) : BENCH_VALUE_MAX + 1;
	if (bench_stats_column(va, na, 1, scratch.s.a, &c) != -1 || c.n != -5)
		fuzz_fail(f, "out-of-range sample accepted");
	va[0] = keep;
	if (f->iteration % 64 == 0)
		check_report(f);
}

FUZZ_MAIN("bench_stats")
