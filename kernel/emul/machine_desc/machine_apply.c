/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_apply.c — a parsed machine description over the per-CPU
 * descriptors that CPUID produced (QEMU emulation of hybrid parts).
 * Portable C.
 */
#include <emul/machine_desc/machine.h>
#include <kern/printk.h>
#include <lib/string.h>

/* Mismatches with the running machine; 0 when m fits desc[0..count-1]. */
static int machine_fits(const struct machine *m, struct cpu_desc *const *desc, unsigned count,
			char *err, size_t err_size)
{
	if (m->cpu_count != count) {
		ksnprintf(err, err_size, "the description has %u CPUs, this machine %u", m->cpu_count,
			  count);
		return -1;
	}
	for (unsigned i = 0; i < count; i++) {
		if (!desc[i]) {
			ksnprintf(err, err_size, "CPU %u is not online", i);
			return -1;
		}
		for (unsigned j = 0; j < i; j++)
			if (desc[j] == desc[i]) {
				ksnprintf(err, err_size, "CPUs %u and %u share one descriptor", j, i);
				return -1;
			}
	}
	return 0;
}

/* A module is named by the core id of its first CPU (cpu_desc.h). */
static uint32_t module_name(const struct machine *m, uint32_t module)
{
	unsigned i = 0;
	while (m->cpu[i].module != module)
		i++;
	return m->cpu[i].core;
}

int machine_apply(const struct machine *m, struct cpu_desc *const *desc, unsigned count,
		  char *err, size_t err_size)
{
	if (err_size)
		err[0] = 0;
	if (m->topology == MACHINE_TOPOLOGY_CPUID)
		return 0;
	if (machine_fits(m, desc, count, err, err_size))
		return -1;
	for (unsigned i = 0; i < count; i++) {
		const struct machine_cpu *c = &m->cpu[i];
		struct cpu_desc *d = desc[i];
		d->smt_id = c->thread;
		d->core_id = c->core;
		d->module_id = module_name(m, c->module);
		d->die_id = c->package;
		d->package_id = c->package;
		d->cache_id[1] = c->core;
		d->cache_id[2] = d->module_id;
		d->cache_id[3] = c->llc;
		d->core_type = c->type;
		d->smt_threads = c->smt_threads;
		d->hfi_row = c->hfi_row;
		d->source = CPU_DESC_FROM_MACHINE_FILE;
	}
	machine_layout(m, desc, count);
	return 0;
}
