/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz harness of the `bench` command's parser (bench_plan_parse(),
 * kernel/bench/bench_drv.c, with the workloads' options of bench_wl.c).
 *
 * Half the inputs are valid plans drawn from a model (workload, thread
 * counts, runs, policies, options in their ranges and the workloads'
 * cross-checks, written as `--NAME VALUE` or `--NAME=VALUE` in random
 * order): the parser must accept exactly those the model accepts and
 * return exactly the model's plan. The other half are such plans with
 * their words mutated (bytes, a value replaced by an edge number, an
 * option repeated, a value dropped, an unknown option): whatever the
 * parser accepts must satisfy every documented range and check, and
 * survive a round trip (the plan written back canonically parses to the
 * same plan); whatever it refuses has a one-line message.
 */
#include <inttypes.h>
#include <tests/fuzz/fuzz.h>
#include <bench/bench_drv.h>

static const char *const policies[] = { "ule", "hmp", "hmp-no-d", "primary-p", "mine" };
#define NPOL (sizeof(policies) / sizeof(policies[0]))

static int known(void *arg, const char *name)
{
	(void)arg;
	for (size_t i = 0; i < NPOL; i++)
		if (strcmp(name, policies[i]) == 0)
			return 1;
	return 0;
}

/* The documented cross-checks (docs/bench.md) of a workload at threads. */
static int model_check(const struct bench_wl *wl, const uint64_t *opt, int threads)
{
	if (strcmp(wl->name, "cpu") == 0)
		return opt[1] || opt[2];
	if (strcmp(wl->name, "hackbench") == 0)
		return (uint64_t)threads * 2 * opt[0] <= BENCH_WL_THREADS_MAX;
	if (strcmp(wl->name, "schbench") == 0)
		return (uint64_t)threads >= opt[1];
	if (strcmp(wl->name, "frames") == 0)
		return (uint64_t)threads >= opt[4];
	return 1;
}

/* 1 if x is among v[0..n). */
static int has(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* A value in lo..hi, often at an edge. */
static uint64_t pick_in(struct fuzz *f, uint64_t lo, uint64_t hi)
{
	switch (fuzz_below(f, 4)) {
	case 0: return lo;
	case 1: return hi;
	default: return lo + fuzz_u64(f) % (hi - lo + 1 ? hi - lo + 1 : UINT64_MAX);
	}
}

struct words {
	char buf[4096];
	size_t used;
	char *w[64];
	int n;
};

static void add_word(struct words *ws, const char *s)
{
	size_t len = strlen(s) + 1;
	if (ws->n == 64 || ws->used + len > sizeof(ws->buf))
		return;
	memcpy(ws->buf + ws->used, s, len);
	ws->w[ws->n++] = ws->buf + ws->used;
	ws->used += len;
}

/* Adds option name with value, in one word or two. */
static void add_opt(struct fuzz *f, struct words *ws, const char *name, const char *value)
{
	char tmp[400];
	if (fuzz_below(f, 2)) {
		snprintf(tmp, sizeof(tmp), "--%s=%s", name, value);
		add_word(ws, tmp);
	} else {
		snprintf(tmp, sizeof(tmp), "--%s", name);
		add_word(ws, tmp);
		add_word(ws, value);
	}
}

/* Writes pl as words, canonically (every option, fixed order). */
static void render(const struct bench_plan *pl, struct words *ws)
{
	char v[400];
	ws->n = 0;
	ws->used = 0;
	add_word(ws, pl->wl->name);
	size_t k = 0;
	for (int c = 0; c < pl->ncols; c++)
		k += (size_t)snprintf(v + k, sizeof(v) - k, "%s%d", c ? "," : "", pl->threads[c]);
	add_word(ws, "--threads");
	add_word(ws, v);
	snprintf(v, sizeof(v), "%d", pl->runs);
	add_word(ws, "--runs");
	add_word(ws, v);
	k = 0;
	for (int p = 0; p < pl->npol; p++)
		k += (size_t)snprintf(v + k, sizeof(v) - k, "%s%s", p ? "," : "", pl->policy[p]);
	add_word(ws, "--policy");
	add_word(ws, v);
	for (int i = 0; i < pl->wl->nopts; i++) {
		char name[48];
		snprintf(name, sizeof(name), "--%s", pl->wl->opts[i].name);
		snprintf(v, sizeof(v), "%" PRIu64, pl->opt[i]);
		add_word(ws, name);
		add_word(ws, v);
	}
}

static int plans_equal(const struct bench_plan *a, const struct bench_plan *b)
{
	if (a->wl != b->wl || a->ncols != b->ncols || a->npol != b->npol || a->runs != b->runs ||
	    a->sweep != b->sweep)
		return 0;
	for (int c = 0; c < a->ncols; c++)
		if (a->threads[c] != b->threads[c])
			return 0;
	for (int p = 0; p < a->npol; p++)
		if (strcmp(a->policy[p], b->policy[p]))
			return 0;
	for (int i = 0; i < a->wl->nopts; i++)
		if (a->opt[i] != b->opt[i])
			return 0;
	return 1;
}

/* Every documented range and check holds in an accepted plan. */
static void check_plan(struct fuzz *f, const struct bench_plan *pl)
{
	const struct bench_wl *wl = pl->wl;
	if (pl->ncols < 1 || pl->ncols > BENCH_MAX_COLS || pl->npol < 1 || pl->npol > BENCH_MAX_POLICIES ||
	    pl->runs < 1 || pl->runs > BENCH_RUNS_MAX || bench_plan_total(pl) > BENCH_TOTAL_RUNS_MAX)
		fuzz_fail(f, "accepted plan out of range: %d cols, %d policies, %d runs", pl->ncols, pl->npol,
			  pl->runs);
	for (int c = 0; c < pl->ncols; c++) {
		if (pl->threads[c] < wl->threads_min || pl->threads[c] > wl->threads_max ||
		    !model_check(wl, pl->opt, pl->threads[c]))
			fuzz_fail(f, "accepted %d threads for %s", pl->threads[c], wl->name);
		for (int k = 0; k < c; k++)
			if (pl->threads[k] == pl->threads[c])
				fuzz_fail(f, "accepted thread count %d twice", pl->threads[c]);
	}
	for (int p = 0; p < pl->npol; p++) {
		if (!known(NULL, pl->policy[p]))
			fuzz_fail(f, "accepted policy '%s'", pl->policy[p]);
		for (int k = 0; k < p; k++)
			if (!strcmp(pl->policy[k], pl->policy[p]))
				fuzz_fail(f, "accepted policy %s twice", pl->policy[p]);
	}
	for (int i = 0; i < wl->nopts; i++)
		if (pl->opt[i] < wl->opts[i].min || pl->opt[i] > wl->opts[i].max)
			fuzz_fail(f, "accepted --%s %" PRIu64, wl->opts[i].name, pl->opt[i]);
}

/* A model plan and its words (options in random order, some left at
 * their defaults); returns whether the model accepts it. */
static int model_plan(struct fuzz *f, struct bench_plan *m, struct words *ws, int sweep)
{
	memset(m, 0, sizeof(*m));
	m->wl = bench_wl_at((int)fuzz_below(f, (uint64_t)bench_wl_count()));
	m->sweep = sweep;
	bench_wl_defaults(m->wl, m->opt);
	m->runs = sweep ? BENCH_SWEEP_RUNS : BENCH_DEFAULT_RUNS;
	m->ncols = 1;
	m->threads[0] = m->wl->threads_def;
	m->npol = 2;
	strcpy(m->policy[0], "ule");
	strcpy(m->policy[1], "hmp");
	ws->n = 0;
	ws->used = 0;
	add_word(ws, m->wl->name);
	char v[400];
	int order[3 + BENCH_WL_OPT_MAX], n = 3 + m->wl->nopts;
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)fuzz_below(f, (uint64_t)i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (int k = 0; k < n; k++) {
		int i = order[k];
		if (fuzz_below(f, 3) == 0)
			continue;   /* left at the default */
		if (i == 0) {
			m->ncols = 1 + (int)fuzz_below(f, BENCH_MAX_COLS);
			size_t len = 0;
			for (int c = 0; c < m->ncols; c++) {
				int t = 0;
				for (int tries = 0; tries < 50 && (tries == 0 || has(m->threads, c, t)); tries++)
					t = (int)pick_in(f, (uint64_t)m->wl->threads_min, (uint64_t)m->wl->threads_max);
				m->threads[c] = t;
				len += (size_t)snprintf(v + len, sizeof(v) - len, "%s%d", c ? "," : "", t);
			}
			add_opt(f, ws, "threads", v);
		} else if (i == 1) {
			m->runs = (int)pick_in(f, 1, fuzz_below(f, 4) ? 20 : BENCH_RUNS_MAX);
			snprintf(v, sizeof(v), "%d", m->runs);
			add_opt(f, ws, "runs", v);
		} else if (i == 2) {
			m->npol = 1 + (int)fuzz_below(f, BENCH_MAX_POLICIES);
			size_t start = fuzz_below(f, NPOL), len = 0;
			for (int p = 0; p < m->npol; p++) {
				strcpy(m->policy[p], policies[(start + (size_t)p) % NPOL]);
				len += (size_t)snprintf(v + len, sizeof(v) - len, "%s%s", p ? "," : "", m->policy[p]);
			}
			add_opt(f, ws, "policy", v);
		} else {
			const struct bench_wl_opt *o = &m->wl->opts[i - 3];
			m->opt[i - 3] = pick_in(f, o->min, o->max);
			snprintf(v, sizeof(v), "%" PRIu64, m->opt[i - 3]);
			add_opt(f, ws, o->name, v);
		}
	}
	int ok = bench_plan_total(m) <= BENCH_TOTAL_RUNS_MAX;
	for (int c = 0; c < m->ncols; c++)
		ok &= !has(m->threads, c, m->threads[c]) && model_check(m->wl, m->opt, m->threads[c]);
	return ok;
}

/* Mutates one word of ws (or the list of words). */
static void mutate(struct fuzz *f, struct words *ws)
{
	static const char *const edge[] = { "0", "-1", "", "1", "18446744073709551616", "99999999999", "4,4",
					    "1,,2", ",", "0x10", "ule,nosuch", "--", "--threads", "=",
					    "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "4096", "1025" };
	static const char *const opts[] = { "--threads", "--runs", "--policy", "--time", "--bogus", "--fds",
					    "--jobs", "--max-prime", "--renderers", "--message-threads" };
	char tmp[400];
	int at = ws->n > 1 ? 1 + (int)fuzz_below(f, (uint64_t)ws->n - 1) : 0;
	switch (fuzz_below(f, 5)) {
	case 0: {   /* bytes of one word */
		size_t len = strlen(ws->w[at]);
		if (len >= sizeof(tmp) - 1)
			len = sizeof(tmp) - 2;
		memcpy(tmp, ws->w[at], len);
		fuzz_mutate(f, (unsigned char *)tmp, &len, sizeof(tmp) - 1);
		tmp[len] = 0;
		add_word(ws, tmp);
		ws->w[at] = ws->w[ws->n - 1];
		ws->n--;
		break;
	}
	case 1:     /* an edge value */
		ws->w[at] = (char *)fuzz_pick(f, edge, sizeof(edge) / sizeof(edge[0]));
		break;
	case 2:     /* drop a word */
		if (ws->n > 0) {
			memmove(&ws->w[at], &ws->w[at + 1], (size_t)(ws->n - at - 1) * sizeof(ws->w[0]));
			ws->n--;
		}
		break;
	default:    /* one more option */
		add_word(ws, fuzz_pick(f, opts, sizeof(opts) / sizeof(opts[0])));
		add_word(ws, fuzz_pick(f, edge, sizeof(edge) / sizeof(edge[0])));
		break;
	}
}

static void fuzz_one(struct fuzz *f)
{
	struct bench_plan model, got, again;
	static struct words ws, back;
	char err[200];
	int sweep = (int)fuzz_below(f, 2);
	int want = model_plan(f, &model, &ws, sweep);
	int mutated = fuzz_below(f, 2);
	if (mutated)
		for (int r = 1 + (int)fuzz_below(f, 3); r > 0; r--)
			mutate(f, &ws);
	memset(err, 'x', sizeof(err));
	int rc = bench_plan_parse(&got, sweep, ws.n, ws.w, known, NULL, err, sizeof(err));
	if (rc != 0) {
		if (!memchr(err, 0, sizeof(err)) || !err[0] || strchr(err, '\n')) {
			for (int i = 0; i < ws.n; i++)
				fprintf(stderr, "[%s] ", ws.w[i]);
			fuzz_fail(f, "refusal without a one-line message: '%.*s'", 190, err);
		}
		if (!mutated && want)
			fuzz_fail(f, "model plan of %s refused: %s", model.wl->name, err);
		return;
	}
	if (!mutated && (!want || !plans_equal(&got, &model)))
		fuzz_fail(f, "%s: parser and model disagree (model %s)", model.wl->name, want ? "accepts" : "refuses");
	check_plan(f, &got);
	render(&got, &back);
	if (bench_plan_parse(&again, sweep, back.n, back.w, known, NULL, err, sizeof(err)) ||
	    !plans_equal(&got, &again))
		fuzz_fail(f, "round trip of an accepted %s plan failed: %s", got.wl->name, err);
}

FUZZ_MAIN("bench_plan")
