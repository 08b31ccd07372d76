/* SPDX-License-Identifier: BSD-2-Clause */
/* ule_test_util.h — helpers shared by the ULE host tests: synthetic
 * a fresh scheduler over synthetic topologies (ut_topo.h), and direct
 * control of per-CPU loads for the search tests. Include once. */
#ifndef MOSAIC_ULE_TEST_UTIL_H
#define MOSAIC_ULE_TEST_UTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <sched/ule.h>
#include <sched/hmp.h>
#include <tests/unit/sched_plat_test.h>
#include <tests/unit/ut_topo.h>

/* Stock ULE decisions (no hybrid placement). */
static const struct search_mode ut_stock;

/* Builds the tree for ncpu CPUs shaped as in ut_topo_uniform(), resets the
 * test platform, hmp (every CPU alike) and the scheduler (SMP started, CPU
 * 0 current). */
static inline void ut_machine(int ncpu, int threads, int cores_per_l2, int cores_per_l3)
{
	ut_topo_uniform(ncpu, threads, cores_per_l2, cores_per_l3);
	spt_reset(ncpu, ut_topo.root);
	hmp_init(ncpu);
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
