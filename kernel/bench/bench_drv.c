/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_drv.c — a benchmark plan: parsing it from the command's words and
 * running it, policies alternating run by run (see bench_drv.h).
 */
#include <lib/string.h>
#include <lib/parse.h>
#include <kern/printk.h>
#include <lib/strbuf.h>
#include <bench/bench_drv.h>

#define LIST_TEXT_MAX 256   /* a --threads or --policy value, with the NUL */

/* ---- parsing ---- */

/* 1 if name is a usable policy name: 1..23 of A-Z a-z 0-9 . _ + - =. */
static int policy_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n < 1 || n >= BENCH_POLICY_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '+' || c == '-' || c == '='))
			return 0;
	}
	return 1;
}

/* Splits a copy of value at commas into at most max items; returns the
 * count, or -1 with a reason (too long, an empty item, too many). */
static int split_list(const char *what, const char *value, char *buf, char **item, int max, char *err,
		      size_t len)
{
	size_t n = strlen(value);
	if (n >= LIST_TEXT_MAX) {
		ksnprintf(err, len, "%s: the list is longer than %d characters", what, LIST_TEXT_MAX - 1);
		return -1;
	}
	memcpy(buf, value, n + 1);
	int count = 0;
	for (char *s = buf;;) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = 0;
		if (!*s) {
			ksnprintf(err, len, "%s: empty item in '%.*s'", what, PARSE_ECHO_MAX, value);
			return -1;
		}
		if (count == max) {
			ksnprintf(err, len, "%s: more than %d items in '%.*s'", what, max, PARSE_ECHO_MAX, value);
			return -1;
		}
		item[count++] = s;
		if (!comma)
			return count;
		s = comma + 1;
	}
}

/* --threads LIST into pl (the workload's range, no repeats). */
static int parse_threads(struct bench_plan *pl, const char *value, char *err, size_t len)
{
	char buf[LIST_TEXT_MAX], *item[BENCH_MAX_COLS];
	int n = split_list("--threads", value, buf, item, BENCH_MAX_COLS, err, len);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		uint64_t t;
		if (parse_u64_range(item[i], (uint64_t)pl->wl->threads_min, (uint64_t)pl->wl->threads_max,
				    &t, "--threads", err, len))
			return -1;
		for (int k = 0; k < i; k++)
			if (pl->threads[k] == (int)t) {
				ksnprintf(err, len, "--threads: %d appears twice", (int)t);
				return -1;
			}
		pl->threads[i] = (int)t;
	}
	pl->ncols = n;
	return 0;
}

/* --policy LIST into pl (known names, no repeats). */
static int parse_policies(struct bench_plan *pl, const char *value, int (*known)(void *, const char *),
			  void *arg, char *err, size_t len)
{
	char buf[LIST_TEXT_MAX], *item[BENCH_MAX_POLICIES];
	int n = split_list("--policy", value, buf, item, BENCH_MAX_POLICIES, err, len);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!policy_name_ok(item[i]) || !known(arg, item[i])) {
			ksnprintf(err, len, "--policy: no policy '%.*s' (bench policies lists them)",
				  PARSE_ECHO_MAX, item[i]);
			return -1;
		}
		for (int k = 0; k < i; k++)
			if (strcmp(pl->policy[k], item[i]) == 0) {
				ksnprintf(err, len, "--policy: %s appears twice", item[i]);
				return -1;
			}
		memcpy(pl->policy[i], item[i], strlen(item[i]) + 1);
	}
	pl->npol = n;
	return 0;
}

/* The names of wl's workloads, for a message. */
static void workload_names(char *buf, size_t len)
{
	struct strbuf sb;
	strbuf_init(&sb, buf, len);
	for (int i = 0; i < bench_wl_count(); i++)
		strbuf_printf(&sb, "%s%s", i ? ", " : "", bench_wl_at(i)->name);
}

/* One `--NAME VALUE` (or `--NAME=VALUE`) at argv[*i]; advances *i past it. */
static int parse_option(struct bench_plan *pl, int argc, char *const *argv, int *i, unsigned *seen,
			int (*known)(void *, const char *), void *arg, char *err, size_t len)
{
	const char *word = argv[*i];
	char name[40];
	const char *value;
	if (strncmp(word, "--", 2) != 0) {
		ksnprintf(err, len, "%s: '%.*s' is not an option (--NAME VALUE)", pl->wl->name,
			  PARSE_ECHO_MAX, word);
		return -1;
	}
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word - 2) : strlen(word + 2);
	if (n == 0 || n >= sizeof(name)) {
		ksnprintf(err, len, "%s: no option '%.*s'", pl->wl->name, PARSE_ECHO_MAX, word);
		return -1;
	}
	memcpy(name, word + 2, n);
	name[n] = 0;
	if (eq) {
		value = eq + 1;
	} else if (*i + 1 < argc) {
		value = argv[++*i];
	} else {
		ksnprintf(err, len, "--%s needs a value", name);
		return -1;
	}
	static const char *const own[3] = { "threads", "runs", "policy" };
	int slot = -1;
	for (int k = 0; k < 3; k++)
		if (strcmp(name, own[k]) == 0)
			slot = BENCH_WL_OPT_MAX + k;
	if (slot < 0)
		slot = bench_wl_opt_index(pl->wl, name);
	if (slot < 0) {
		char list[160];
		struct strbuf sb;
		strbuf_init(&sb, list, sizeof(list));
		for (int k = 0; k < pl->wl->nopts; k++)
			strbuf_printf(&sb, "--%s ", pl->wl->opts[k].name);
		ksnprintf(err, len, "%s: no option --%s (it has %s--threads --runs --policy)", pl->wl->name,
			  name, list);
		return -1;
	}
	if (*seen & (1u << slot)) {
		ksnprintf(err, len, "--%s is given twice", name);
		return -1;
	}
	*seen |= 1u << slot;
	(*i)++;
	if (slot == BENCH_WL_OPT_MAX)
		return parse_threads(pl, value, err, len);
	if (slot == BENCH_WL_OPT_MAX + 1) {
		uint64_t r;
		if (parse_u64_range(value, 1, BENCH_RUNS_MAX, &r, "--runs", err, len))
			return -1;
		pl->runs = (int)r;
		return 0;
	}
	if (slot == BENCH_WL_OPT_MAX + 2)
		return parse_policies(pl, value, known, arg, err, len);
	return bench_wl_set_opt(pl->wl, pl->opt, name, value, err, len);
}

/* See bench_drv.h. */
int bench_plan_parse(struct bench_plan *pl, int sweep, int argc, char *const *argv,
		     int (*known)(void *, const char *), void *arg, char *err, size_t len)
{
	memset(pl, 0, sizeof(*pl));
	if (argc < 1) {
		ksnprintf(err, len, "no workload named");
		return -1;
	}
	for (int i = 0; i < argc; i++)   /* messages echo words: keep them one line */
		for (const char *c = argv[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				ksnprintf(err, len, "word %d holds a control character (0x%02x)", i + 1,
					  (unsigned)(unsigned char)*c);
				return -1;
			}
	pl->wl = bench_wl_find(argv[0]);
	if (!pl->wl) {
		char names[128];
		workload_names(names, sizeof(names));
		ksnprintf(err, len, "no workload '%.*s' (%s)", PARSE_ECHO_MAX, argv[0], names);
		return -1;
	}
	bench_wl_defaults(pl->wl, pl->opt);
	pl->sweep = sweep;
	pl->runs = sweep ? BENCH_SWEEP_RUNS : BENCH_DEFAULT_RUNS;
	pl->ncols = 1;
	pl->threads[0] = pl->wl->threads_def;
	unsigned seen = 0;
	for (int i = 1; i < argc;)
		if (parse_option(pl, argc, argv, &i, &seen, known, arg, err, len))
			return -1;
	if (!(seen & (1u << (BENCH_WL_OPT_MAX + 2))) &&
	    parse_policies(pl, BENCH_DEFAULT_POLICIES, known, arg, err, len))
		return -1;
	if (bench_plan_total(pl) > BENCH_TOTAL_RUNS_MAX) {
		ksnprintf(err, len, "%d runs x %d thread counts x %d policies = %d runs, more than %d",
			  pl->runs, pl->ncols, pl->npol, bench_plan_total(pl), BENCH_TOTAL_RUNS_MAX);
		return -1;
	}
	for (int c = 0; c < pl->ncols; c++)
		if (pl->wl->check && pl->wl->check(pl->opt, pl->threads[c], err, len))
			return -1;
	return 0;
}

/* See bench_drv.h. */
int bench_plan_total(const struct bench_plan *pl)
{
	return pl->runs * pl->ncols * pl->npol;
}

/* See bench_drv.h. */
int bench_data_init(struct bench_data *d, const struct bench_plan *pl)
{
	memset(d, 0, sizeof(*d));
	d->total = bench_plan_total(pl);
	d->v = brt_calloc((size_t)d->total, sizeof(*d->v));
	d->rec = brt_calloc((size_t)d->total, sizeof(*d->rec));
	d->scratch = brt_calloc(1, sizeof(*d->scratch));
	if (d->v && d->rec && d->scratch)
		return 0;
	bench_data_free(d);
	return -1;
}

/* See bench_drv.h. */
void bench_data_free(struct bench_data *d)
{
	brt_free(d->v);
	brt_free(d->rec);
	brt_free(d->scratch);
	d->v = NULL;
	d->rec = NULL;
	d->scratch = NULL;
}

/* ---- helpers ---- */

/* See bench_drv.h. */
void bench_drv_run_pos(const struct bench_plan *pl, int i, int *sample, int *col, int *pol)
{
	*pol = i % pl->npol;
	*col = i / pl->npol % pl->ncols;
	*sample = i / pl->npol / pl->ncols;
}

/* See bench_drv.h. */
void bench_drv_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;
	if (s >= 3600)
		ksnprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
	else
		ksnprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

/* See bench_drv.h. */
void bench_drv_fixed(char *buf, size_t len, int64_t v, int decimals)
{
	struct strbuf sb;
	strbuf_init(&sb, buf, len);
	if (v == BENCH_NA || bench_put_fixed(&sb, v, decimals))
		ksnprintf(buf, len, "-");
}

/* ---- running ---- */

/* Share of part in whole in 0.1 % units. */
static unsigned permille(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned)bench_muldiv(part, 1000, whole) : 0;
}

/* The CPUs runs' threads ended on, "0,2,4,6" (a CPU with k threads as cpu*k). */
static void end_cpus(const struct bench_place *p, char *buf, size_t len)
{
	struct strbuf sb;
	strbuf_init(&sb, buf, len);
	int first = 1;
	for (int c = 0; c < BENCH_PLACE_CPUS; c++) {
		if (!p->end_cpu[c])
			continue;
		if (sb.len + 16 >= len) {
			strbuf_puts(&sb, ",...");
			break;
		}
		strbuf_printf(&sb, first ? "%d" : ",%d", c);
		if (p->end_cpu[c] > 1)
			strbuf_printf(&sb, "*%u", p->end_cpu[c]);
		first = 0;
	}
	if (first)
		strbuf_puts(&sb, "-");
}

/* Keeps what run i left in d->rec[i] and prints its result lines. */
static void record_run(const struct bench_plan *pl, const struct bench_plat *pf, const struct bench_out *o,
		       struct bench_data *d, int i, const struct bench_result *res, int64_t hfi)
{
	struct bench_run_rec *r = &d->rec[i];
	const struct bench_place *p = &res->place;
	int sample, col, pol;
	bench_drv_run_pos(pl, i, &sample, &col, &pol);
	r->recorded = 1;
	r->check_ok = res->check_ok;
	r->value = res->value;
	memcpy(r->extra, res->extra, sizeof(r->extra));
	memcpy(r->lat, res->lat, sizeof(r->lat));
	r->run_ns = p->run_ns;
	memcpy(r->run_ns_type, p->run_ns_type, sizeof(r->run_ns_type));
	r->run_ns_shared = p->run_ns_shared;
	r->migrations = p->migrations;
	r->hfi_updates = hfi;
	r->energy_uj = res->energy_uj;
	r->elapsed_ns = res->elapsed_ns;
	r->nthreads = p->nthreads;
	for (int c = 0; c < BENCH_PLACE_CPUS; c++)
		if (p->end_cpu[c]) {
			int t = pf->cpu_type ? pf->cpu_type(pf->arg, c) : 0;
			r->end_type[t >= 0 && t < 4 ? t : 0] += p->end_cpu[c];
		}
	char val[32], cpus[96];
	bench_drv_fixed(val, sizeof(val), res->value, pl->wl->decimals);
	bench_printf(o, "bench: run %d of %d: %s %s, %d %s: %s %s; check %s: %s\n", i + 1, d->total,
		     pl->wl->name, pl->policy[pol], pl->threads[col], pl->wl->threads_means, val,
		     pl->wl->unit, res->check_ok ? "ok" : "FAILED (not a sample)", res->check);
	uint64_t all = p->run_ns_type[0] + p->run_ns_type[1] + p->run_ns_type[2] + p->run_ns_type[3];
	uint64_t shared = p->run_ns_shared < p->run_ns_type[1] ? p->run_ns_shared : p->run_ns_type[1];
	unsigned sh[5] = { permille(p->run_ns_type[1] - shared, all), permille(shared, all),
			   permille(p->run_ns_type[2], all), permille(p->run_ns_type[3], all),
			   permille(p->run_ns_type[0], all) };
	end_cpus(p, cpus, sizeof(cpus));
	char hfis[24] = "-";
	if (hfi >= 0)
		ksnprintf(hfis, sizeof(hfis), "%ld", (long)hfi);
	bench_printf(o, "bench:   where: P %u.%u%%, P beside a busy SMT sibling %u.%u%%, E %u.%u%%, "
		     "LP-E %u.%u%%, other %u.%u%%; %lu migrations; %s HFI updates; %u threads ended on "
		     "P %u, E %u, LP-E %u, other %u (cpus %s)\n",
		     sh[0] / 10, sh[0] % 10, sh[1] / 10, sh[1] % 10, sh[2] / 10, sh[2] % 10, sh[3] / 10,
		     sh[3] % 10, sh[4] / 10, sh[4] % 10, p->migrations, hfis, p->nthreads, r->end_type[1],
		     r->end_type[2], r->end_type[3], r->end_type[0], cpus);
	bench_drv_energy_line(pl, o, r);
	if (!res->check_ok) {
		d->failed = 1;
		return;
	}
	int cell = pol * pl->ncols + col;
	d->v[(size_t)cell * (size_t)pl->runs + (size_t)d->count[cell]] = res->value;
	d->count[cell]++;
	r->taken = 1;
}

/* The progress line before run i: in the kernel with the way to stop, in
 * schedsim in simulated time. */
static void progress(const struct bench_plan *pl, const struct bench_plat *pf, const struct bench_out *o,
		     const struct bench_data *d, int i, uint64_t now)
{
	int sample, col, pol;
	bench_drv_run_pos(pl, i, &sample, &col, &pol);
	char el[16], left[24] = "unknown";
	bench_drv_duration(el, sizeof(el), now - d->start_ns);
	if (i > 0) {
		char t[16];
		bench_drv_duration(t, sizeof(t), (now - d->start_ns) / (uint64_t)i * (uint64_t)(d->total - i));
		ksnprintf(left, sizeof(left), "about %s", t);
	}
	bench_printf(o, "bench: run %d of %d: %s %s, %d %s, sample %d of %d (%selapsed %s, remaining %s%s)\n",
		     i + 1, d->total, pl->wl->name, pl->policy[pol], pl->threads[col], pl->wl->threads_means,
		     sample + 1, pl->runs, pf->simulated ? "simulated time " : "", el, left,
		     pf->simulated ? "" : "; a key stops");
}

/* See bench_drv.h. */
void bench_drv_run(const struct bench_plan *pl, const struct bench_plat *pf, const struct bench_out *o,
		   struct bench_data *d)
{
	char err[160];
	d->start_ns = brt_now();
	for (int i = 0; i < d->total && !d->stopped; i++) {
		int sample, col, pol;
		bench_drv_run_pos(pl, i, &sample, &col, &pol);
		progress(pl, pf, o, d, i, brt_now());
		if (pf->apply(pf->arg, pl->policy[pol], err, sizeof(err))) {
			bench_printf(o, "bench: policy %s: %s; stopping\n", pl->policy[pol], err);
			d->failed = 1;
			pf->restore(pf->arg, err, sizeof(err));
			break;
		}
		int64_t hfi0 = pf->hfi_updates ? pf->hfi_updates(pf->arg) : -1;
		struct bench_result *res = brt_calloc(1, sizeof(*res));
		if (!res) {
			bench_printf(o, "bench: no memory for a result; stopping\n");
			d->failed = 1;
			pf->restore(pf->arg, err, sizeof(err));
			break;
		}
		int stop = pf->run(pf->arg, pl->wl, pl->opt, pl->threads[col], res);
		int64_t hfi1 = pf->hfi_updates ? pf->hfi_updates(pf->arg) : -1;
		if (pf->restore(pf->arg, err, sizeof(err))) {
			bench_printf(o, "bench: restoring the settings after policy %s: %s; stopping\n",
				     pl->policy[pol], err);
			d->failed = 1;
			stop = 1;
		}
		if (stop || res->aborted) {
			bench_printf(o, "bench: run %d of %d stopped before its end: not a sample\n", i + 1,
				     d->total);
			d->stopped = 1;
		} else {
			record_run(pl, pf, o, d, i, res, hfi0 >= 0 && hfi1 >= 0 ? hfi1 - hfi0 : -1);
		}
		brt_free(res);
		d->done = i + 1;
	}
	d->end_ns = brt_now();
}
