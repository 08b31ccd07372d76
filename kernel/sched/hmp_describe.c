/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hmp_describe.c — the two hmp providers that read what each CPU says of
 * itself in its descriptor (cpu_desc.h): core-type defaults (CPUID 0x1A)
 * and HWP highest performance (IA32_HWP_CAPABILITIES, Intel SDM vol. 3,
 * "Hardware-Controlled Performance States"). Portable, so the derivations
 * are host-tested; the kernel calls it from hmp_sources_init().
 */
#include <sched/hmp.h>
#include <sched/topo_str.h>
#include <sched/hmp_describe.h>

/* Capacity of a core type when nothing better is known, scaled so a
 * P-core is 1024: rounded from the HWP-derived capacities Linux reports
 * on Raptor Lake (E 596) and Meteor Lake (E 648, LP-E 426). */
static const int coretype_capacity[] = {
	[CPU_CORE_UNKNOWN] = 0, [CPU_CORE_P] = 1024, [CPU_CORE_E] = 600, [CPU_CORE_LPE] = 420,
};

/* Core-type defaults: only when every CPU has a type and not all are P. */
static void provide_coretype(unsigned n, hmp_desc_fn desc_of)
{
	unsigned count[4] = { 0 };
	for (unsigned c = 0; c < n; c++) {
		const struct cpu_desc *d = desc_of(c);
		count[d ? d->core_type & 3 : CPU_CORE_UNKNOWN]++;
	}
	if (count[CPU_CORE_UNKNOWN] || count[CPU_CORE_P] == n || count[CPU_CORE_P] == 0) {
		hmp_set_status(HMP_PROV_CORETYPE, 0,
			       count[CPU_CORE_UNKNOWN] ? "not hybrid: no core types (CPUID 0x1A)"
						       : "one core type only: nothing to tell apart");
		return;
	}
	for (unsigned c = 0; c < n; c++)
		hmp_provide(HMP_PROV_CORETYPE, (int)c, HMP_CAPACITY, coretype_capacity[desc_of(c)->core_type & 3],
			    0, 0);
	char why[128];
	struct topo_str w;
	topo_str_init(&w, why, sizeof(why));
	topo_str_num(&w, count[CPU_CORE_P], 10);
	topo_str_add(&w, " P, ");
	topo_str_num(&w, count[CPU_CORE_E], 10);
	topo_str_add(&w, " E, ");
	topo_str_num(&w, count[CPU_CORE_LPE], 10);
	topo_str_add(&w, " LP-E: defaults 1024 / 600 / 420");
	hmp_set_status(HMP_PROV_CORETYPE, 1, why);
}

/* HWP highest performance, when every CPU reported one: capacity
 * 1024 × hint / highest hint, rounded. */
static void provide_hwp(unsigned n, hmp_desc_fn desc_of)
{
	unsigned top = 0;
	for (unsigned c = 0; c < n; c++) {
		const struct cpu_desc *d = desc_of(c);
		if (!d || !d->perf_hint) {
			char why[128];
			struct topo_str w;
			topo_str_init(&w, why, sizeof(why));
			topo_str_add(&w, "not supported: no HWP highest performance on CPU ");
			topo_str_num(&w, c, 10);
			topo_str_add(&w, " (CPUID.06H:EAX[7])");
			hmp_set_status(HMP_PROV_HWP, 0, why);
			return;
		}
		top = d->perf_hint > top ? d->perf_hint : top;
	}
	for (unsigned c = 0; c < n; c++)
		hmp_provide(HMP_PROV_HWP, (int)c, HMP_CAPACITY,
			    (int)((desc_of(c)->perf_hint * HMP_CAPACITY_MAX + top / 2) / top), 0, 0);
	char why[128];
	struct topo_str w;
	topo_str_init(&w, why, sizeof(why));
	topo_str_add(&w, "IA32_HWP_CAPABILITIES highest performance, top ");
	topo_str_num(&w, top, 10);
	hmp_set_status(HMP_PROV_HWP, 1, why);
}

/* See hmp_describe.h. */
void hmp_describe_cpus(unsigned n, hmp_desc_fn desc_of)
{
	provide_coretype(n, desc_of);
	provide_hwp(n, desc_of);
}
