/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_rt_host.h — kernel/bench/bench_rt.h on the host, for the unit
 * tests of the workloads and the driver: POSIX threads, the C library's
 * monotonic clock, pthread mutexes and condition variables. brt_work(W)
 * spins for W / BRT_HOST_WORK_DIV of real time (so a workload's seconds of
 * work take milliseconds here) and counts W as work done.
 */
#ifndef MOSAIC_BENCH_RT_HOST_H
#define MOSAIC_BENCH_RT_HOST_H
#include <bench/bench_rt.h>

#define BRT_HOST_WORK_DIV 256

/* brt_stopping() becomes 0 (a run begins). */
void brt_host_begin(void);
/* brt_stopping() becomes 1 and every channel waiter wakes. Any thread. */
void brt_host_stop(void);
/* Threads spawned and not joined. */
int brt_host_live(void);
/* Channels created and not freed. */
int brt_host_channels(void);
/* Bytes brt_calloc handed out and brt_free has not taken back. */
long brt_host_bytes(void);

#endif
