/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_rt.h — the runtime a benchmark workload runs on, and the only
 * thing a workload (kernel/bench/wl_*.c) may use besides the portable
 * helpers of kernel/bench and kernel/lib. Two implementations of one
 * contract:
 *   - the kernel (kernel/bench/bench_rt_kernel.c): kernel threads under
 *     the real scheduler, work(W), timers, wait queues;
 *   - the simulator (sim/): simulated threads on simulated CPUs, driven by
 *     the same kernel/sched/ code, in simulated time.
 * So the same workload source runs in both and their results compare run
 * for run (docs/bench.md).
 *
 * Threads are timeshare threads of nice 0 on every CPU unless said
 * otherwise. Every blocking call returns early once brt_stopping() is 1
 * where the description says so; workloads check brt_stopping() between
 * events and end promptly. None of these may be called with a spinlock
 * held or from an interrupt.
 */
#ifndef MOSAIC_BENCH_RT_H
#define MOSAIC_BENCH_RT_H
#include <stddef.h>
#include <stdint.h>

struct brt_thread;   /* a workload thread */
struct brt_chan;     /* a bounded FIFO of 64-bit messages */

/* ---- threads ---- */

/* Starts fn(arg) in a new thread called name (cut to 23 characters);
 * NULL if there is no memory or the runtime's thread limit is reached. */
struct brt_thread *brt_spawn(const char *name, void (*fn)(void *), void *arg);
/* Waits until t has returned from its function, fills *st (if not NULL)
 * with what the scheduler saw of it, and frees t. Once per thread. */
struct brt_thread_stats {
	uint64_t run_ns;           /* time on a CPU */
	uint64_t work_ns;          /* work done (P-core ns; = run_ns without a work clock) */
	uint64_t run_ns_type[4];   /* run_ns by core type (enum cpu_core_type) */
	uint64_t run_ns_shared;    /* run_ns while an SMT sibling was busy */
	uint64_t migrations;
	int last_cpu;
};
void brt_join(struct brt_thread *t, struct brt_thread_stats *st);

/* ---- time and work ---- */

/* Monotonic nanoseconds (guest time in the kernel, simulated time in the
 * simulator). */
uint64_t brt_now(void);
/* W ns of P-core work on the calling thread's CPU (work(W)); returns early
 * once brt_stopping() is 1. */
void brt_work(uint64_t ns);
/* The same as code of Thread Director class cls (itd_class.h, below
 * ITD_CLASS_MAX): the calling thread's code is of that class from now on
 * (brt_work() is class 0), which the machine's class-speed lines make
 * faster or slower (work_class() in the kernel, whose Thread Director
 * reports the class to the scheduler; in schedsim the sim thread's clock,
 * and the class goes to the scheduler directly). */
void brt_work_class(uint64_t ns, unsigned cls);
/* Sleeps at least ns; returns early once brt_stopping() is 1. */
void brt_sleep(uint64_t ns);
/* 1 once the run should end (the user asked, or a time limit passed). */
int brt_stopping(void);
/* A pseudo-random number from the run's seed (per thread, reproducible in
 * the simulator; any good generator in the kernel). */
uint64_t brt_random(void);

/* ---- channels ---- */

/* A channel holding up to capacity (1..4096) messages; NULL if no memory. */
struct brt_chan *brt_chan_new(unsigned capacity);
/* Appends msg, waiting while the channel is full; 0, or -1 when it is (or
 * becomes) closed or brt_stopping() is 1. */
int brt_chan_send(struct brt_chan *c, uint64_t msg);
/* Takes the oldest message, waiting while the channel is empty; 0, or -1
 * when it is closed and empty or brt_stopping() is 1. */
int brt_chan_recv(struct brt_chan *c, uint64_t *msg);
/* No more sends; every waiter wakes (receivers still get what is queued). */
void brt_chan_close(struct brt_chan *c);
/* Frees a channel no thread uses any more. */
void brt_chan_free(struct brt_chan *c);

/* ---- memory ---- */

/* Zeroed memory for the run (kcalloc / calloc: count × size checked for
 * overflow); NULL if none. brt_free(NULL) does nothing. */
void *brt_calloc(size_t count, size_t size);
void brt_free(void *p);

#endif
