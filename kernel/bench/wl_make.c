/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_make.c — `make`: a kernel compile with make -jX, the workload of "Re:
 * HT schedulers' performance on single HT processor" (linux-kernel, 2003:
 * make -jX vmlinux on 4 physical HT Xeons, X = 1..16, times normalised to
 * the X = 1 run on one CPU).
 *
 * --jobs independent compile jobs of varied length (from --job-ms / 4 to
 * 7 x --job-ms / 4 of P-core work, drawn once from --seed, so every run
 * and every policy compiles the same set), then one serial link step of
 * --link-ms. Like make, the coordinator keeps X jobs running and starts
 * each job as a new thread when another ends (so every job is placed
 * afresh by the scheduler, as a new compiler process is).
 * Result: the makespan divided by the serial work (the time one lone
 * P-core thread would need for all jobs and the link back to back): 1.000
 * at -j1 on a P-core, like the seed's normalised table; lower is better.
 * Check: every job index comes back exactly once through the completion
 * channel, and jobs started = jobs joined.
 */
#include <bench/bench_wl.h>
#include <bench/bench_stats.h>

enum { O_JOBS, O_JOB_MS, O_LINK_MS, O_SEED, O_N };

static const struct bench_wl_opt make_opts[O_N] = {
	[O_JOBS] = { "jobs", "", 1, 4096, 60, "compile jobs" },
	[O_JOB_MS] = { "job-ms", "ms", 1, 10000, 50, "mean work of a job (P-core ms; each 1/4..7/4 of it)" },
	[O_LINK_MS] = { "link-ms", "ms", 0, 60000, 200, "work of the serial link step (P-core ms)" },
	[O_SEED] = { "seed", "", 0, 0xffffffffull, 1, "seed of the job lengths" },
};

enum { X_MAKESPAN, X_SERIAL, X_N };

static const struct bench_wl_extra make_extras[X_N] = {
	[X_MAKESPAN] = { "makespan", "ms", 1, BENCH_BASIS_WORK },
	[X_SERIAL] = { "serial work", "ms", 1, BENCH_BASIS_WORK },
};

struct make_job {
	struct brt_chan *done;
	uint64_t work_ns;
	uint64_t index;
};

/* splitmix64: the job lengths' generator. */
static uint64_t make_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* One compile job: its work, then its index to the coordinator. */
static void make_job_main(void *arg)
{
	struct make_job *j = arg;
	brt_work(j->work_ns);
	brt_chan_send(j->done, j->index);
}

/* The link step. */
static void make_link_main(void *arg)
{
	brt_work(*(const uint64_t *)arg);
}

/* See bench_wl.h. */
static void make_run(const uint64_t *opt, int threads, struct bench_result *res)
{
	uint64_t n = opt[O_JOBS], seed = opt[O_SEED], serial = 0, link = opt[O_LINK_MS] * 1000000ull;
	struct make_job *job = brt_calloc(n, sizeof(*job));
	struct brt_thread **t = brt_calloc(n, sizeof(*t));
	uint8_t *seen = brt_calloc(n, 1);
	struct brt_chan *done = brt_chan_new((unsigned)n);
	if (!job || !t || !seen || !done) {
		bench_check(res, 0, "no memory for %lu jobs", n);
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t permille = 250 + make_next(&seed) % 1501;   /* 0.25 .. 1.75 */
		job[i] = (struct make_job){ done, opt[O_JOB_MS] * 1000ull * permille, i };
		serial += job[i].work_ns;
	}
	serial += link;
	uint64_t start = brt_now(), next = 0, finished = 0, joined = 0, dup = 0;
	int running = 0, failed = 0;
	while (finished < n) {
		while (running < threads && next < n && !failed && !brt_stopping()) {
			t[next] = brt_spawn("make-job", make_job_main, &job[next]);
			if (!t[next]) {
				failed = 1;
				break;
			}
			next++;
			running++;
		}
		uint64_t idx;
		if (!running || brt_chan_recv(done, &idx) < 0)
			break;
		if (idx >= next || seen[idx]++) {
			dup++;
			continue;
		}
		bench_join(t[idx], res);
		t[idx] = NULL;
		joined++;
		running--;
		finished++;
	}
	for (uint64_t i = 0; i < next; i++) {   /* jobs of a stopped run */
		if (t[i]) {
			bench_join(t[i], res);
			joined++;
		}
	}
	if (finished == n && !brt_stopping()) {
		struct brt_thread *lt = brt_spawn("make-link", make_link_main, &link);
		failed |= !lt;
		bench_join(lt, res);
	}
	uint64_t makespan = brt_now() - start;
	res->aborted = brt_stopping();
	res->value = bench_muldiv(makespan, 1000, serial);
	res->extra[X_MAKESPAN] = bench_muldiv(makespan, 10, 1000000);
	res->extra[X_SERIAL] = bench_muldiv(serial, 10, 1000000);
	if (failed)
		bench_check(res, 0, "a job thread could not start (%lu of %lu started)", next, n);
	else
		bench_check(res, dup == 0 && joined == next && (res->aborted || finished == n),
			    "jobs %lu: started %lu, completed once %lu, joined %lu, unexpected %lu", n,
			    next, finished, joined, dup);
out:
	if (done)
		brt_chan_free(done);
	brt_free(seen);
	brt_free(t);
	brt_free(job);
}

const struct bench_wl bench_wl_make = {
	.name = "make",
	.descr = "make -jX: independent compile jobs of varied length, then a serial link",
	.seed = "the 2003 HT kernel-compile table (make -jX, normalised to one CPU)",
	.unit = "x serial",
	.decimals = 3,
	.higher_is_better = 0,
	.basis = BENCH_BASIS_WORK,
	.threads_means = "jobs in parallel (-j)",
	.threads_min = 1,
	.threads_max = 256,
	.threads_def = 4,
	.nopts = O_N,
	.opts = make_opts,
	.nextra = X_N,
	.extras = make_extras,
	.run = make_run,
};
