/* SPDX-License-Identifier: BSD-2-Clause */
/* ut_shape.h — hybrid machines of any shape for the placement tests: P
 * cores (one or two threads, each core its own L2), E modules of any size
 * under the same L3, LP-E cores in a module of their own outside the L3;
 * per core type a capacity, an SMT share and raw HFI perf / ee. CPUs are
 * numbered P first (core by core), then the E modules, then LP-E. Include
 * after ule_test_util.h and ut_hybrid.h. */
#ifndef MOSAIC_UT_SHAPE_H
#define MOSAIC_UT_SHAPE_H

enum { UT_P, UT_E, UT_LPE, UT_TYPES };

struct ut_shape {
	int p_cores, p_threads;      /* p_threads 1 or 2 */
	int e_modules[4];            /* cores of each E module, 0 ends the list */
	int lpe;                     /* LP-E cores */
	int cap[UT_TYPES];           /* capacity (machine provider) */
	int perf[UT_TYPES], ee[UT_TYPES];   /* raw HFI bytes */
	int smt;                     /* SMT share of a P core, 0: hmp's default */
};

/* The type of CPU n of shape sh. */
static inline int ut_shape_type(const struct ut_shape *sh, int n)
{
	int p = sh->p_cores * sh->p_threads, e = 0;
	for (int m = 0; m < 4 && sh->e_modules[m]; m++)
		e += sh->e_modules[m];
	return n < p ? UT_P : n < p + e ? UT_E : UT_LPE;
}

/* Boots a scheduler over sh as ut_hybrid() does; returns the CPU count. */
static inline int ut_shape_boot(const struct ut_shape *sh)
{
	int n = 0, core = 0, module = 0;
	for (int c = 0; c < sh->p_cores; c++, core++, module++)
		for (int t = 0; t < sh->p_threads; t++, n++) {
			struct cpu_desc *d = &ut_descs[n];
			memset(d, 0, sizeof(*d));
			d->core_type = CPU_CORE_P;
			d->core_id = (uint32_t)core;
			d->smt_id = (uint32_t)t;
			d->smt_threads = (uint8_t)sh->p_threads;
			d->module_id = (uint32_t)module;
		}
	for (int m = 0; m < 4 && sh->e_modules[m]; m++, module++)
		for (int c = 0; c < sh->e_modules[m]; c++, core++, n++) {
			struct cpu_desc *d = &ut_descs[n];
			memset(d, 0, sizeof(*d));
			d->core_type = CPU_CORE_E;
			d->core_id = (uint32_t)core;
			d->smt_threads = 1;
			d->module_id = (uint32_t)module;
		}
	for (int c = 0; c < sh->lpe; c++, core++, n++) {
		struct cpu_desc *d = &ut_descs[n];
		memset(d, 0, sizeof(*d));
		d->core_type = CPU_CORE_LPE;
		d->core_id = (uint32_t)core;
		d->smt_threads = 1;
		d->module_id = (uint32_t)module;
	}
	for (int i = 0; i < n; i++) {
		struct cpu_desc *d = &ut_descs[i];
		d->apic_id = (uint32_t)i;
		d->source = CPU_DESC_FROM_MACHINE_FILE;
		d->hfi_row = CPU_DESC_NO_HFI_ROW;
		d->cache_id[0] = CPU_DESC_NO_CACHE;
		d->cache_id[1] = d->core_id;
		d->cache_id[2] = d->module_id;
		d->cache_id[3] = d->core_type == CPU_CORE_LPE ? CPU_DESC_NO_CACHE : 0;
	}
	assert_int_equal(topo_build(&ut_topo, ut_descs, (unsigned)n, NULL), TOPO_OK);
	spt_reset(n, ut_topo.root);
	for (int i = 0; i < n; i++)
		spt.core_type[i] = ut_descs[i].core_type;
	hmp_init(n);
	for (int i = 0; i < n; i++) {
		int t = ut_shape_type(sh, i);
		hmp_provide(HMP_PROV_MACHINE, i, HMP_CAPACITY | HMP_PERF | HMP_EE, sh->cap[t],
			    sh->perf[t] * 4, sh->ee[t] * 4);
		if (t == UT_P && sh->smt)
			hmp_provide_smt(HMP_PROV_MACHINE, i, sh->smt);
	}
	hmp_publish();
	sched_init(ut_topo.root, n);
	sched_start_smp();
	ut_hmp_defaults();
	return n;
}
#endif
