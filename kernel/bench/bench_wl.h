/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_wl.h — the benchmark workloads: one interface, one registry.
 *
 * A workload (kernel/bench/wl_NAME.c, defined once) is a descriptor: its
 * name, what it models and which seed document it reproduces, the unit of
 * its main figure, its options (each a whole number with a range and a
 * default) and one function that runs it once at a thread count and
 * fills a struct bench_result. Workloads use only kernel/bench/bench_rt.h
 * (threads, work, time, channels, memory) and the portable helpers of
 * kernel/bench and kernel/lib, so the same sources run in the kernel and
 * in the simulator (docs/bench.md, "Workloads").
 *
 * Rules every workload keeps:
 *   - every option is checked here (bench_wl_set_opt()) before anything
 *     runs; run() may assume them in range and consistent (check());
 *   - it joins every thread it spawned and frees what it allocated, also
 *     when brt_stopping() ends the run early (then res->aborted = 1);
 *   - it never spins waiting for another thread: it blocks only in
 *     brt_chan_*, brt_sleep and brt_join (a simulator may run threads one
 *     at a time);
 *   - it counts its events twice in independent ways and says in
 *     res->check whether they agree (res->check_ok): messages sent against
 *     received, events summed per thread against a shared counter, ...
 *
 * Portable C, no locks (results belong to the caller).
 */
#ifndef MOSAIC_BENCH_WL_H
#define MOSAIC_BENCH_WL_H
#include <stddef.h>
#include <stdint.h>
#include <bench/bench_rt.h>

#define BENCH_WL_OPT_MAX    8     /* options of one workload */
#define BENCH_WL_THREADS_MAX 1024 /* threads a run has at once, at most (every runtime allows them) */
#define BENCH_WL_EXTRA_MAX  6     /* extra figures of one run */
#define BENCH_WL_LAT_MAX    2     /* latency sets of one run */
#define BENCH_WL_CHECK_MAX  160   /* bytes of the conservation check's text */
#define BENCH_PLACE_CPUS    256   /* CPUs whose end placement is counted */
#define BENCH_LAT_PCTS      4     /* p50, p90, p99, p99.9 */

/* Where a figure's time comes from (docs/bench.md, "Model or real time"). */
enum bench_basis {
	BENCH_BASIS_WORK = 0,   /* set by work(W): the machine model's speeds under emulation */
	BENCH_BASIS_TIME,       /* includes waiting (wake-ups, sleeps, channels): guest time */
};

/* One option, given on the command line as `--NAME VALUE`. */
struct bench_wl_opt {
	const char *name;       /* "max-prime" */
	const char *unit;       /* "s", "us", "" */
	uint64_t min, max, def; /* allowed range and default */
	const char *help;       /* one short line */
};

/* A figure besides the main one (e.g. per-thread rate, makespan). */
struct bench_wl_extra {
	const char *name;       /* "events/s per thread" */
	const char *unit;       /* "events/s" */
	int decimals;           /* the value is stored x 10^decimals */
	enum bench_basis basis;
};

/* Where a run's threads ran: the sum of what brt_join() reported. */
struct bench_place {
	unsigned nthreads;
	uint64_t run_ns, work_ns;
	uint64_t run_ns_type[4];    /* by core type (enum cpu_core_type: other, P, E, LP-E) */
	uint64_t run_ns_shared;     /* while an SMT sibling was busy */
	uint64_t migrations;
	uint16_t end_cpu[BENCH_PLACE_CPUS];   /* threads whose last CPU was this one */
	unsigned end_unknown;       /* threads whose last CPU was outside that range */
};

/* One run's result. */
struct bench_result {
	int aborted;                /* brt_stopping() ended it: not a sample */
	int64_t value;              /* the main figure x 10^decimals */
	int64_t extra[BENCH_WL_EXTRA_MAX];   /* as the descriptor's extras; BENCH_NA: none */
	int64_t lat[BENCH_WL_LAT_MAX][BENCH_LAT_PCTS];   /* ns; -1: no sample */
	int check_ok;               /* the two counts agree */
	char check[BENCH_WL_CHECK_MAX];   /* what was compared, e.g. "sent 400 = received 400" */
	struct bench_place place;
	/* Set by the platform (bench_plat.run), not the workload: */
	int64_t energy_uj;          /* energy of the machine during the run, µJ; -1: not known */
	uint64_t elapsed_ns;        /* the run's length (guest or simulated time); with energy, the span it covers */
};

struct bench_wl {
	const char *name;           /* "cpu" */
	const char *descr;          /* one line: what it models */
	const char *seed;           /* the seed document it reproduces */
	const char *unit;           /* unit of the main figure: "events/s" */
	const char *per_joule;      /* the main figure per joule ("events/J") when it is a rate per
				       second (the figure / average watts); NULL otherwise */
	int decimals;               /* 0..6 */
	int higher_is_better;
	enum bench_basis basis;     /* of the main figure */
	const char *threads_means;  /* what the thread count is: "threads", "-j jobs", ... */
	int threads_min, threads_max, threads_def;
	int nopts;
	const struct bench_wl_opt *opts;
	int nextra;
	const struct bench_wl_extra *extras;
	int nlat;
	const char *const *lat_names;   /* "wakeup", "request" */
	/* Cross-option checks of a complete option set at a thread count: 0,
	 * or -1 with a one-line reason in err. NULL: nothing to check. */
	int (*check)(const uint64_t *opt, int threads, char *err, size_t len);
	/* Runs once with opt (opt[i] for opts[i], checked) at `threads`;
	 * fills res (zeroed by the caller). */
	void (*run)(const uint64_t *opt, int threads, struct bench_result *res);
};

/* ---- registry (bench_wl.c) ---- */

/* The workloads, in the order `bench list` shows them. */
int bench_wl_count(void);
const struct bench_wl *bench_wl_at(int i);
/* The workload called name, or NULL. */
const struct bench_wl *bench_wl_find(const char *name);

/* ---- options ---- */

/* opt[i] = opts[i].def for every option. */
void bench_wl_defaults(const struct bench_wl *wl, uint64_t *opt);
/* Index of option `name` (without the leading "--"), or -1. */
int bench_wl_opt_index(const struct bench_wl *wl, const char *name);
/* Parses value into opt[index of name]: 0, or -1 with a one-line reason
 * in err naming the option, the value and the range ("--time: 0 is
 * outside 1..3600"); opt is untouched then. */
int bench_wl_set_opt(const struct bench_wl *wl, uint64_t *opt, const char *name, const char *value,
		     char *err, size_t len);
/* A thread count for wl: 0, or -1 with the reason ("--threads: 0 is
 * outside 1..256"). */
int bench_wl_check_threads(const struct bench_wl *wl, int threads, char *err, size_t len);

/* ---- helpers for workloads ---- */

/* Adds one joined thread's statistics to p. */
void bench_place_add(struct bench_place *p, const struct brt_thread_stats *st);
/* Joins t and adds it to res->place (t may be NULL: nothing). */
void bench_join(struct brt_thread *t, struct bench_result *res);
/* Writes the check text (printf-like) and sets res->check_ok = ok. */
void bench_check(struct bench_result *res, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Formats a one-line reason into err (printf-like: kernel/lib/format.c's
 * subset), for check(). */
void bench_errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a * b / c without overflow for the results' ranges (128-bit product),
 * rounded half up; 0 when c is 0. */
int64_t bench_muldiv(uint64_t a, uint64_t b, uint64_t c);

#endif
