/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_layout.c — the CPUID values a machine description implies: the
 * x2APIC ids, leaf 0x1F levels and leaf 4 sharing counts an Intel part
 * laid out as the description says would report (struct cpu_layout,
 * cpu_desc.h), for the FreeBSD-compatible tree (kernel/sched/topo_freebsd*.c).
 * The numbering is the one of the real Alder/Raptor/Meteor Lake dumps in
 * tests/data/cpuid/ (Intel SDM Vol. 2A, CPUID leaves 04H and 1FH): thread
 * bits, then core-in-module bits, then module bits, then the package; each
 * field as wide as the widest one of the machine, so a P-core takes a whole
 * module-sized block (8 ids with four 2-thread-wide E-cores per module) and
 * reports that block as its L2 sharing, as the real parts do. Portable C.
 */
#include <emul/machine_desc/machine.h>

/* Smallest k with 2^k >= n. */
static unsigned bits_for(unsigned n)
{
	unsigned k = 0;
	while ((1u << k) < n)
		k++;
	return k;
}

/* Position of CPU i's value among the distinct values of the CPUs j that
 * satisfy in(m, i, j), in ascending order; *distinct receives how many
 * there are. field(c) is the value compared. */
static unsigned rank_of(const struct machine *m, unsigned i, uint32_t (*field)(const struct machine_cpu *),
			int (*in)(const struct machine *, unsigned, unsigned), unsigned *distinct)
{
	unsigned rank = 0, n = 0;
	uint32_t v = field(&m->cpu[i]);
	for (unsigned j = 0; j < m->cpu_count; j++) {
		if (!in(m, i, j))
			continue;
		uint32_t w = field(&m->cpu[j]);
		int first = 1;   /* j is the lowest CPU with value w among those in */
		for (unsigned k = 0; k < j && first; k++)
			if (in(m, i, k) && field(&m->cpu[k]) == w)
				first = 0;
		if (!first)
			continue;
		n++;
		rank += w < v;
	}
	*distinct = n;
	return rank;
}

/* A leaf 4 sharing count for a block of 2^k ids: EAX[25:14] + 1 holds at
 * most 4096. */
static uint16_t share_count(unsigned k)
{
	return (uint16_t)(k >= 12 ? 4096 : 1u << k);
}

static uint32_t f_package(const struct machine_cpu *c) { return c->package; }
static uint32_t f_module(const struct machine_cpu *c) { return c->module; }
static uint32_t f_core(const struct machine_cpu *c) { return c->core; }

static int in_machine(const struct machine *m, unsigned i, unsigned j)
{
	(void)m;
	(void)i;
	(void)j;
	return 1;
}

static int in_package(const struct machine *m, unsigned i, unsigned j)
{
	return m->cpu[j].package == m->cpu[i].package;
}

static int in_module(const struct machine *m, unsigned i, unsigned j)
{
	return m->cpu[j].module == m->cpu[i].module;
}

/* See machine.h. */
void machine_layout(const struct machine *m, struct cpu_desc *const *desc, unsigned count)
{
	unsigned threads = 1, cores = 1, modules = 1, n;
	for (unsigned i = 0; i < count; i++) {
		if (m->cpu[i].smt_threads > threads)
			threads = m->cpu[i].smt_threads;
		rank_of(m, i, f_core, in_module, &n);
		cores = n > cores ? n : cores;
		rank_of(m, i, f_module, in_package, &n);
		modules = n > modules ? n : modules;
	}
	unsigned smt = bits_for(threads), mod = smt + bits_for(cores), pkg = mod + bits_for(modules);
	for (unsigned i = 0; i < count; i++) {
		const struct machine_cpu *c = &m->cpu[i];
		struct cpu_layout *l = &desc[i]->layout;
		uint32_t apic = rank_of(m, i, f_package, in_machine, &n) << pkg |
				rank_of(m, i, f_module, in_package, &n) << mod |
				rank_of(m, i, f_core, in_module, &n) << smt | c->thread;
		*l = (struct cpu_layout){ .apic = apic, .vendor = CPU_VENDOR_INTEL, .max_leaf = 0x1F,
					  .topo_leaf = 0x1F, .smt_shift = (uint8_t)smt,
					  .core_shift = (uint8_t)(m->cpuid_module ? mod : pkg),
					  .htt_lps = (uint8_t)(pkg >= 8 ? 255 : 1u << pkg),
					  .leaf4_cores = (uint8_t)(pkg - smt >= 6 ? 64 : 1u << (pkg - smt)) };
		l->cache_share[1] = share_count(bits_for(c->smt_threads));
		l->cache_share[2] = share_count(mod);
	}
	/* L3: the aligned block of ids holding every CPU of the LLC. */
	for (unsigned i = 0; i < count; i++) {
		uint32_t spread = 0;
		if (m->cpu[i].llc == MACHINE_NO_LLC)
			continue;
		for (unsigned j = 0; j < count; j++)
			if (m->cpu[j].llc == m->cpu[i].llc)
				spread |= desc[i]->layout.apic ^ desc[j]->layout.apic;
		unsigned k = 0;
		while (k < 32 && (spread >> k))
			k++;
		desc[i]->layout.cache_share[3] = share_count(k);
	}
}
