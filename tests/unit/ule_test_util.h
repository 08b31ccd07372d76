/* ule_test_util.h — helpers shared by the ULE host tests: synthetic
 * topologies built with topo_build(), a fresh scheduler over them, and
 * direct control of per-CPU loads for the search tests. Include once. */
#ifndef MOSAIC_ULE_TEST_UTIL_H
#define MOSAIC_ULE_TEST_UTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "../../kernel/sched/ule.h"
#include "sched_plat_test.h"

static struct topo ut_topo;
static struct cpu_desc ut_descs[SPT_MAXCPU];

/* CPU n of a machine with `threads` per core, `cores_per_l2` cores per L2
 * and `cores_per_l3` cores per L3 (one package per L3). */
static inline void ut_desc(int n, int threads, int cores_per_l2, int cores_per_l3)
{
	struct cpu_desc *d = &ut_descs[n];
	int core = n / threads;
	memset(d, 0, sizeof(*d));
	d->apic_id = (uint32_t)n;
	d->smt_id = (uint32_t)(n % threads);
	d->core_id = (uint32_t)core;
	d->module_id = (uint32_t)(core / cores_per_l2);
	d->package_id = (uint32_t)(core / cores_per_l3);
	d->die_id = d->package_id;
	d->cache_id[0] = CPU_DESC_NO_CACHE;
	d->cache_id[1] = (uint32_t)core;
	d->cache_id[2] = (uint32_t)(core / cores_per_l2);
	d->cache_id[3] = (uint32_t)(core / cores_per_l3);
	d->core_type = CPU_CORE_UNKNOWN;
	d->smt_threads = (uint8_t)threads;
	d->source = CPU_DESC_FROM_MACHINE_FILE;
	d->hfi_row = CPU_DESC_NO_HFI_ROW;
}

/* Builds the tree for ncpu CPUs shaped as above, resets the test platform
 * and the scheduler (SMP started, CPU 0 current). */
static inline void ut_machine(int ncpu, int threads, int cores_per_l2, int cores_per_l3)
{
	for (int i = 0; i < ncpu; i++)
		ut_desc(i, threads, cores_per_l2, cores_per_l3);
	assert_int_equal(topo_build(&ut_topo, ut_descs, (unsigned)ncpu, NULL), TOPO_OK);
	spt_reset(ncpu, ut_topo.root);
	sched_init(ut_topo.root, ncpu);
	sched_start_smp();
}

/* Sets cpu's load, transferable count and lowpri directly (search tests). */
static inline void ut_set(int cpu, int load, int trans, int lowpri)
{
	struct tdq *tdq = tdq_cpu(cpu);
	tdq->tdq_load = load;
	tdq->tdq_sysload = load;
	tdq->tdq_transferable = trans;
	tdq->tdq_lowpri = lowpri;
}

static inline struct cpuset ut_all(void)
{
	struct cpuset s;
	cpuset_zero(&s);
	for (int i = 0; i < spt.ncpu; i++)
		cpuset_set(&s, (unsigned)i);
	return s;
}

static inline struct cpuset ut_only(int cpu)
{
	struct cpuset s;
	cpuset_zero(&s);
	cpuset_set(&s, (unsigned)cpu);
	return s;
}
#endif
