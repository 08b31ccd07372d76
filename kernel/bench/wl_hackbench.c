/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl_hackbench.c — `hackbench`: groups of senders and receivers exchanging
 * messages, the first benchmark of the Linux RFC "sched/fair: Stats
 * versioning and invalidation" (2025; hackbench at 1, 2, 4, 8, 16 groups,
 * normalised time, lower is better).
 *
 * As hackbench: each group has --fds senders and --fds receivers; every
 * sender sends --loops messages to every receiver of its group (each
 * receiver has a channel holding HACK_CAP messages, its socket buffer), so
 * a group moves fds x fds x loops messages. Sending and receiving a
 * message each cost --msg-us of work. (hackbench's default is 20 fds and
 * 100 loops; the default here is 20 loops, to keep emulated runs short.)
 * It starts as hackbench starts: the main thread creates the groups one
 * after the other, each group's receivers and then its senders, one thread
 * at a time; each thread, once it runs, says it is ready (hackbench's
 * ready pipe) and waits; when all are ready the main thread starts the
 * clock and wakes them all at once (its wake-up descriptor).
 * Result: the time from that start until the last receiver has every
 * message, in seconds.
 * Check: every receiver got fds x loops messages, from each sender in
 * order and none twice, and the total equals what the senders sent.
 */
#include <bench/bench_wl.h>
#include <bench/bench_stats.h>

enum { O_FDS, O_LOOPS, O_MSG_US, O_N };

static const struct bench_wl_opt hack_opts[O_N] = {
	[O_FDS] = { "fds", "", 1, 64, 20, "senders and receivers per group" },
	[O_LOOPS] = { "loops", "", 1, 100000, 20, "messages from each sender to each receiver" },
	[O_MSG_US] = { "msg-us", "us", 0, 10000, 2, "work to send and to receive a message (P-core us)" },
};

enum { X_MESSAGES, X_N };

static const struct bench_wl_extra hack_extras[X_N] = {
	[X_MESSAGES] = { "messages", "", 0, BENCH_BASIS_TIME },
};

#define HACK_CAP 64   /* messages a receiver's channel holds */

struct hack_group;

/* The start: every thread says it is ready, then waits for the go. */
struct hack_start {
	struct brt_chan *ready;   /* one message per thread that runs */
	struct brt_chan *go;      /* closed by the main thread: every waiter wakes */
	int cancelled;            /* a thread could not start: nobody goes (atomic) */
};

struct hack_member {
	struct hack_group *g;
	unsigned id;          /* sender or receiver number in the group */
	uint64_t count;       /* messages sent or received */
	uint64_t bad;         /* receiver: out of order or from nowhere */
	uint64_t end_ns;      /* receiver: when it had the last message */
	struct brt_thread *t;
};

struct hack_group {
	struct hack_start *start;
	unsigned fds;
	uint64_t loops, msg_ns;
	struct brt_chan **chan;          /* [fds]: one per receiver */
	uint64_t *next;                  /* [fds * fds]: receiver r expects next[r * fds + s] from s */
	struct hack_member *snd, *rcv;   /* [fds] each */
};

/* A thread is ready and waits for the go: 0 to go, -1 when the run
 * does not start (a thread could not start, or a stop). */
static int hack_ready(struct hack_start *st)
{
	uint64_t none;
	if (brt_chan_send(st->ready, 0) == 0)
		brt_chan_recv(st->go, &none);   /* nothing is sent: returns at the close */
	return __atomic_load_n(&st->cancelled, __ATOMIC_ACQUIRE) || brt_stopping() ? -1 : 0;
}

/* A sender: loops rounds of one message to every receiver. */
static void hack_sender_main(void *arg)
{
	struct hack_member *m = arg;
	struct hack_group *g = m->g;
	if (hack_ready(g->start))
		return;
	for (uint64_t l = 0; l < g->loops; l++)
		for (unsigned r = 0; r < g->fds; r++) {
			brt_work(g->msg_ns);
			if (brt_chan_send(g->chan[r], (uint64_t)m->id << 32 | l) < 0)
				return;
			m->count++;
		}
}

/* A receiver: fds x loops messages, each checked for its sender's order. */
static void hack_receiver_main(void *arg)
{
	struct hack_member *m = arg;
	struct hack_group *g = m->g;
	uint64_t msg;
	if (hack_ready(g->start))
		return;
	for (uint64_t k = 0; k < (uint64_t)g->fds * g->loops; k++) {
		if (brt_chan_recv(g->chan[m->id], &msg) < 0)
			break;
		brt_work(g->msg_ns);
		uint64_t s = msg >> 32;
		if (s >= g->fds || g->next[m->id * g->fds + s] != (msg & 0xffffffffull))
			m->bad++;
		else
			g->next[m->id * g->fds + s]++;
		m->count++;
	}
	m->end_ns = brt_now();
}

/* Frees what hack_group_init() allocated. */
static void hack_group_free(struct hack_group *g)
{
	for (unsigned i = 0; g->chan && i < g->fds; i++)
		if (g->chan[i])
			brt_chan_free(g->chan[i]);
	brt_free(g->chan);
	brt_free(g->next);
	brt_free(g->snd);
	brt_free(g->rcv);
}

/* Allocates one group; 0, or -1 (partly allocated: free it). */
static int hack_group_init(struct hack_group *g, const uint64_t *opt, struct hack_start *st)
{
	g->start = st;
	g->fds = (unsigned)opt[O_FDS];
	g->loops = opt[O_LOOPS];
	g->msg_ns = opt[O_MSG_US] * 1000;
	g->chan = brt_calloc(g->fds, sizeof(*g->chan));
	g->next = brt_calloc((size_t)g->fds * g->fds, sizeof(*g->next));
	g->snd = brt_calloc(g->fds, sizeof(*g->snd));
	g->rcv = brt_calloc(g->fds, sizeof(*g->rcv));
	if (!g->chan || !g->next || !g->snd || !g->rcv)
		return -1;
	for (unsigned i = 0; i < g->fds; i++) {
		g->chan[i] = brt_chan_new(HACK_CAP);
		if (!g->chan[i])
			return -1;
		g->snd[i] = (struct hack_member){ .g = g, .id = i };
		g->rcv[i] = (struct hack_member){ .g = g, .id = i };
	}
	return 0;
}

/* See bench_wl.h: every thread of every group exists at once. */
static int hack_check(const uint64_t *opt, int groups, char *err, size_t len)
{
	uint64_t n = (uint64_t)groups * 2 * opt[O_FDS];
	if (n <= BENCH_WL_THREADS_MAX)
		return 0;
	bench_errf(err, len, "hackbench: %d groups x 2 x %lu fds = %lu threads, more than %d",
		  groups, opt[O_FDS], n, BENCH_WL_THREADS_MAX);
	return -1;
}

/* Creates g's threads one by one, its receivers first (as hackbench
 * does); the number created: all of them unless one could not start. */
static unsigned hack_group_spawn(struct hack_group *g)
{
	unsigned n = 0;
	for (unsigned i = 0; i < g->fds; i++, n++)
		if (!(g->rcv[i].t = brt_spawn("hack-recv", hack_receiver_main, &g->rcv[i])))
			return n;
	for (unsigned i = 0; i < g->fds; i++, n++)
		if (!(g->snd[i].t = brt_spawn("hack-send", hack_sender_main, &g->snd[i])))
			return n;
	return n;
}

/* See bench_wl.h. */
static void hack_run(const uint64_t *opt, int groups, struct bench_result *res)
{
	unsigned wanted = (unsigned)groups * 2 * (unsigned)opt[O_FDS], spawned = 0;
	struct hack_start st = { brt_chan_new(wanted), brt_chan_new(1), 0 };
	struct hack_group *g = brt_calloc((size_t)groups, sizeof(*g));
	int ok = g && st.ready && st.go, made = 0;
	for (; ok && made < groups; made++)
		ok = hack_group_init(&g[made], opt, &st) == 0;
	uint64_t start = brt_now(), end = 0, sent = 0, got = 0, bad = 0, short_rcv = 0;
	for (int k = 0; ok && k < groups; k++) {
		unsigned n = hack_group_spawn(&g[k]);
		spawned += n;
		ok = n == 2 * g[k].fds;
	}
	uint64_t none;
	for (unsigned i = 0; ok && i < spawned; i++)   /* stops early only at a stop */
		ok = brt_chan_recv(st.ready, &none) == 0;
	if (ok) {
		start = brt_now();
	} else {   /* nobody goes; every thread still waiting wakes */
		__atomic_store_n(&st.cancelled, 1, __ATOMIC_RELEASE);
		for (int k = 0; k < made; k++)
			for (unsigned i = 0; g[k].chan && i < g[k].fds; i++)
				if (g[k].chan[i])
					brt_chan_close(g[k].chan[i]);
	}
	if (st.go)
		brt_chan_close(st.go);
	for (int k = 0; g && k < made; k++)
		for (unsigned i = 0; g[k].snd && g[k].rcv && i < g[k].fds; i++) {
			bench_join(g[k].snd[i].t, res);
			bench_join(g[k].rcv[i].t, res);
			sent += g[k].snd[i].count;
			got += g[k].rcv[i].count;
			bad += g[k].rcv[i].bad;
			short_rcv += g[k].rcv[i].count != g[k].fds * g[k].loops;
			if (g[k].rcv[i].end_ns > end)
				end = g[k].rcv[i].end_ns;
		}
	if (end < start)
		end = start;
	res->aborted = brt_stopping();
	res->value = bench_muldiv(end - start, 1000, 1000000000ull);
	res->extra[X_MESSAGES] = (int64_t)got;
	if (spawned < wanted)
		bench_check(res, 0, "only %u of %u threads started", spawned, wanted);
	else
		bench_check(res, bad == 0 && (res->aborted || (sent == got && short_rcv == 0)),
			    "messages sent %lu = received %lu (%d groups x %lu), out of order %lu, "
			    "receivers short %lu", sent, got, groups,
			    opt[O_FDS] * opt[O_FDS] * opt[O_LOOPS], bad, short_rcv);
	for (int k = 0; g && k < made; k++)
		hack_group_free(&g[k]);
	brt_free(g);
	if (st.ready)
		brt_chan_free(st.ready);
	if (st.go)
		brt_chan_free(st.go);
}

const struct bench_wl bench_wl_hackbench = {
	.name = "hackbench",
	.descr = "hackbench: groups of senders and receivers passing messages through channels",
	.seed = "Linux RFC sched/fair stats versioning (hackbench, 1..16 groups)",
	.unit = "s",
	.decimals = 3,
	.higher_is_better = 0,
	.basis = BENCH_BASIS_TIME,
	.threads_means = "groups (2 x fds threads each)",
	.threads_min = 1,
	.threads_max = 32,
	.threads_def = 1,
	.nopts = O_N,
	.opts = hack_opts,
	.nextra = X_N,
	.extras = hack_extras,
	.check = hack_check,
	.run = hack_run,
};
