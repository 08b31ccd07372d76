/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_frames.c — `frames`: a render loop next to background load, the
 * measurement of the scx_bpfland commit "--primary-domain CPUMASK"
 * (sched-ext/scx, 2024: the WebGL aquarium on an i7-13800H under EEVDF,
 * P-cores only and E-cores only: min, max, avg fps and stdev).
 *
 * A frame is --frame-us of CPU work, then --wait-us of waiting (the GPU:
 * a sleep). The defaults come from the seed's two bpfland rows: 33.5 fps
 * on P-cores only and 25.5 fps on E-cores only, with an E-core doing 0.54
 * of a P-core's work (the i7-1370P model), give frame = 11.07 ms of work
 * and wait = 18.78 ms (11.07 + 18.78 = 29.85 ms = 1 / 33.5 fps;
 * 11.07 / 0.54 + 18.78 = 39.28 ms = 1 / 25.5 fps). The wait is a sleep
 * of the runtime, so it has the kernel's timer resolution.
 * --renderers threads render; the rest of the thread count are hogs doing
 * CPU work back to back (thread count = renderers + hogs).
 * It starts as the seed's scene does: the renderers are threads of the
 * program the main thread stands for (the browser, created first); the
 * hogs are another program's, started next: a thread the main thread
 * creates (their parent, like a load generator forking its workers)
 * creates the hogs one by one and ends.
 * Result: frames per second, from each renderer's frame count in every
 * whole second of --time: the average, min, max and sample standard
 * deviation over those counts, as the seed's table; a frame that takes
 * longer than 1 / --target-fps misses its deadline.
 * Check: the frames counted per second add up to the frames rendered.
 */
#include <bench/bench_wl.h>
#include <bench/bench_math.h>
#include <bench/bench_stats.h>

enum { O_TIME, O_FRAME_US, O_WAIT_US, O_TARGET_FPS, O_RENDERERS, O_N };

static const struct bench_wl_opt fr_opts[O_N] = {
	[O_TIME] = { "time", "s", 1, 3600, 10, "run time (one fps sample per renderer and second)" },
	[O_FRAME_US] = { "frame-us", "us", 1, 1000000, 11070, "CPU work of a frame (P-core us)" },
	[O_WAIT_US] = { "wait-us", "us", 0, 1000000, 18780, "wait after each frame's work (sleep)" },
	[O_TARGET_FPS] = { "target-fps", "fps", 1, 1000, 30, "a frame slower than 1/target misses" },
	[O_RENDERERS] = { "renderers", "", 1, 16, 1, "render threads (the others are hogs)" },
};

enum { X_MIN, X_MAX, X_STDEV, X_MISSED, X_FRAMES, X_N };

static const struct bench_wl_extra fr_extras[X_N] = {
	[X_MIN] = { "min fps", "fps", 0, BENCH_BASIS_TIME },
	[X_MAX] = { "max fps", "fps", 0, BENCH_BASIS_TIME },
	[X_STDEV] = { "stdev fps", "fps", 2, BENCH_BASIS_TIME },
	[X_MISSED] = { "missed deadlines", "frames", 0, BENCH_BASIS_TIME },
	[X_FRAMES] = { "frames", "frames", 0, BENCH_BASIS_TIME },
};

#define FR_HOG_STEP_NS 1000000ull   /* a hog's work between checks of the end */

struct fr_thread {
	uint64_t start_ns, end_ns, frame_ns, wait_ns, deadline_ns;
	uint64_t secs;
	uint32_t *per_sec;    /* renderer: frames that ended in each second */
	uint64_t frames, missed;
	struct brt_thread *t;
};

/* A renderer: frames until the end; each counted in the second it ended. */
static void fr_render_main(void *arg)
{
	struct fr_thread *f = arg;
	for (;;) {
		uint64_t t0 = brt_now();
		brt_work(f->frame_ns);
		if (f->wait_ns)
			brt_sleep(f->wait_ns);
		uint64_t t1 = brt_now();
		if (brt_stopping() || t1 >= f->end_ns)
			break;
		f->per_sec[(t1 - f->start_ns) / 1000000000ull]++;
		f->frames++;
		f->missed += t1 - t0 > f->deadline_ns;
	}
}

/* A hog: CPU work until the end. */
static void fr_hog_main(void *arg)
{
	struct fr_thread *f = arg;
	while (!brt_stopping() && brt_now() < f->end_ns)
		brt_work(FR_HOG_STEP_NS);
}

/* The hogs' program: creates them one by one (f[0..n) of its array),
 * keeps how many started, and ends. */
struct fr_hogs {
	struct fr_thread *f;
	unsigned n, started;
};

/* The hogs' parent (see struct fr_hogs). */
static void fr_hogs_main(void *arg)
{
	struct fr_hogs *h = arg;
	for (; h->started < h->n; h->started++)
		if (!(h->f[h->started].t = brt_spawn("frames-hog", fr_hog_main, &h->f[h->started])))
			break;
}

/* See bench_wl.h. */
static int fr_check(const uint64_t *opt, int threads, char *err, size_t len)
{
	if ((uint64_t)threads >= opt[O_RENDERERS])
		return 0;
	bench_errf(err, len, "frames: %d threads for %lu renderers: threads = renderers + hogs",
		  threads, opt[O_RENDERERS]);
	return -1;
}

/* Min, max, mean (x100) and sample standard deviation (x100) of n counts. */
static void fr_stats(const uint32_t *v, uint64_t n, struct bench_result *res)
{
	uint64_t sum = 0, min = UINT64_MAX, max = 0;
	bench_u128 sq = 0;
	for (uint64_t i = 0; i < n; i++) {
		sum += v[i];
		sq += (bench_u128)v[i] * v[i];
		min = v[i] < min ? v[i] : min;
		max = v[i] > max ? v[i] : max;
	}
	res->value = bench_muldiv(sum, 100, n);
	res->extra[X_MIN] = (int64_t)min;
	res->extra[X_MAX] = (int64_t)max;
	res->extra[X_STDEV] = BENCH_NA;
	if (n >= 2) {   /* sqrt((n sum x^2 - (sum x)^2) / (n (n-1))) x 100 */
		bench_u128 s = (bench_u128)n * sq - (bench_u128)sum * sum;
		res->extra[X_STDEV] = (int64_t)bench_isqrt(bench_divmod(s * 10000, (bench_u128)n * (n - 1), NULL));
	}
}

/* See bench_wl.h. */
static void fr_run(const uint64_t *opt, int threads, struct bench_result *res)
{
	unsigned nr = (unsigned)opt[O_RENDERERS], n = (unsigned)threads;
	uint64_t secs = opt[O_TIME];
	struct fr_thread *f = brt_calloc(n, sizeof(*f));
	uint32_t *counts = brt_calloc(nr * secs, sizeof(*counts));
	if (!f || !counts) {
		bench_check(res, 0, "no memory for %u threads", n);
		brt_free(counts);
		brt_free(f);
		return;
	}
	uint64_t start = brt_now();
	for (unsigned i = 0; i < n; i++)
		f[i] = (struct fr_thread){ .start_ns = start, .end_ns = start + secs * 1000000000ull,
					   .frame_ns = opt[O_FRAME_US] * 1000, .wait_ns = opt[O_WAIT_US] * 1000,
					   .deadline_ns = 1000000000ull / opt[O_TARGET_FPS], .secs = secs,
					   .per_sec = i < nr ? counts + i * secs : NULL };
	unsigned started = 0;
	for (; started < nr; started++)
		if (!(f[started].t = brt_spawn("frames-render", fr_render_main, &f[started])))
			break;
	struct fr_hogs hogs = { f + nr, n - nr, 0 };
	int no_parent = 0;
	if (started == nr && hogs.n) {
		struct brt_thread *parent = brt_spawn("frames-hogs", fr_hogs_main, &hogs);
		no_parent = !parent;
		bench_join(parent, res);   /* it ends once it has created the hogs */
		started += hogs.started;
	}
	uint64_t frames = 0, missed = 0, per_sec_sum = 0;
	for (unsigned i = 0; i < started; i++) {
		bench_join(f[i].t, res);
		frames += f[i].frames;
		missed += f[i].missed;
	}
	for (uint64_t i = 0; i < nr * secs; i++)
		per_sec_sum += counts[i];
	res->aborted = brt_stopping();
	fr_stats(counts, nr * secs, res);
	res->extra[X_MISSED] = (int64_t)missed;
	res->extra[X_FRAMES] = (int64_t)frames;
	if (started < n)   /* the started ones ran to the end time */
		bench_check(res, 0, "only %u of %u threads started%s", started, n,
			    no_parent ? " (the hogs' parent did not start)" : "");
	else
		bench_check(res, per_sec_sum == frames && missed <= frames,
			    "frames %lu = sum of %lu per-second counts %lu, missed %lu", frames,
			    nr * secs, per_sec_sum, missed);
	brt_free(counts);
	brt_free(f);
}

const struct bench_wl bench_wl_frames = {
	.name = "frames",
	.descr = "a render loop (work, then a wait) next to CPU hogs; fps and missed deadlines",
	.seed = "scx_bpfland --primary-domain commit (WebGL aquarium fps, P-only vs E-only)",
	.unit = "fps",
	.per_joule = "frames/J",
	.decimals = 2,
	.higher_is_better = 1,
	.basis = BENCH_BASIS_TIME,
	.threads_means = "threads (renderers + hogs)",
	.threads_min = 1,
	.threads_max = 256,
	.threads_def = 1,
	.nopts = O_N,
	.opts = fr_opts,
	.nextra = X_N,
	.extras = fr_extras,
	.check = fr_check,
	.run = fr_run,
};
