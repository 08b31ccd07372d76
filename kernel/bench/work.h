/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * work.h — THE primitive for CPU work: work(W) does W nanoseconds of
 * P-core work, and every benchmark and test workload uses it (docs/hfi.md,
 * "The work clock and the speed model").
 *
 * On an emulated machine (QEMU with a machine description) it computes for
 * real — a small arithmetic kernel in chunks of a few microseconds — until
 * the calling thread's work clock has advanced by W: on an E-core of speed
 * 0.54 that takes W / 0.54 of guest time, whatever host CPU QEMU got.
 * Elsewhere (real hardware, QEMU without a description, sched=off) it runs
 * the number of iterations that took W ns on the fastest core at boot
 * (work_calibrate()), so a slower core takes longer by itself.
 *
 * The work clock belongs to the thread, so preemption and migration in the
 * middle of work(W) are counted right: time off CPU adds nothing, time on
 * another CPU counts at that CPU's speed.
 */
#ifndef MOSAIC_WORK_H
#define MOSAIC_WORK_H
#include <stdint.h>

/* The most one call does: ten minutes of P-core work (the shell's longest
 * duration); more is refused. */
#define WORK_NS_MAX (600ull * 1000000000ull)

/* Do ns nanoseconds of P-core work (see above), as class-0 (scalar) code:
 * work_class(ns, ITD_SCALAR). Returns 0, or -1 without doing anything
 * when ns > WORK_NS_MAX or the boot calibration did not run. Any thread
 * context, interrupts on (it may be preempted). */
int work(uint64_t ns);
/* The same as code of Thread Director class cls (itd_class.h, below
 * ITD_CLASS_MAX; -1 beyond): on an emulated machine the calling thread's
 * code is of that class from now on (until the next work call) — its
 * clock advances at its CPU's speed for that class (the description's
 * `class-speed`, docs/machines.md) and the emulated Thread Director
 * reports it (docs/hfi.md). W stays lone-P-core scalar ns: vector work
 * of W on an E-core of class-speed 0.7 takes W / (0.54 × 0.7). Elsewhere
 * the same iterations as work(). Same context as work(). */
int work_class(uint64_t ns, unsigned cls);

/* work(ns) (class 0), then the ns of work the calling thread's work clock counted
 * meanwhile: at least ns, more when the last stretch ran past the target
 * (a vCPU the host paused mid-chunk). ns itself without a work clock; -1
 * as work() refuses. Same context as work(). */
int64_t work_counted(uint64_t ns);
/* Measure the arithmetic kernel's iterations per millisecond on the
 * fastest CPU (P before a CPU of unknown type, before E, before LP-E: the
 * core type of the machine description or CPUID) and say in the boot log
 * where and what it measured. Boot CPU, once, after thread_boot() and
 * emul_workclock_init(), interrupts on. */
void work_calibrate(void);

#endif
