/* SPDX-License-Identifier: BSD-2-Clause */
/* ut_hybrid.h — synthetic hybrid machines for the placement tests: the
 * i7-1370P shape (six 2-thread P cores, each its own L2, and two 4-core E
 * modules under one L3) and the Core Ultra 7 155H shape (the same plus a
 * 2-CPU LP-E module outside the L3), with hmp capacities and scores as
 * the machine descriptions give them. Include after ule_test_util.h. */
#ifndef MOSAIC_UT_HYBRID_H
#define MOSAIC_UT_HYBRID_H

enum { UT_I7, UT_155H };
/* The CPUs of one core / module of the shapes. */
#define UT_I7_NCPU 20
#define UT_155H_NCPU 22

/* Descriptor of CPU n of shape kind: 0-11 P (core n/2), 12-19 E (modules
 * of 4), 20-21 LP-E (155H: own L2, no L3). */
static inline void ut_hybrid_desc(int kind, int n)
{
	struct cpu_desc *d = &ut_descs[n];
	memset(d, 0, sizeof(*d));
	d->apic_id = (uint32_t)n;
	d->source = CPU_DESC_FROM_MACHINE_FILE;
	d->hfi_row = CPU_DESC_NO_HFI_ROW;
	d->cache_id[0] = CPU_DESC_NO_CACHE;
	d->cache_id[3] = 0;
	if (n < 12) {
		d->core_type = CPU_CORE_P;
		d->core_id = (uint32_t)(n / 2);
		d->smt_id = (uint32_t)(n % 2);
		d->smt_threads = 2;
		d->module_id = d->core_id;
	} else if (n < 20) {
		d->core_type = CPU_CORE_E;
		d->core_id = (uint32_t)(n - 6);
		d->smt_threads = 1;
		d->module_id = n < 16 ? 100 : 101;
	} else {
		(void)kind;
		d->core_type = CPU_CORE_LPE;
		d->core_id = (uint32_t)(n - 6);
		d->smt_threads = 1;
		d->module_id = 102;
		d->cache_id[3] = CPU_DESC_NO_CACHE;
	}
	d->cache_id[1] = d->core_id;
	d->cache_id[2] = d->module_id;
}

/* Capacity and raw HFI perf / ee of CPU n: i7-1370P model (P 1.0, E 0.54;
 * perf 244, favoured cores 2-3 255, E 140; ee 80 / 200) or the 155H
 * (P 1.0, E 0.63, LP-E 0.42; perf 67/63, E 41, LP-E lpe_perf). */
static inline void ut_hybrid_values(int kind, int n, int lpe_perf, int *cap, int *perf, int *ee)
{
	if (kind == UT_I7) {
		*cap = n < 12 ? 1000 : 540;
		*perf = n < 12 ? (n / 2 == 2 || n / 2 == 3 ? 255 : 244) : 140;
		*ee = n < 12 ? 80 : 200;
	} else {
		*cap = n < 12 ? 1000 : n < 20 ? 630 : 420;
		*perf = n < 12 ? (n < 4 ? 67 : 63) : n < 20 ? 41 : lpe_perf;
		*ee = n < 12 ? 47 : n < 20 ? 148 : 0;
	}
}

/* Policy hmp with every switch at its default (ule_hmp.c). */
static inline void ut_hmp_defaults(void)
{
	sched_policy = SCHED_POLICY_HMP;
	hmp_sw_weight = hmp_sw_normalize = hmp_sw_smt = hmp_sw_steer = hmp_sw_random = 1;
	hmp_sw_highest_random = hmp_sw_smt_steer = 1;
	hmp_sw_best = hmp_sw_latency = hmp_upmigrate = 1;
	hmp_perf0 = HMP_PERF0_OVERFLOW;
	hmp_metric = HMP_METRIC_PERF;
	hmp_itd = 0;
	hmp_itd_swap = 1;
}

/* A booted scheduler over shape kind, hmp filled from the machine
 * provider, policy hmp, every switch at its default (on, perf0=overflow), CPU 0
 * current. */
static inline void ut_hybrid(int kind, int lpe_perf)
{
	int ncpu = kind == UT_I7 ? UT_I7_NCPU : UT_155H_NCPU;
	for (int i = 0; i < ncpu; i++)
		ut_hybrid_desc(kind, i);
	assert_int_equal(topo_build(&ut_topo, ut_descs, (unsigned)ncpu, NULL), TOPO_OK);
	spt_reset(ncpu, ut_topo.root);
	for (int i = 0; i < ncpu; i++)
		spt.core_type[i] = ut_descs[i].core_type;
	hmp_init(ncpu);
	for (int i = 0; i < ncpu; i++) {
		int cap, perf, ee;
		ut_hybrid_values(kind, i, lpe_perf, &cap, &perf, &ee);
		hmp_provide(HMP_PROV_MACHINE, i, HMP_CAPACITY | HMP_PERF | HMP_EE, cap, perf * 4, ee * 4);
	}
	hmp_publish();
	sched_init(ut_topo.root, ncpu);
	sched_start_smp();
	ut_hmp_defaults();
}
#endif
