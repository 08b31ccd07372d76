/* SPDX-License-Identifier: BSD-2-Clause */
/* sched_plat_test.c — host implementation of kernel/sched/sched_plat.h:
 * a single-threaded machine whose "current CPU", time and online set the
 * test sets in spt; locks are checked flags (taking a held lock or
 * releasing a free one fails the test via panic). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tests/unit/sched_plat_test.h>

struct sched_plat_test spt;

/* sched_plat_alloc() arena, rewound by spt_reset() (a test machine lives
 * until the next reset, so nothing leaks). */
static _Alignas(64) unsigned char arena[4 << 20];
static size_t arena_used;

void spt_reset(int ncpu, struct cpu_group *root)
{
	memset(&spt, 0, sizeof(spt));
	arena_used = 0;
	spt.ncpu = ncpu;
	spt.hz = 100;
	spt.ticks = 1000;
	spt.ns = 1000ull * 10000000ull;
	spt.root = root;
	for (int i = 0; i < ncpu; i++)
		spt.online[i] = 1;
}

void spt_advance(uint64_t n)
{
	spt.ticks += n;
	spt.ns += n * (1000000000ull / (uint64_t)spt.hz);
}

int sched_plat_cpu_self(void) { return spt.self; }
int sched_plat_ncpu(void) { return spt.ncpu; }
int sched_plat_cpu_online(int cpu) { return cpu >= 0 && cpu < spt.ncpu && spt.online[cpu]; }

void sched_plat_tdq_lock(int cpu)
{
	if (spt.locked[cpu])
		sched_plat_panic("test: tdq lock taken twice");
	spt.locked[cpu] = 1;
}

int sched_plat_tdq_trylock(int cpu)
{
	if (spt.locked[cpu])
		return 0;
	spt.locked[cpu] = 1;
	return 1;
}

void sched_plat_tdq_unlock(int cpu)
{
	if (!spt.locked[cpu])
		sched_plat_panic("test: unlocking a free tdq lock");
	spt.locked[cpu] = 0;
}

int sched_plat_tdq_owned(int cpu) { return spt.locked[cpu]; }
void sched_plat_relax(void) {}
/* One thread: nothing queues work while the idle loop spins. */
int64_t sched_plat_idle_spins(int64_t spins) { return spins < 1 ? spins : 1; }

void sched_plat_hmp_lock(void)
{
	if (spt.hmp_locked)
		sched_plat_panic("test: hmp lock taken twice");
	spt.hmp_locked = 1;
}

void sched_plat_hmp_unlock(void)
{
	if (!spt.hmp_locked)
		sched_plat_panic("test: unlocking a free hmp lock");
	spt.hmp_locked = 0;
}
uint64_t sched_plat_ticks(void) { return spt.ticks; }
int sched_plat_hz(void) { return spt.hz; }
uint64_t sched_plat_time_ns(void) { return spt.ns; }

void sched_plat_ipi(int cpu, int kind)
{
	(void)kind;
	if (cpu == spt.self)
		sched_plat_panic("test: IPI to self");
	spt.ipis[cpu]++;
}

void sched_plat_idle_wait(int cpu)
{
	(void)cpu;
	spt.idle_waits++;
	if (!spt.idle_wait_keeps_time)
		spt_advance(1);
}

int sched_plat_cpu_core_type(int cpu) { return spt.core_type[cpu]; }
void sched_plat_trace(const struct sched_trace_point *p)
{
	if (spt.trace)
		spt.trace(p);
}
struct cpu_group *sched_plat_topo_root(void) { return spt.root; }

void *sched_plat_alloc(size_t size)
{
	size = (size + 63) & ~(size_t)63;
	if (arena_used + size > sizeof(arena))
		return NULL;
	void *p = arena + arena_used;
	arena_used += size;
	memset(p, 0, size);
	return p;
}

void sched_plat_panic(const char *msg)
{
	fprintf(stderr, "sched panic: %s\n", msg);
	abort();
}
