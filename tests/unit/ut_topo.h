/* SPDX-License-Identifier: BSD-2-Clause */
/* ut_topo.h — synthetic topologies for the scheduler's host tests: the
 * per-CPU descriptors of a uniform machine and the tree topo_build()
 * makes of them. Needs cmocka included first. Include once. */
#ifndef MOSAIC_UT_TOPO_H
#define MOSAIC_UT_TOPO_H
#include <string.h>
#include <sched/topo.h>

#define UT_MAXCPU 256
static struct topo ut_topo;
static struct cpu_desc ut_descs[UT_MAXCPU];

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

/* Builds ut_topo for ncpu CPUs shaped as ut_desc() describes. */
static inline void ut_topo_uniform(int ncpu, int threads, int cores_per_l2, int cores_per_l3)
{
	for (int i = 0; i < ncpu; i++)
		ut_desc(i, threads, cores_per_l2, cores_per_l3);
	assert_int_equal(topo_build(&ut_topo, ut_descs, (unsigned)ncpu, NULL), TOPO_OK);
}
#endif
