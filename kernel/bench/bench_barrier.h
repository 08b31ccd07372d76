/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_barrier.h — a start barrier for workloads: N parties (a program's
 * main thread and the threads it created) each arrive once; all but the
 * last sleep; the last runs an optional function (a program's "all have
 * started": the start of its clock) and then wakes every other party at
 * once, as a condition variable's broadcast does. Used once per run, the
 * way sysbench and pgbench hold their threads until every one exists.
 *
 * Built on one channel of bench_rt.h that nobody sends on: waiting is a
 * receive, the release is its close. So it blocks as the runtime blocks
 * (never spins) and a stop of the run wakes it like any channel waiter.
 * Portable C, no locks of its own (an atomic count of arrivals).
 */
#ifndef MOSAIC_BENCH_BARRIER_H
#define MOSAIC_BENCH_BARRIER_H
#include <bench/bench_rt.h>

struct bench_barrier {
	struct brt_chan *open;     /* closed at the release */
	unsigned parties;
	unsigned arrived;          /* atomic */
	int cancelled;             /* atomic: a party will never come */
	void (*last)(void *arg);   /* run by the last arrival before the release, or NULL */
	void *arg;
};

/* A barrier of parties (at least 1) parties; last(arg), if not NULL, runs
 * in the last party to arrive before any party leaves. 0, or -1 without
 * memory (nothing to free then). */
int bench_barrier_init(struct bench_barrier *b, unsigned parties, void (*last)(void *), void *arg);
/* Arrives and waits until every party has arrived: 0 then; -1 when the
 * barrier was cancelled or the run is stopping (brt_stopping()), at once
 * or as soon as that happens. Once per party. */
int bench_barrier_wait(struct bench_barrier *b);
/* A party will never arrive (its thread could not start): every party
 * waiting leaves now and every later one at once, all with -1; last()
 * does not run. */
void bench_barrier_cancel(struct bench_barrier *b);
/* Frees the barrier once no party waits in it any more. */
void bench_barrier_free(struct bench_barrier *b);

#endif
