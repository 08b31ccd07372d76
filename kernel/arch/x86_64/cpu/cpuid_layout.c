/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuid_layout.c — the CPUID values FreeBSD's x86 topology probe reads
 * (struct cpu_layout, cpu_desc.h), taken raw from one CPU. FreeBSD's rules
 * for them live in kernel/sched/topo_freebsd_probe.c; this file only reads
 * the leaves those rules need, in the order FreeBSD reads them (the Intel
 * SDM Vol. 2A, CPUID leaves 01H, 04H, 0BH, 1FH; AMD's CPUID specification,
 * leaves 8000_0001H, 8000_0005H/6H/8H, 8000_001DH/1EH).
 *
 * Portable C: the values come through the decoder's callback. A leaf above
 * the maximum (basic or extended) is never read and counts as zeros.
 */
#include <arch/x86_64/cpu/cpuid_decode.h>

#define LAYOUT_MAX_SUBLEAVES 16     /* FreeBSD walks until type 0; real parts stop within 8 */
#define MSR_AMD_NB_CFG_NODE 0xC001100Cu

struct layout_reader {
	const struct cpuid_source *src;
	struct cpu_desc *d;
	uint32_t max_ext;
};

/* CPUID(leaf, sub) into r, zeros above the maximum or when the source
 * lacks it (then the decoder's LEAF_MISSING note). */
static void lay_leaf(struct layout_reader *x, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	r[0] = r[1] = r[2] = r[3] = 0;
	if (leaf < 0x80000000u ? leaf > x->d->layout.max_leaf : leaf > x->max_ext)
		return;
	if (x->src->get(x->src->ctx, leaf, sub, r) != 0) {
		r[0] = r[1] = r[2] = r[3] = 0;
		x->d->notes |= CPU_DESC_NOTE_LEAF_MISSING;
	}
}

/* The topology leaf FreeBSD picks (topo_probe_intel_0xb): 0x1F if its
 * sub-leaf 0 has EBX != 0, else 0x0B likewise; then the shifts of its SMT
 * and core levels (the last sub-leaf of each type wins). */
static void lay_topo_leaf(struct layout_reader *x)
{
	struct cpu_layout *l = &x->d->layout;
	uint32_t r[4] = { 0, 0, 0, 0 };
	uint32_t leaf = 0x1F;
	if (l->max_leaf < 0x0B)
		return;
	lay_leaf(x, leaf, 0, r);
	if (r[1] == 0) {
		leaf = 0x0B;
		lay_leaf(x, leaf, 0, r);
	}
	if (r[1] == 0)
		return;
	l->topo_leaf = (uint8_t)leaf;
	for (uint32_t sl = 0; sl < LAYOUT_MAX_SUBLEAVES; sl++) {
		lay_leaf(x, leaf, sl, r);
		unsigned type = (r[2] >> 8) & 0xFF;
		if (type == 0)
			break;
		if (type == 1)
			l->smt_shift = (uint8_t)(r[0] & 0x1F);
		else if (type == 2)
			l->core_shift = (uint8_t)(r[0] & 0x1F);
	}
}

/* Without a topology leaf FreeBSD counts from leaves 1 and 4
 * (topo_probe_intel_0x4). */
static void lay_legacy(struct layout_reader *x)
{
	struct cpu_layout *l = &x->d->layout;
	uint32_t r[4];
	lay_leaf(x, 1, 0, r);
	l->htt_lps = (r[3] & (1u << 28)) ? (uint8_t)(r[1] >> 16) : 1;
	lay_leaf(x, 4, 0, r);
	l->leaf4_cores = (uint8_t)((r[0] >> 26) + 1);
}

/* Leaf 4 (Intel) or 0x8000001D (AMD): the sharing count of the last data or
 * unified cache of each level 1..3, as add_deterministic_cache keeps it. */
static void lay_caches(struct layout_reader *x, uint32_t leaf)
{
	struct cpu_layout *l = &x->d->layout;
	uint32_t r[4];
	for (uint32_t sl = 0; sl < LAYOUT_MAX_SUBLEAVES; sl++) {
		lay_leaf(x, leaf, sl, r);
		unsigned type = r[0] & 0x1F, level = (r[0] >> 5) & 0x7;
		if (type == 0)
			break;
		if (type == 2 || type > 3 || level == 0 || level > 3)
			continue;
		l->cache_share[level] = (uint16_t)(((r[0] >> 14) & 0xFFF) + 1);
	}
}

/* What topo_probe_amd reads: multi-core flag, core id bits, threads per
 * core and nodes (TOPOEXT, family 0x16 on), and the caches from
 * 0x8000001D or, without TOPOEXT, which of L1/L2/L3 exist (with the nodes
 * of MSR 0xC001100C for the L3). */
static void lay_amd(struct layout_reader *x, uint32_t family)
{
	struct cpu_layout *l = &x->d->layout;
	uint32_t r[4];
	x->max_ext = 0x80000000u;   /* leaf 0x80000000 itself always exists on AMD */
	lay_leaf(x, 0x80000000u, 0, r);
	x->max_ext = r[0] >= 0x80000000u && r[0] < 0x80000100u ? r[0] : 0;
	lay_leaf(x, 0x80000001u, 0, r);
	l->amd_flags = (uint8_t)(((r[2] >> 1) & 1 ? CPU_LAYOUT_AMD_CMP : 0) |
				 ((r[2] >> 22) & 1 ? CPU_LAYOUT_AMD_TOPOEXT : 0) |
				 ((r[2] >> 19) & 1 ? CPU_LAYOUT_AMD_NODEID : 0));
	if (!(l->amd_flags & CPU_LAYOUT_AMD_CMP))
		return;
	lay_leaf(x, 0x80000008u, 0, r);
	l->amd_size = (uint16_t)r[2];
	if (l->amd_flags & CPU_LAYOUT_AMD_TOPOEXT) {
		if (family >= 0x16) {
			lay_leaf(x, 0x8000001Eu, 0, r);
			l->amd_threads_m1 = (uint8_t)(r[1] >> 8);
			l->amd_nodes_m1 = (uint8_t)((r[2] >> 8) & 7);
		}
		lay_caches(x, 0x8000001Du);
		return;
	}
	lay_leaf(x, 0x80000005u, 0, r);
	if (r[2] >> 24)
		l->amd_flags |= CPU_LAYOUT_AMD_L1;
	lay_leaf(x, 0x80000006u, 0, r);
	if (r[2] >> 16)
		l->amd_flags |= CPU_LAYOUT_AMD_L2;
	if (r[3] >> 18)
		l->amd_flags |= CPU_LAYOUT_AMD_L3;
	uint64_t nb;
	if ((l->amd_flags & CPU_LAYOUT_AMD_L3) && (l->amd_flags & CPU_LAYOUT_AMD_NODEID) &&
	    x->src->msr && x->src->msr(x->src->ctx, MSR_AMD_NB_CFG_NODE, &nb) == 0)
		l->amd_nodes_m1 = (uint8_t)((nb >> 3) & 7);
}

/* See cpuid_decode.h. */
void cpuid_decode_layout(const struct cpuid_source *src, struct cpu_desc *d, uint32_t max_leaf)
{
	struct layout_reader x = { src, d, 0 };
	struct cpu_layout *l = &d->layout;
	uint32_t r[4];
	*l = (struct cpu_layout){ .apic = d->apic_id, .vendor = d->vendor, .htt_lps = 1, .leaf4_cores = 1 };
	l->max_leaf = (uint8_t)(max_leaf > 0xFF ? 0xFF : max_leaf);
	lay_leaf(&x, 0, 0, r);
	if (r[1] == 0x6F677948 && r[3] == 0x6E65476E && r[2] == 0x656E6975)
		l->vendor = CPU_VENDOR_AMD;             /* "HygonGenuine": FreeBSD's AMD path */
	if (l->vendor == CPU_VENDOR_AMD) {
		lay_amd(&x, d->vendor_family_model >> 16);
		return;
	}
	if (l->vendor != CPU_VENDOR_INTEL)
		return;
	lay_topo_leaf(&x);
	if (!l->topo_leaf)
		lay_legacy(&x);
	lay_caches(&x, 4);
}
