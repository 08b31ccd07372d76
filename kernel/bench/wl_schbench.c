/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_schbench.c — `schbench`: message threads waking worker threads that
 * do a short request each, the scheduler-latency benchmark of the Linux
 * RFC "sched/fair: Stats versioning and invalidation" (2025; schbench
 * wake-up and request latency p99 and requests per second at 1..512
 * workers).
 *
 * It starts as schbench starts: the main thread creates the message
 * threads one by one, and each message thread creates its own workers
 * one by one before its first round. The workers are dealt out to
 * --message-threads message threads (worker i to message thread
 * i mod message-threads). A round: the message thread posts one request to each of its workers
 * (noting the time), each worker wakes, does --request-us of work and
 * answers; when all have answered the message thread optionally sleeps
 * --think-us and starts the next round, until --time.
 * Result: requests per second; wake-up latency (post to the worker running)
 * and request latency (post to the request done) at p50, p90, p99, p99.9.
 * Check: requests posted = answers received = requests the workers
 * counted, and each answer came from a worker that had a request.
 */
#include <bench/bench_wl.h>
#include <bench/bench_hist.h>
#include <bench/bench_stats.h>

enum { O_TIME, O_MSG_THREADS, O_REQUEST_US, O_THINK_US, O_N };

static const struct bench_wl_opt sch_opts[O_N] = {
	[O_TIME] = { "time", "s", 1, 3600, 10, "run time" },
	[O_MSG_THREADS] = { "message-threads", "", 1, 64, 1, "message threads (schbench -m)" },
	[O_REQUEST_US] = { "request-us", "us", 0, 1000000, 100, "work of one request (P-core us)" },
	[O_THINK_US] = { "think-us", "us", 0, 1000000, 0, "message thread's sleep between rounds" },
};

enum { X_REQUESTS, X_N };

static const struct bench_wl_extra sch_extras[X_N] = {
	[X_REQUESTS] = { "requests", "", 0, BENCH_BASIS_TIME },
};

static const char *const sch_lat_names[] = { "wakeup", "request" };

struct sch_msg;

struct sch_worker {
	struct sch_msg *m;
	struct brt_chan *req;
	uint64_t post_ns;     /* written by the message thread before posting */
	uint64_t wake_ns, done_ns;   /* written by the worker before answering */
	uint64_t count;       /* requests this worker did */
	int pending;          /* message thread: a request is out */
	struct brt_thread *t;
};

struct sch_msg {
	struct brt_chan *reply;
	struct sch_worker **w;   /* its workers */
	unsigned nw;
	uint64_t end_ns, request_ns, think_ns;
	uint64_t posted, answered, unexpected;
	unsigned started;        /* its workers it created */
	const int *quit;         /* the main thread could not start them all (atomic) */
	struct bench_hist wake, req;
	struct brt_thread *t;
};

/* A worker: wakes for a request, works, answers with its index. */
static void sch_worker_main(void *arg)
{
	struct sch_worker *w = arg;
	uint64_t idx;
	while (brt_chan_recv(w->req, &idx) == 0) {
		w->wake_ns = brt_now();
		brt_work(w->m->request_ns);
		w->done_ns = brt_now();
		w->count++;
		if (brt_chan_send(w->m->reply, idx) < 0)
			break;
	}
}

/* A message thread: creates its workers, then rounds of one request per
 * worker until the end (none if a thread could not start); closes its
 * workers' channels, which ends them. */
static void sch_msg_main(void *arg)
{
	struct sch_msg *m = arg;
	for (; m->started < m->nw; m->started++)
		if (!(m->w[m->started]->t = brt_spawn("sch-worker", sch_worker_main, m->w[m->started])))
			break;
	while (m->started == m->nw && !__atomic_load_n(m->quit, __ATOMIC_ACQUIRE) && !brt_stopping() &&
	       brt_now() < m->end_ns) {
		unsigned out = 0, sent = 0;
		for (unsigned i = 0; i < m->nw; i++) {
			m->w[i]->post_ns = brt_now();
			m->w[i]->pending = 1;
			if (brt_chan_send(m->w[i]->req, i) < 0)
				break;
			sent++;
			m->posted++;
		}
		for (out = sent; out; out--) {
			uint64_t i;
			if (brt_chan_recv(m->reply, &i) < 0)
				break;
			if (i >= m->nw || !m->w[i]->pending) {
				m->unexpected++;
				continue;
			}
			struct sch_worker *w = m->w[i];
			w->pending = 0;
			bench_hist_add(&m->wake, w->wake_ns - w->post_ns);
			bench_hist_add(&m->req, w->done_ns - w->post_ns);
			m->answered++;
		}
		if (out || sent < m->nw)
			break;   /* stopped */
		if (m->think_ns)
			brt_sleep(m->think_ns);
	}
	for (unsigned i = 0; i < m->nw; i++)
		brt_chan_close(m->w[i]->req);
}

/* See bench_wl.h. */
static int sch_check(const uint64_t *opt, int workers, char *err, size_t len)
{
	if ((uint64_t)workers < opt[O_MSG_THREADS]) {
		bench_errf(err, len, "schbench: %d workers for %lu message threads: at least one each",
			  workers, opt[O_MSG_THREADS]);
		return -1;
	}
	return 0;
}

/* See bench_wl.h. */
static void sch_run(const uint64_t *opt, int workers, struct bench_result *res)
{
	unsigned nm = (unsigned)opt[O_MSG_THREADS], nwk = (unsigned)workers;
	struct sch_msg *m = brt_calloc(nm, sizeof(*m));
	struct sch_worker *w = brt_calloc(nwk, sizeof(*w));
	struct sch_worker **list = brt_calloc(nwk, sizeof(*list));
	struct bench_hist *all = brt_calloc(2, sizeof(*all));
	int ok = m && w && list && all;
	uint64_t start = brt_now();
	for (unsigned k = 0, used = 0; ok && k < nm; k++) {
		m[k].w = list + used;
		for (unsigned i = k; i < nwk; i += nm)
			m[k].w[m[k].nw++] = &w[i];
		used += m[k].nw;
		m[k].end_ns = start + opt[O_TIME] * 1000000000ull;
		m[k].request_ns = opt[O_REQUEST_US] * 1000;
		m[k].think_ns = opt[O_THINK_US] * 1000;
		m[k].reply = brt_chan_new(m[k].nw);
		ok = m[k].reply != NULL;
		for (unsigned i = 0; ok && i < m[k].nw; i++) {
			m[k].w[i]->m = &m[k];
			m[k].w[i]->req = brt_chan_new(1);
			ok = m[k].w[i]->req != NULL;
		}
	}
	unsigned started = 0;
	int quit = 0;
	for (unsigned k = 0; ok && k < nm; k++) {
		m[k].quit = &quit;
		m[k].t = brt_spawn("sch-message", sch_msg_main, &m[k]);
		ok = m[k].t != NULL;
		started += ok;
	}
	if (!ok)   /* the message threads started end at once */
		__atomic_store_n(&quit, 1, __ATOMIC_RELEASE);
	uint64_t posted = 0, answered = 0, counted = 0, unexpected = 0;
	for (unsigned k = 0; m && k < nm; k++) {
		bench_join(m[k].t, res);
		started += m[k].started;
		posted += m[k].posted;
		answered += m[k].answered;
		unexpected += m[k].unexpected;
		if (all) {
			bench_hist_merge(&all[0], &m[k].wake);
			bench_hist_merge(&all[1], &m[k].req);
		}
	}
	for (unsigned i = 0; w && i < nwk; i++) {
		bench_join(w[i].t, res);
		counted += w[i].count;
	}
	uint64_t elapsed = brt_now() - start;
	res->aborted = brt_stopping();
	res->value = bench_muldiv(answered, 100ull * 1000000000ull, elapsed);
	res->extra[X_REQUESTS] = (int64_t)answered;
	if (all) {
		bench_hist_pcts(&all[0], res->lat[0]);
		bench_hist_pcts(&all[1], res->lat[1]);
	}
	if (started < nwk + nm)
		bench_check(res, 0, "only %u of %u threads started", started, nwk + nm);
	else
		bench_check(res, unexpected == 0 && (res->aborted || (posted == answered && answered == counted)),
			    "requests posted %lu = answered %lu = done by workers %lu, unexpected %lu",
			    posted, answered, counted, unexpected);
	for (unsigned k = 0; m && k < nm; k++)
		if (m[k].reply)
			brt_chan_free(m[k].reply);
	for (unsigned i = 0; w && i < nwk; i++)
		if (w[i].req)
			brt_chan_free(w[i].req);
	brt_free(all);
	brt_free(list);
	brt_free(w);
	brt_free(m);
}

const struct bench_wl bench_wl_schbench = {
	.name = "schbench",
	.descr = "schbench: message threads wake workers for short requests; latency percentiles",
	.seed = "Linux RFC sched/fair stats versioning (schbench latency and requests/s)",
	.unit = "requests/s",
	.per_joule = "requests/J",
	.decimals = 2,
	.higher_is_better = 1,
	.basis = BENCH_BASIS_TIME,
	.threads_means = "workers",
	.threads_min = 1,
	.threads_max = 512,
	.threads_def = 4,
	.nopts = O_N,
	.opts = sch_opts,
	.nextra = X_N,
	.extras = sch_extras,
	.nlat = 2,
	.lat_names = sch_lat_names,
	.check = sch_check,
	.run = sch_run,
};
