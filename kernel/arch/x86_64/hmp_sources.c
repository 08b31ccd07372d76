/*
 * hmp_sources.c — the boot-time hmp providers that describe what each CPU
 * is: core-type defaults (CPUID 0x1A, or the machine description's core
 * types), HWP highest performance (IA32_HWP_CAPABILITIES, read into each
 * descriptor at enumeration), and the machine description (speeds and
 * initial HFI values of an emulated machine). The HFI driver and the
 * manual sysctls push their own values later (kernel/sched/hmp.h).
 */
#include <printk.h>
#include <smp.h>
#include <emul/machine_platform.h>
#include "../../sched/hmp.h"
#include "hmp_sources.h"

/* Capacity of a core type when nothing better is known, scaled so a
 * P-core is 1024: rounded from the HWP-derived capacities Linux reports
 * on Raptor Lake (E 596) and Meteor Lake (E 648, LP-E 426). */
static const int coretype_capacity[] = {
	[CPU_CORE_UNKNOWN] = 0, [CPU_CORE_P] = 1024, [CPU_CORE_E] = 600, [CPU_CORE_LPE] = 420,
};

/* Core-type defaults: only when CPUs of different types exist. */
static void provide_coretype(unsigned n)
{
	unsigned count[4] = { 0 };
	for (unsigned c = 0; c < n; c++)
		count[smp_cpu_desc(c)->core_type & 3]++;
	if (count[CPU_CORE_UNKNOWN] || (count[CPU_CORE_P] == n) || count[CPU_CORE_P] == 0) {
		hmp_set_status(HMP_PROV_CORETYPE, 0,
			       count[CPU_CORE_UNKNOWN] ? "not hybrid: no core types (CPUID 0x1A)"
						       : "one core type only: nothing to tell apart");
		return;
	}
	for (unsigned c = 0; c < n; c++)
		hmp_provide(HMP_PROV_CORETYPE, (int)c, HMP_CAPACITY,
			    coretype_capacity[smp_cpu_desc(c)->core_type & 3], 0, 0);
	char why[128];
	ksnprintf(why, sizeof(why), "%u P, %u E, %u LP-E: defaults 1024 / 600 / 420", count[CPU_CORE_P],
		  count[CPU_CORE_E], count[CPU_CORE_LPE]);
	hmp_set_status(HMP_PROV_CORETYPE, 1, why);
}

/* HWP highest performance, when every CPU reported one. */
static void provide_hwp(unsigned n)
{
	unsigned top = 0;
	for (unsigned c = 0; c < n; c++) {
		unsigned h = smp_cpu_desc(c)->perf_hint;
		if (!h) {
			char why[128];
			ksnprintf(why, sizeof(why), "not supported: no HWP highest performance on CPU %u "
				  "(CPUID.06H:EAX[7])", c);
			hmp_set_status(HMP_PROV_HWP, 0, why);
			return;
		}
		top = h > top ? h : top;
	}
	for (unsigned c = 0; c < n; c++)
		hmp_provide(HMP_PROV_HWP, (int)c, HMP_CAPACITY,
			    (int)((smp_cpu_desc(c)->perf_hint * HMP_CAPACITY_MAX + top / 2) / top), 0, 0);
	char why[128];
	ksnprintf(why, sizeof(why), "IA32_HWP_CAPABILITIES highest performance, top %u", top);
	hmp_set_status(HMP_PROV_HWP, 1, why);
}

/* An emulated machine: capacity from the speed of each CPU's core type,
 * scores from the initial values of its HFI row. */
static void provide_machine(unsigned n)
{
	const struct machine *m = machine_platform_machine();
	if (!m) {
		hmp_set_status(HMP_PROV_MACHINE, 0, "no machine description (real hardware or plain QEMU)");
		return;
	}
	unsigned top = 1;
	for (unsigned c = 0; c < n; c++)
		top = m->speed[m->cpu[c].type] > top ? m->speed[m->cpu[c].type] : top;
	for (unsigned c = 0; c < n; c++) {
		const struct machine_cpu *mc = &m->cpu[c];
		unsigned speed = m->speed[mc->type] ? m->speed[mc->type] : top;
		hmp_provide(HMP_PROV_MACHINE, (int)c, HMP_CAPACITY,
			    (int)((speed * HMP_CAPACITY_MAX + top / 2) / top),
			    0, 0);
		if (mc->hfi_row >= 0 && m->hfi[mc->hfi_row].set)
			hmp_provide(HMP_PROV_MACHINE, (int)c, HMP_PERF | HMP_EE, 0,
				    m->hfi[mc->hfi_row].perf << 2, m->hfi[mc->hfi_row].ee << 2);
	}
	char why[128];
	ksnprintf(why, sizeof(why), "%s: capacity from speeds%s", m->model,
		  m->hfi_rows ? ", initial scores from its HFI rows" : "");
	hmp_set_status(HMP_PROV_MACHINE, 1, why);
}

/* See hmp_sources.h. */
void hmp_sources_init(void)
{
	unsigned n = smp_cpu_count();
	hmp_init((int)n);
	hmp_set_status(HMP_PROV_MANUAL, 0, "none set (sysctl kern.hmp.cpu.N.capacity|perf|eff)");
	provide_coretype(n);
	provide_hwp(n);
	provide_machine(n);
	hmp_publish();
	printk("hmp: %u CPUs; capacity of CPU 0 %d, of CPU %u %d\n", n, hmp_capacity(0), n - 1,
	       hmp_capacity((int)n - 1));
}
