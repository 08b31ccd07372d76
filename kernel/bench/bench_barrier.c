/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_barrier.c — the workloads' start barrier (see bench_barrier.h). */
#include <bench/bench_barrier.h>

/* See bench_barrier.h. */
int bench_barrier_init(struct bench_barrier *b, unsigned parties, void (*last)(void *), void *arg)
{
	*b = (struct bench_barrier){ .parties = parties, .last = last, .arg = arg };
	b->open = brt_chan_new(1);
	return b->open ? 0 : -1;
}

/* 1 when the waiters are to leave with -1. */
static int barrier_failed(struct bench_barrier *b)
{
	return __atomic_load_n(&b->cancelled, __ATOMIC_ACQUIRE) || brt_stopping();
}

/* See bench_barrier.h. The channel's lock orders last()'s writes before
 * every waiter's return. */
int bench_barrier_wait(struct bench_barrier *b)
{
	if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == b->parties) {
		if (b->last && !barrier_failed(b))
			b->last(b->arg);
		brt_chan_close(b->open);
	} else {
		uint64_t none;
		brt_chan_recv(b->open, &none);   /* nothing is ever sent: returns at the close or a stop */
	}
	return barrier_failed(b) ? -1 : 0;
}

/* See bench_barrier.h. */
void bench_barrier_cancel(struct bench_barrier *b)
{
	__atomic_store_n(&b->cancelled, 1, __ATOMIC_RELEASE);
	brt_chan_close(b->open);
}

/* See bench_barrier.h. */
void bench_barrier_free(struct bench_barrier *b)
{
	if (b->open)
		brt_chan_free(b->open);
	b->open = NULL;
}
