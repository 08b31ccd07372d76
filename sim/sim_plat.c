/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_plat.c — kernel/sched/sched_plat.h for the simulator: the calling
 * CPU is the one whose code the engine runs now, time is simulated time,
 * the tick rate is the run's, IPIs become events after the IPI latency,
 * and the idle wait hands the idle loop's coroutine back to the engine
 * until the next interrupt of that CPU. One host thread: locks are
 * checked flags (taking a held one is a bug and stops the simulator).
 */
#include <stdlib.h>
#include <string.h>
#include <sim/sim.h>
#include <sched/sched_plat.h>

/* sched_plat_alloc() memory, rewound for every run (the scheduler's
 * storage lives for one run; a 256-CPU machine needs about 2 MiB). */
static _Alignas(64) unsigned char arena[8u << 20];
static size_t arena_used;

/* See sim.h. */
void sim_plat_reset(void)
{
	arena_used = 0;
	for (int c = 0; c < MACHINE_MAX_CPUS; c++)
		sim.cpu[c].locked = 0;
	sim.hmp_locked = 0;
}

/* See sched_plat.h: the CPU whose code the engine runs now. */
int sched_plat_cpu_self(void)
{
	return sim.self;
}

/* See sched_plat.h: the machine's CPUs. */
int sched_plat_ncpu(void)
{
	return sim.ncpu;
}

/* See sched_plat.h: every CPU of the machine is online. */
int sched_plat_cpu_online(int cpu)
{
	return cpu >= 0 && cpu < sim.ncpu;
}

/* See sched_plat.h: a checked flag: taking a held lock stops the simulator. */
void sched_plat_tdq_lock(int cpu)
{
	if (sim.cpu[cpu].locked)
		sim_fatal("tdq lock of cpu %d taken twice (cpu %d)", cpu, sim.self);
	sim.cpu[cpu].locked = 1;
}

/* See sched_plat.h: takes the flag if free. */
int sched_plat_tdq_trylock(int cpu)
{
	if (sim.cpu[cpu].locked)
		return 0;
	sim.cpu[cpu].locked = 1;
	return 1;
}

/* See sched_plat.h: releasing a free lock stops the simulator. */
void sched_plat_tdq_unlock(int cpu)
{
	if (!sim.cpu[cpu].locked)
		sim_fatal("tdq lock of cpu %d released while free (cpu %d)", cpu, sim.self);
	sim.cpu[cpu].locked = 0;
	sim_watch_dirty(cpu);
}

/* See sched_plat.h: the flag (one host thread: held means held by the caller). */
int sched_plat_tdq_owned(int cpu)
{
	return sim.cpu[cpu].locked;
}

/* The core spins only on a thread in transit between CPUs; in one host
 * thread a transit always ends before anyone else runs, so a spin that
 * goes on is a bug. */
void sched_plat_relax(void)
{
	static uint64_t spins;
	if (++spins > 1000000)
		sim_fatal("the scheduler spins on a thread in transit (cpu %d)", sim.self);
}

/* See sched_plat.h: at most one. One host thread: no thread runs and no
 * event happens while an idle loop spins, so its CPU's load stays what
 * the first spin read. */
int64_t sched_plat_idle_spins(int64_t spins)
{
	return spins < 1 ? spins : 1;
}

/* See sched_plat.h: hmp's writer lock, a checked flag. */
void sched_plat_hmp_lock(void)
{
	if (sim.hmp_locked)
		sim_fatal("hmp lock taken twice");
	sim.hmp_locked = 1;
}

/* See sched_plat.h: releases it. */
void sched_plat_hmp_unlock(void)
{
	if (!sim.hmp_locked)
		sim_fatal("hmp lock released while free");
	sim.hmp_locked = 0;
}

/* See sched_plat.h: CPU 0's ticks since the simulated boot. */
uint64_t sched_plat_ticks(void)
{
	return sim.ticks;
}

/* See sched_plat.h: the run's tick rate. */
int sched_plat_hz(void)
{
	return sim.cfg->hz;
}

/* See sched_plat.h: simulated ns since the simulated boot. */
uint64_t sched_plat_time_ns(void)
{
	return sim.now;
}

/* The IPI arrives after the configured latency. */
void sched_plat_ipi(int cpu, int kind)
{
	(void)kind;
	if (cpu == sim.self)
		sim_fatal("scheduler IPI from cpu %d to itself", cpu);
	sim_push(sim.now + sim.cfg->ipi_ns, SIM_EV_IPI, cpu, NULL);
}

/* Only the idle loop of cpu halts; it resumes after cpu's next tick or
 * IPI (sim_engine.c). */
void sched_plat_idle_wait(int cpu)
{
	if (sim.cur_idle != cpu)
		sim_fatal("idle wait of cpu %d outside its idle loop", cpu);
	struct sim_cpu *c = &sim.cpu[cpu];
	c->idle_req = SIM_REQ_HALT;
	sim_ctx_switch(&c->idle_ctx, &sim.main_ctx);
}

/* See sched_plat.h: the core type of the machine description's cpu line. */
int sched_plat_cpu_core_type(int cpu)
{
	return sim.m->cpu[cpu].type;
}

/* See sched_plat.h: schedsim keeps no trace of the core's points (its
 * --trace records placement segments itself); they are never switched on. */
void sched_plat_trace(const struct sched_trace_point *p)
{
	(void)p;
}

/* See sched_plat.h: never used: sim_run passes the root to sched_init. */
struct cpu_group *sched_plat_topo_root(void)
{
	sim_fatal("sched_plat_topo_root: the simulator passes its root to sched_init");
}

/* See sched_plat.h: zeroed memory from the run's arena (NULL when it is full). */
void *sched_plat_alloc(size_t size)
{
	size = (size + 63) & ~(size_t)63;
	if (size > sizeof(arena) - arena_used)
		return NULL;
	void *p = arena + arena_used;
	arena_used += size;
	memset(p, 0, size);
	return p;
}

/* See sched_plat.h: stops the simulator with the message, the CPU and the time. */
void sched_plat_panic(const char *msg)
{
	sim_fatal("scheduler panic on cpu %d at %llu ns: %s", sim.self, (unsigned long long)sim.now, msg);
}
