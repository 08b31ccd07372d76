/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_plat.h — everything the portable scheduler (kernel/sched/) needs
 * from the platform. The ONE crossing: every function has the prefix
 * sched_plat_. The kernel implements it in kernel/thread/sched_plat.c,
 * the host tests and the simulator in tests/unit/sched_plat_test.c.
 *
 * Contract common to all: callable with interrupts disabled, from interrupt
 * handlers, and with tdq locks held; none of them may call back into
 * sched_* or take a tdq lock other than the one it is asked to.
 */
#ifndef MOSAIC_SCHED_SCHED_PLAT_H
#define MOSAIC_SCHED_SCHED_PLAT_H
#include <stddef.h>
#include <stdint.h>
#include <sched/topo.h>

/* Logical id (0..sched_plat_ncpu()-1) of the calling CPU. */
int sched_plat_cpu_self(void);

/* Number of logical CPU ids (the ones sched_init() was given cover 0..n-1). */
int sched_plat_ncpu(void);

/* 1 if cpu is started and takes ticks and IPIs, else 0. Threads are never
 * placed on a CPU that is not online. */
int sched_plat_cpu_online(int cpu);

/* The tdq lock of cpu: a spinlock, one per CPU, owned by the platform.
 * lock: spin until taken (interrupts are already off; it does not change
 * them). trylock: take it if free, 1 if taken, else 0, never spins.
 * unlock: release (only the holder). owned: 1 if the calling CPU holds it
 * (for assertions). Taking a lock the calling CPU holds is a bug (the
 * kernel panics). */
void sched_plat_tdq_lock(int cpu);
int sched_plat_tdq_trylock(int cpu);
void sched_plat_tdq_unlock(int cpu);
int sched_plat_tdq_owned(int cpu);

/* A short pause inside a spin-wait loop (x86: the PAUSE instruction); the
 * core spins only while waiting for a thread in transit between CPUs. */
void sched_plat_relax(void);

/* How many of the idle loop's spins (sched_idle() watching its CPU's load
 * before it halts, kern.sched.idlespins of them) are worth making: all of
 * them where other CPUs run meanwhile and may queue work; at most one
 * where nothing else runs until this CPU halts (one host thread: every
 * later spin would read what the first read). */
int64_t sched_plat_idle_spins(int64_t spins);

/* hmp's writer lock (kernel/sched/hmp.h): one lock for every provider's
 * update; interrupts off while held (the kernel takes it with
 * spin_lock_irqsave). Never held with a tdq lock. */
void sched_plat_hmp_lock(void);
void sched_plat_hmp_unlock(void);

/* Global tick count since boot: monotonic, the same clock on every CPU,
 * sched_plat_hz() a second of platform time (not a count of the tick
 * interrupts one CPU received, which a starved virtual CPU loses). */
uint64_t sched_plat_ticks(void);

/* Tick rate in Hz: how often sched_plat_ticks() advances and how often
 * sched_clock() is called on each CPU (ULE's hz == stathz here). Constant. */
int sched_plat_hz(void);

/* Monotonic nanoseconds since boot, comparable across CPUs. */
uint64_t sched_plat_time_ns(void);

/* Kinds of scheduler IPI (for the platform's statistics only: the
 * handler is the same). */
#define SCHED_PLAT_IPI_PREEMPT 1   /* a better thread was queued on cpu */
#define SCHED_PLAT_IPI_AST 2       /* cpu's current thread should repick its CPU */

/* Interrupt cpu (never the calling CPU); its handler calls
 * sched_ipi(cpu, current thread) and switches if that returns 1.
 * Asynchronous: returns without waiting. Wakes a halted CPU. */
void sched_plat_ipi(int cpu, int kind);

/* Idle wait of the calling CPU cpu: enable interrupts and halt in one
 * step (no wake-up may be lost between the two), return with interrupts
 * disabled again after the next interrupt. Called by sched_idle() after it
 * set the CPU's idle flag and found no load. */
void sched_plat_idle_wait(int cpu);

/* The core type of cpu (enum cpu_core_type: CPU_CORE_UNKNOWN, _P, _E,
 * _LPE), for statistics only. */
int sched_plat_cpu_core_type(int cpu);

/* A trace point of the core (sched_trace.h), called only while the
 * points are on: the platform records it (the kernel: `sched trace`) or
 * ignores it. The calling CPU, interrupts off, maybe with tdq locks held;
 * it must not take a lock or wait. */
struct sched_trace_point;
void sched_plat_trace(const struct sched_trace_point *p);

/* Root of the cpu_group tree of the CPUs the scheduler uses. */
struct cpu_group *sched_plat_topo_root(void);

/* Zeroed memory for the lifetime of the system, at boot (sched_init);
 * never freed. NULL is fatal for the caller. */
void *sched_plat_alloc(size_t size);

/* Stops the system with a message (invariant violations). Does not return. */
void sched_plat_panic(const char *msg) __attribute__((noreturn));

#endif
