/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_rt_kernel.h — what the `bench` command needs of the kernel's
 * benchmark runtime (kernel/bench/bench_rt_kernel.c) beyond the contract
 * of bench_rt.h that workloads use: starting a run, stopping it, counting
 * its threads. Kernel only; threads context.
 */
#ifndef MOSAIC_BENCH_RT_KERNEL_H
#define MOSAIC_BENCH_RT_KERNEL_H

/* A run begins: brt_stopping() is 0 again. Only while no workload thread
 * lives. */
void brt_kernel_begin(void);
/* brt_stopping() becomes 1 and every thread waiting in a channel wakes
 * (sleeps and work end within 50 ms and 1 ms of work). Any thread. */
void brt_kernel_stop(void);
/* Workload threads spawned and not yet joined. */
int brt_kernel_live(void);

#endif
