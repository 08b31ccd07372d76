/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_pgbench.c — `pgbench`: PostgreSQL's pgbench in select-only mode, the
 * workload of "GSoC: Add SMT/HT awareness to DragonFlyBSD scheduler"
 * (DragonFly BSD, 2012: pgbench -c 2 -j 2 -S, transactions per second
 * with and without SMT-aware placement).
 *
 * It starts as pgbench against a running server starts. The server's
 * postmaster (the first thread the run creates, standing for the server
 * started beforehand) waits for connections and creates a backend thread
 * for each (PostgreSQL forks a backend per connection). pgbench's main
 * thread creates the client threads one by one; they wait until all exist,
 * then each connects (a request to the postmaster, then the new backend's
 * first answer), and they wait again until every client is connected: the
 * last to arrive starts the clock, and all begin at once (pgbench's two
 * start barriers; pgbench runs its first thread in its main thread, here
 * the main thread only waits with them).
 * A transaction: the client does --client-us of work, sends a request to
 * its backend and waits for the answer; the backend does --server-us of
 * work (the query) and answers. So every transaction is two wake-ups across
 * threads, as a query over a local socket is.
 * Result: transactions per second from the start over --time; the
 * transactions' latency percentiles (from the client's send to its receipt
 * of the answer).
 * Check: every client connected, transactions counted by the clients =
 * requests served by the backends, and every answer carried its request's
 * sequence number.
 */
#include <bench/bench_wl.h>
#include <bench/bench_barrier.h>
#include <bench/bench_hist.h>
#include <bench/bench_stats.h>

enum { O_TIME, O_CLIENT_US, O_SERVER_US, O_N };

static const struct bench_wl_opt pg_opts[O_N] = {
	[O_TIME] = { "time", "s", 1, 3600, 10, "run time (pgbench -T)" },
	[O_CLIENT_US] = { "client-us", "us", 0, 100000, 10, "client work per transaction (P-core us)" },
	[O_SERVER_US] = { "server-us", "us", 1, 100000, 40, "server work per transaction (P-core us)" },
};

enum { X_TXNS, X_N };

static const struct bench_wl_extra pg_extras[X_N] = {
	[X_TXNS] = { "transactions", "", 0, BENCH_BASIS_TIME },
};

static const char *const pg_lat_names[] = { "transaction" };

struct pg_run;

/* One client and its connection: its backend and their two channels. */
struct pg_pair {
	struct pg_run *r;
	uint64_t index;
	struct brt_chan *req, *resp;
	uint64_t client_ns, server_ns;
	int connected;        /* the client's: its backend answered */
	uint64_t txns;        /* the client's count */
	uint64_t served;      /* the backend's count */
	uint64_t mismatched;  /* answers with another sequence number */
	struct bench_hist lat;
	struct brt_thread *client, *server;
};

struct pg_run {
	struct pg_pair *p;
	struct brt_chan *listen;        /* connection requests: a client's index */
	struct bench_barrier created;   /* clients + 1 parties: every client exists */
	struct bench_barrier connected; /* clients + 1 parties: every client connected */
	uint64_t time_ns;
	uint64_t start_ns, end_ns;      /* set by the last to connect */
	unsigned refused;               /* the postmaster's: backends that could not start */
};

/* A backend: its first answer opens the connection; then it answers
 * requests until its client closes the connection. */
static void pg_server_main(void *arg)
{
	struct pg_pair *p = arg;
	uint64_t seq;
	if (brt_chan_send(p->resp, 0) < 0)
		return;
	while (brt_chan_recv(p->req, &seq) == 0) {
		brt_work(p->server_ns);
		p->served++;
		if (brt_chan_send(p->resp, seq) < 0)
			break;
	}
}

/* The postmaster: a backend for every connection request until the
 * listening channel closes; a refused one closes that connection. */
static void pg_postmaster_main(void *arg)
{
	struct pg_run *r = arg;
	uint64_t i;
	while (brt_chan_recv(r->listen, &i) == 0) {
		struct pg_pair *q = &r->p[i];
		q->server = brt_spawn("pg-server", pg_server_main, q);
		if (!q->server) {
			r->refused++;
			brt_chan_close(q->resp);
		}
	}
}

/* The last client to connect: the clock starts. */
static void pg_started(void *arg)
{
	struct pg_run *r = arg;
	r->start_ns = brt_now();
	r->end_ns = r->start_ns + r->time_ns;
}

/* A client: waits for the others, connects, waits for their connections,
 * then transactions until the end time; closes its connection. */
static void pg_client_main(void *arg)
{
	struct pg_pair *p = arg;
	struct pg_run *r = p->r;
	uint64_t hello;
	if (bench_barrier_wait(&r->created) == 0)
		p->connected = brt_chan_send(r->listen, p->index) == 0 && brt_chan_recv(p->resp, &hello) == 0;
	if (bench_barrier_wait(&r->connected) == 0 && p->connected)
		for (uint64_t seq = 1; !brt_stopping() && brt_now() < r->end_ns; seq++) {
			brt_work(p->client_ns);
			uint64_t t0 = brt_now(), ans;
			if (brt_chan_send(p->req, seq) < 0 || brt_chan_recv(p->resp, &ans) < 0)
				break;
			bench_hist_add(&p->lat, brt_now() - t0);
			p->mismatched += ans != seq;
			p->txns++;
		}
	brt_chan_close(p->req);
}

/* Frees what pg_run's set-up allocated (any part of it). */
static void pg_free(struct pg_run *r, int clients)
{
	for (int i = 0; r->p && i < clients; i++) {
		if (r->p[i].req)
			brt_chan_free(r->p[i].req);
		if (r->p[i].resp)
			brt_chan_free(r->p[i].resp);
	}
	if (r->listen)
		brt_chan_free(r->listen);
	bench_barrier_free(&r->created);
	bench_barrier_free(&r->connected);
	brt_free(r->p);
}

/* Allocates the run's channels and barriers; 0, or -1 (free it). */
static int pg_init(struct pg_run *r, const uint64_t *opt, int clients)
{
	r->time_ns = opt[O_TIME] * 1000000000ull;
	r->p = brt_calloc((size_t)clients, sizeof(*r->p));
	r->listen = brt_chan_new((unsigned)clients);
	int ok = r->p && r->listen;
	ok = bench_barrier_init(&r->created, (unsigned)clients + 1, NULL, NULL) == 0 && ok;
	ok = bench_barrier_init(&r->connected, (unsigned)clients + 1, pg_started, r) == 0 && ok;
	for (int i = 0; ok && i < clients; i++) {
		struct pg_pair *q = &r->p[i];
		*q = (struct pg_pair){ .r = r, .index = (uint64_t)i, .client_ns = opt[O_CLIENT_US] * 1000,
				       .server_ns = opt[O_SERVER_US] * 1000 };
		q->req = brt_chan_new(1);
		q->resp = brt_chan_new(1);
		ok = q->req && q->resp;
	}
	return ok ? 0 : -1;
}

/* See bench_wl.h. */
static void pg_run(const uint64_t *opt, int clients, struct bench_result *res)
{
	struct pg_run r = { 0 };
	struct bench_hist *all = brt_calloc(1, sizeof(*all));
	if (!all || pg_init(&r, opt, clients)) {
		bench_check(res, 0, "no memory for %d clients", clients);
		pg_free(&r, clients);
		brt_free(all);
		return;
	}
	uint64_t begin = brt_now();
	struct brt_thread *postmaster = brt_spawn("pg-postmaster", pg_postmaster_main, &r);
	int started = 0;
	for (; postmaster && started < clients; started++)
		if (!(r.p[started].client = brt_spawn("pg-client", pg_client_main, &r.p[started])))
			break;
	if (started == clients) {
		bench_barrier_wait(&r.created);
		bench_barrier_wait(&r.connected);
	} else {
		bench_barrier_cancel(&r.created);
		bench_barrier_cancel(&r.connected);
	}
	uint64_t txns = 0, served = 0, bad = 0;
	int connected = 0;
	for (int i = 0; i < started; i++) {
		bench_join(r.p[i].client, res);
		connected += r.p[i].connected;
	}
	if (r.listen)
		brt_chan_close(r.listen);
	bench_join(postmaster, res);
	for (int i = 0; i < clients; i++) {
		bench_join(r.p[i].server, res);
		txns += r.p[i].txns;
		served += r.p[i].served;
		bad += r.p[i].mismatched;
		bench_hist_merge(all, &r.p[i].lat);
	}
	uint64_t start = r.start_ns ? r.start_ns : begin, elapsed = brt_now() - start;
	res->aborted = brt_stopping();
	res->value = bench_muldiv(txns, 100ull * 1000000000ull, elapsed);
	res->extra[X_TXNS] = (int64_t)txns;
	bench_hist_pcts(all, res->lat[0]);
	if (!postmaster || started < clients)
		bench_check(res, 0, "only %d of %d clients started%s", started, clients,
			    postmaster ? "" : " (no postmaster)");
	else if (connected < clients && !res->aborted)
		bench_check(res, 0, "only %d of %d clients connected (%u backends refused)", connected,
			    clients, r.refused);
	else
		bench_check(res, bad == 0 && (served == txns || (res->aborted && served - txns <= (uint64_t)clients)),
			    "transactions %lu = requests served %lu, answers out of order %lu", txns,
			    served, bad);
	pg_free(&r, clients);
	brt_free(all);
}

const struct bench_wl bench_wl_pgbench = {
	.name = "pgbench",
	.descr = "pgbench -S: clients and a backend per connection, a short query per transaction",
	.seed = "DragonFly BSD GSoC 2012 SMT heuristic (pgbench -c 2 -j 2 -S tps)",
	.unit = "tps",
	.per_joule = "transactions/J",
	.decimals = 2,
	.higher_is_better = 1,
	.basis = BENCH_BASIS_TIME,
	.threads_means = "clients (each with a backend thread)",
	.threads_min = 1,
	.threads_max = 128,
	.threads_def = 2,
	.nopts = O_N,
	.opts = pg_opts,
	.nextra = X_N,
	.extras = pg_extras,
	.nlat = 1,
	.lat_names = pg_lat_names,
	.run = pg_run,
};
