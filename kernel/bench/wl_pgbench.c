/*
 * wl_pgbench.c — `pgbench`: PostgreSQL's pgbench in select-only mode, the
 * workload of "GSoC: Add SMT/HT awareness to DragonFlyBSD scheduler"
 * (DragonFly BSD, 2012: pgbench -c 2 -j 2 -S, transactions per second
 * with and without SMT-aware placement).
 *
 * Each client has its own server thread (a PostgreSQL backend per
 * connection). A transaction: the client does --client-us of work, sends
 * a request to its server and waits for the answer; the server does
 * --server-us of work (the query) and answers. So every transaction is two
 * wake-ups across threads, as a query over a local socket is.
 * Result: transactions per second over --time; the transactions' latency
 * percentiles (from the client's send to its receipt of the answer).
 * Check: transactions counted by the clients = requests served by the
 * servers, and every answer carried its request's sequence number.
 */
#include "bench_wl.h"
#include "bench_hist.h"
#include "bench_stats.h"

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

struct pg_pair {
	struct brt_chan *req, *resp;
	uint64_t end_ns, client_ns, server_ns;
	uint64_t txns;        /* the client's count */
	uint64_t served;      /* the server's count */
	uint64_t mismatched;  /* answers with another sequence number */
	struct bench_hist lat;
	struct brt_thread *client, *server;
};

/* A backend: answers requests until its client closes the connection. */
static void pg_server_main(void *arg)
{
	struct pg_pair *p = arg;
	uint64_t seq;
	while (brt_chan_recv(p->req, &seq) == 0) {
		brt_work(p->server_ns);
		p->served++;
		if (brt_chan_send(p->resp, seq) < 0)
			break;
	}
}

/* A client: transactions until the end time, then closes its connection. */
static void pg_client_main(void *arg)
{
	struct pg_pair *p = arg;
	for (uint64_t seq = 1; !brt_stopping() && brt_now() < p->end_ns; seq++) {
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

/* See bench_wl.h. */
static void pg_run(const uint64_t *opt, int clients, struct bench_result *res)
{
	struct pg_pair *p = brt_calloc((size_t)clients, sizeof(*p));
	if (!p) {
		bench_check(res, 0, "no memory for %d clients", clients);
		return;
	}
	int ok = 1, started = 0;
	for (int i = 0; i < clients && ok; i++) {
		p[i].req = brt_chan_new(1);
		p[i].resp = brt_chan_new(1);
		ok = p[i].req && p[i].resp;
	}
	uint64_t start = brt_now();
	for (; started < clients && ok; started++) {
		struct pg_pair *q = &p[started];
		q->end_ns = start + opt[O_TIME] * 1000000000ull;
		q->client_ns = opt[O_CLIENT_US] * 1000;
		q->server_ns = opt[O_SERVER_US] * 1000;
		q->server = brt_spawn("pg-server", pg_server_main, q);
		q->client = q->server ? brt_spawn("pg-client", pg_client_main, q) : NULL;
		if (!q->client) {
			if (q->req)
				brt_chan_close(q->req);
			bench_join(q->server, res);
			ok = 0;
			break;
		}
	}
	uint64_t txns = 0, served = 0, bad = 0;
	struct bench_hist *all = brt_calloc(1, sizeof(*all));
	for (int i = 0; i < started; i++) {
		bench_join(p[i].client, res);
		bench_join(p[i].server, res);
		txns += p[i].txns;
		served += p[i].served;
		bad += p[i].mismatched;
		if (all)
			bench_hist_merge(all, &p[i].lat);
	}
	uint64_t elapsed = brt_now() - start;
	res->aborted = brt_stopping();
	res->value = bench_muldiv(txns, 100ull * 1000000000ull, elapsed);
	res->extra[X_TXNS] = (int64_t)txns;
	if (all)
		bench_hist_pcts(all, res->lat[0]);
	if (!ok || !all)
		bench_check(res, 0, "only %d of %d clients started", started, clients);
	else
		bench_check(res, bad == 0 && (served == txns || (res->aborted && served - txns <= (uint64_t)clients)),
			    "transactions %lu = requests served %lu, answers out of order %lu", txns,
			    served, bad);
	for (int i = 0; i < clients; i++) {
		if (p[i].req)
			brt_chan_free(p[i].req);
		if (p[i].resp)
			brt_chan_free(p[i].resp);
	}
	brt_free(all);
	brt_free(p);
}

const struct bench_wl bench_wl_pgbench = {
	.name = "pgbench",
	.descr = "pgbench -S: clients and their server threads, a short query per transaction",
	.seed = "DragonFly BSD GSoC 2012 SMT heuristic (pgbench -c 2 -j 2 -S tps)",
	.unit = "tps",
	.decimals = 2,
	.higher_is_better = 1,
	.basis = BENCH_BASIS_TIME,
	.threads_means = "clients (each with a server thread)",
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
