/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_wl.c — the workload registry, option parsing and the helpers every
 * workload shares (see bench_wl.h). */
#include <lib/string.h>
#include <lib/parse.h>
#include <kern/printk.h>
#include <bench/bench_wl.h>
#include <bench/bench_math.h>
#include <bench/bench_stats.h>

extern const struct bench_wl bench_wl_cpu, bench_wl_make, bench_wl_pgbench, bench_wl_hackbench,
	bench_wl_schbench, bench_wl_frames, bench_wl_classmix;

static const struct bench_wl *const wl_table[] = {
	&bench_wl_cpu, &bench_wl_make, &bench_wl_pgbench, &bench_wl_hackbench, &bench_wl_schbench,
	&bench_wl_frames, &bench_wl_classmix,
};

/* See bench_wl.h. */
int bench_wl_count(void)
{
	return (int)(sizeof(wl_table) / sizeof(wl_table[0]));
}

/* See bench_wl.h. */
const struct bench_wl *bench_wl_at(int i)
{
	return i >= 0 && i < bench_wl_count() ? wl_table[i] : NULL;
}

/* See bench_wl.h. */
const struct bench_wl *bench_wl_find(const char *name)
{
	for (int i = 0; i < bench_wl_count(); i++)
		if (strcmp(wl_table[i]->name, name) == 0)
			return wl_table[i];
	return NULL;
}

/* See bench_wl.h. */
void bench_wl_defaults(const struct bench_wl *wl, uint64_t *opt)
{
	for (int i = 0; i < wl->nopts; i++)
		opt[i] = wl->opts[i].def;
}

/* See bench_wl.h. */
int bench_wl_opt_index(const struct bench_wl *wl, const char *name)
{
	for (int i = 0; i < wl->nopts; i++)
		if (strcmp(wl->opts[i].name, name) == 0)
			return i;
	return -1;
}

/* See bench_wl.h. */
int bench_wl_set_opt(const struct bench_wl *wl, uint64_t *opt, const char *name, const char *value,
		     char *err, size_t len)
{
	int i = bench_wl_opt_index(wl, name);
	if (i < 0) {
		ksnprintf(err, len, "%s: no option --%.*s", wl->name, PARSE_ECHO_MAX, name);
		return -1;
	}
	char what[40];
	ksnprintf(what, sizeof(what), "--%s", wl->opts[i].name);
	uint64_t v;
	if (parse_u64_range(value, wl->opts[i].min, wl->opts[i].max, &v, what, err, len))
		return -1;
	opt[i] = v;
	return 0;
}

/* See bench_wl.h. */
int bench_wl_check_threads(const struct bench_wl *wl, int threads, char *err, size_t len)
{
	if (threads >= wl->threads_min && threads <= wl->threads_max)
		return 0;
	ksnprintf(err, len, "--threads: %d is outside %d..%d (%s of %s)", threads, wl->threads_min,
		  wl->threads_max, wl->threads_means, wl->name);
	return -1;
}

/* See bench_wl.h. */
void bench_place_add(struct bench_place *p, const struct brt_thread_stats *st)
{
	p->nthreads++;
	p->run_ns += st->run_ns;
	p->work_ns += st->work_ns;
	for (int t = 0; t < 4; t++)
		p->run_ns_type[t] += st->run_ns_type[t];
	p->run_ns_shared += st->run_ns_shared;
	p->migrations += st->migrations;
	if (st->last_cpu >= 0 && st->last_cpu < BENCH_PLACE_CPUS)
		p->end_cpu[st->last_cpu]++;
	else
		p->end_unknown++;
}

/* See bench_wl.h. */
void bench_join(struct brt_thread *t, struct bench_result *res)
{
	struct brt_thread_stats st;
	if (!t)
		return;
	brt_join(t, &st);
	bench_place_add(&res->place, &st);
}

/* See bench_wl.h. */
void bench_check(struct bench_result *res, int ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(res->check, sizeof(res->check), fmt, ap);
	va_end(ap);
	res->check_ok = ok;
}

/* See bench_wl.h. */
void bench_errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* See bench_wl.h. */
int64_t bench_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	if (!c)
		return 0;
	return (int64_t)bench_div_round((bench_u128)a * b, c);
}
