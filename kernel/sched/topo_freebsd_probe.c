/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_freebsd_probe.c — FreeBSD's x86 topology probe on one CPU's CPUID
 * values (struct cpu_layout): the APIC-id shifts of the package, the
 * caches and the core, as sys/x86/x86/mp_x86.c computes them on the boot
 * CPU only (topo_probe, topo_probe_intel_0xb, topo_probe_intel_0x4,
 * topo_probe_intel_caches, add_deterministic_cache, topo_probe_amd).
 * Written from those functions' documented behaviour; the facts it relies
 * on are in docs/topology.md. Portable: no platform calls.
 *
 * The points that make FreeBSD's tree differ from ours: of leaf 0x1F only
 * the SMT and core levels count, the core level's shift becoming the
 * package shift (Meteor Lake: 3, where the module level starts); each cache
 * level's sharing count is rounded up to a power of two and capped at that
 * package shift; and the boot CPU's values stand for every CPU.
 */
#include <sched/topo_freebsd.h>
#include <sched/topo_str.h>

/* FreeBSD's mask_width(): log2 of x rounded up to a power of two; -1 for 0. */
static int mask_width(uint32_t x)
{
	if (x == 0)
		return -1;
	int k = 0;
	while (k < 32 && (1ull << k) < x)
		k++;
	return k;
}

/* One cache level from its sharing count, with add_deterministic_cache's
 * bounds: at most the package, at least the core. */
static void add_cache(struct topo_fbsd *p, int level, uint32_t share)
{
	int s = mask_width(share);
	p->cache_share[level] = (uint16_t)share;
	if (s > p->pkg_shift) {
		s = p->pkg_shift;
		p->capped |= (uint8_t)(1u << level);
	}
	if (s < p->core_shift) {
		s = p->core_shift;
		p->raised |= (uint8_t)(1u << level);
	}
	p->cache_shift[level] = (int8_t)s;
	p->caches |= (uint8_t)(1u << level);
}

/* Every level with a sharing count in l (leaf 4 or 0x8000001D). */
static void add_caches(struct topo_fbsd *p, const struct cpu_layout *l)
{
	for (int level = 1; level <= 3; level++)
		if (l->cache_share[level])
			add_cache(p, level, l->cache_share[level]);
}

/* A cache layer at shift s set without a sharing count. */
static void set_cache(struct topo_fbsd *p, int level, int s)
{
	p->cache_shift[level] = (int8_t)s;
	p->caches |= (uint8_t)(1u << level);
}

/* Sets err to "<a><n><b>" (n decimal, maybe negative) and returns -1. */
static int refuse(char *err, size_t len, const char *a, int n, const char *b)
{
	struct topo_str m;
	topo_str_init(&m, err, len);
	topo_str_add(&m, a);
	if (n < 0)
		topo_str_add(&m, "-");
	topo_str_num(&m, (uint64_t)(n < 0 ? -n : n), 10);
	topo_str_add(&m, b);
	return -1;
}

/* topo_probe_intel_0xb / topo_probe_intel_0x4, then the caches. */
static int probe_intel(struct topo_fbsd *p, const struct cpu_layout *l, char *err, size_t len)
{
	if (l->max_leaf >= 0x0B && l->topo_leaf) {
		p->path = TOPO_FBSD_LEAF;
		p->leaf = l->topo_leaf;
		p->core_shift = (int8_t)l->smt_shift;
		p->pkg_shift = (int8_t)l->core_shift;
		if (p->pkg_shift < p->core_shift)
			p->core_shift = p->pkg_shift;   /* "core covers more APIC IDs than a package" */
	} else if (l->max_leaf >= 1 && l->htt_lps > 1) {
		p->path = TOPO_FBSD_LEGACY;
		int per_core = l->htt_lps / l->leaf4_cores;
		if (per_core == 0)
			return refuse(err, len, "FreeBSD's topo_probe_intel_0x4 asserts: leaf 4 counts ",
				      l->leaf4_cores, " cores, more than leaf 1's logical CPUs");
		p->core_shift = (int8_t)mask_width((uint32_t)per_core);
		p->pkg_shift = (int8_t)(p->core_shift + mask_width(l->leaf4_cores));
	}
	if (l->max_leaf < 4) {
		/* No leaf 4: L1 and L2 assumed shared by the package's threads. */
		set_cache(p, 1, p->pkg_shift);
		set_cache(p, 2, p->pkg_shift);
		return 0;
	}
	add_caches(p, l);
	return 0;
}

/* topo_probe_amd. */
static int probe_amd(struct topo_fbsd *p, const struct cpu_layout *l, char *err, size_t len)
{
	if (!(l->amd_flags & CPU_LAYOUT_AMD_CMP))
		return 0;
	p->path = TOPO_FBSD_AMD;
	p->pkg_shift = (int8_t)((l->amd_size >> 12) & 0xF);
	if (p->pkg_shift == 0)
		p->pkg_shift = (int8_t)mask_width((l->amd_size & 0xFFu) + 1);
	int node_bits = mask_width(l->amd_nodes_m1 + 1u);
	if (l->amd_flags & CPU_LAYOUT_AMD_TOPOEXT) {
		/* Family 0x16 on: threads per core and nodes from 0x8000001E (the
		 * layout holds zeros before, which give the same shifts). */
		p->core_shift = (int8_t)mask_width(l->amd_threads_m1 + 1u);
		p->node_shift = (int8_t)(p->pkg_shift - node_bits);
		if (p->node_shift < 0)
			return refuse(err, len, "FreeBSD's topo_probe_amd: more nodes than the package has APIC id bits (node shift ",
				      p->node_shift, ")");
		if (p->node_shift == p->pkg_shift)
			p->node_shift = 0;          /* one node: no layer */
		add_caches(p, l);
		return 0;
	}
	if (l->amd_flags & CPU_LAYOUT_AMD_L1)
		set_cache(p, 1, 0);
	if (l->amd_flags & CPU_LAYOUT_AMD_L2)
		set_cache(p, 2, 0);
	if (l->amd_flags & CPU_LAYOUT_AMD_L3)
		set_cache(p, 3, p->pkg_shift - node_bits);   /* one L3 per node */
	return 0;
}

/* topo_probe's assertions on the shifts: a core within its package, every
 * cache between the core and the package (and within a node). */
static int check_shifts(const struct topo_fbsd *p, char *err, size_t len)
{
	if (p->pkg_shift < p->core_shift)
		return refuse(err, len, "FreeBSD's topo_probe asserts: the core (shift ", p->core_shift,
			      ") is wider than the package");
	for (int level = 1; level <= 3; level++) {
		int s = p->cache_shift[level];
		if ((p->caches >> level & 1) &&
		    (s > p->pkg_shift || s < p->core_shift || (p->node_shift && s > p->node_shift)))
			return refuse(err, len, "FreeBSD's topo_probe asserts: the L", level,
				      " cache's APIC id shift lies outside its core, node or package");
	}
	return 0;
}

/* See topo_freebsd.h. */
int topo_fbsd_probe(struct topo_fbsd *p, const struct cpu_layout *l, int ncpus, char *err,
		    size_t len)
{
	int16_t boot = p->boot_cpu;
	*p = (struct topo_fbsd){ .boot_cpu = boot };
	if (len)
		err[0] = 0;
	if (ncpus <= 1)
		return 0;           /* topo_probe does nothing for one CPU */
	int rc = 0;
	if (l->vendor == CPU_VENDOR_AMD)
		rc = probe_amd(p, l, err, len);
	else if (l->vendor == CPU_VENDOR_INTEL)
		rc = probe_intel(p, l, err, len);
	return rc ? rc : check_shifts(p, err, len);
}
