/* SPDX-License-Identifier: BSD-2-Clause */
/* sched_plat_mt.c — a multi-threaded host implementation of
 * kernel/sched/sched_plat.h for race tests: every CPU is a pthread (the
 * calling pthread's CPU is mt_self), tdq locks are real spinlocks with an
 * owner, IPIs set a per-CPU flag the CPU's pthread polls, and time is a
 * shared atomic tick count. To shake out interleavings on a host with
 * few cores, lock and unlock yield the host CPU now and then. Built with
 * ThreadSanitizer, so an access the locking does not order is reported
 * even when the interleaving that breaks it did not happen. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tests/unit/sched_plat_mt.h>

struct sched_plat_mt mt;
__thread int mt_self;
static __thread uint64_t mt_rand_state;

/* Yields the host CPU with probability 1/16 (per-pthread xorshift). */
static void mt_perturb(void)
{
	uint64_t x = mt_rand_state ? mt_rand_state : (uint64_t)(mt_self + 1) * 0x9E3779B97F4A7C15ull;
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	mt_rand_state = x;
	if ((x & 15) == 0)
		sched_yield();
}

void mt_reset(int ncpu, struct cpu_group *root)
{
	memset(&mt, 0, sizeof(mt));
	mt.ncpu = ncpu;
	mt.root = root;
	for (int i = 0; i < MT_MAXCPU; i++)
		mt.lock_owner[i] = -1;
	mt.ticks = 1000;
}

int sched_plat_cpu_self(void) { return mt_self; }
int sched_plat_ncpu(void) { return mt.ncpu; }
int sched_plat_cpu_online(int cpu) { return cpu >= 0 && cpu < mt.ncpu; }

void sched_plat_tdq_lock(int cpu)
{
	if (__atomic_load_n(&mt.lock_owner[cpu], __ATOMIC_RELAXED) == mt_self)
		sched_plat_panic("test: tdq lock taken twice by one CPU");
	int free_owner = -1;
	while (!__atomic_compare_exchange_n(&mt.lock_owner[cpu], &free_owner, mt_self, 0,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		free_owner = -1;
		sched_yield();
	}
	mt_perturb();
}

int sched_plat_tdq_trylock(int cpu)
{
	int free_owner = -1;
	return __atomic_compare_exchange_n(&mt.lock_owner[cpu], &free_owner, mt_self, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void sched_plat_tdq_unlock(int cpu)
{
	if (__atomic_load_n(&mt.lock_owner[cpu], __ATOMIC_RELAXED) != mt_self)
		sched_plat_panic("test: unlocking a tdq lock this CPU does not hold");
	__atomic_store_n(&mt.lock_owner[cpu], -1, __ATOMIC_RELEASE);
	mt_perturb();
}

int sched_plat_tdq_owned(int cpu)
{
	return __atomic_load_n(&mt.lock_owner[cpu], __ATOMIC_RELAXED) == mt_self;
}

void sched_plat_relax(void) { sched_yield(); }
int64_t sched_plat_idle_spins(int64_t spins) { return spins; }

static pthread_mutex_t mt_hmp_lock = PTHREAD_MUTEX_INITIALIZER;
void sched_plat_hmp_lock(void) { pthread_mutex_lock(&mt_hmp_lock); }
void sched_plat_hmp_unlock(void) { pthread_mutex_unlock(&mt_hmp_lock); }
uint64_t sched_plat_ticks(void) { return __atomic_load_n(&mt.ticks, __ATOMIC_RELAXED); }
int sched_plat_hz(void) { return 100; }
uint64_t sched_plat_time_ns(void) { return sched_plat_ticks() * 10000000ull; }

void sched_plat_ipi(int cpu, int kind)
{
	(void)kind;
	if (cpu == mt_self)
		sched_plat_panic("test: IPI to self");
	__atomic_store_n(&mt.ipi_pending[cpu], 1, __ATOMIC_RELEASE);
}

void sched_plat_idle_wait(int cpu)
{
	(void)cpu;
	sched_yield();
}

int sched_plat_cpu_core_type(int cpu) { (void)cpu; return 0; }
void sched_plat_trace(const struct sched_trace_point *p) { (void)p; }
struct cpu_group *sched_plat_topo_root(void) { return mt.root; }

void *sched_plat_alloc(size_t size)
{
	void *p = aligned_alloc(64, (size + 63) & ~(size_t)63);
	if (p)
		memset(p, 0, size);
	return p;
}

void sched_plat_panic(const char *msg)
{
	fprintf(stderr, "sched panic on CPU %d: %s\n", mt_self, msg);
	abort();
}
