/* SPDX-License-Identifier: BSD-2-Clause */
/* machine_hmp.c — an emulated machine's description as an hmp provider
 * (kernel/sched/hmp.h, HMP_PROV_MACHINE), shared by the kernel and the
 * simulator: each CPU's capacity from its core type's speed (the fastest
 * 1024), its initial scores from its HFI row (every Thread Director
 * class the description gives, `hfi-classes`), and the SMT share of a
 * core type with several threads from its smt-throughput (what a second
 * thread adds, as a share of one alone). Portable; does not publish. */
#include <emul/machine_desc/machine.h>
#include <sched/hmp.h>

/* See machine.h. */
void machine_hmp_provide(const struct machine *m, unsigned n)
{
	unsigned top = 1;
	for (unsigned c = 0; c < n; c++)
		top = m->speed[m->cpu[c].type] > top ? m->speed[m->cpu[c].type] : top;
	for (unsigned c = 0; c < n; c++) {
		const struct machine_cpu *mc = &m->cpu[c];
		unsigned speed = m->speed[mc->type] ? m->speed[mc->type] : top;
		unsigned smt = m->smt_throughput[mc->type];
		hmp_provide(HMP_PROV_MACHINE, (int)c, HMP_CAPACITY,
			    (int)((speed * HMP_CAPACITY_MAX + top / 2) / top), 0, 0);
		if (mc->hfi_row >= 0 && m->hfi[mc->hfi_row].set) {
			const struct machine_hfi_row *row = &m->hfi[mc->hfi_row];
			hmp_provide(HMP_PROV_MACHINE, (int)c, HMP_PERF | HMP_EE, 0, row->perf << 2,
				    row->ee << 2);
			for (unsigned k = 1; k < m->hfi_classes && k < ITD_CLASS_MAX; k++)
				hmp_provide_class(HMP_PROV_MACHINE, (int)c, k, row->cls[k].perf << 2,
						  row->cls[k].ee << 2);
		}
		if (smt > speed)
			hmp_provide_smt(HMP_PROV_MACHINE, (int)c,
					(int)(((smt - speed) * HMP_SMT_MAX + speed / 2) / speed));
	}
}
