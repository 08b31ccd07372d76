/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuid_decode_int.h — the decoder's working state, shared by the
 * vendor-neutral steps (cpuid_decode.c) and AMD's (cpuid_amd.c). Private to
 * those two files; everyone else uses cpuid_decode.h.
 */
#ifndef MOSAIC_CPUID_DECODE_INT_H
#define MOSAIC_CPUID_DECODE_INT_H
#include <arch/x86_64/cpu/cpuid_decode.h>

/* Domain levels of CPUID 0x1F (0x0B uses the first two), in order. */
enum { DOM_NONE = 0, DOM_SMT, DOM_CORE, DOM_MODULE, DOM_TILE, DOM_DIE, DOM_DIEGRP, DOM_COUNT };

struct decoder {
	const struct cpuid_source *src;
	struct cpu_desc *d;
	uint32_t max_basic;
	uint32_t max_ext;            /* CPUID 0x80000000 EAX, 0 when absent or garbage */
	uint32_t apic;
	int have_shift[DOM_COUNT];
	unsigned shift[DOM_COUNT];   /* x2APIC shift to the next level, per domain */
	unsigned smt_shift, pkg_shift;
	unsigned l2_shift;           /* L2 sharing shift from the cache leaf, valid if cache_id[2] set */
	int caches_seen;
};

/* CPUID(leaf, sub) into r: zeros when the leaf is above its maximum (basic
 * or extended), and zeros plus CPU_DESC_NOTE_LEAF_MISSING when the source
 * lacks it. No locking. */
void cpuid_dec_leaf(struct decoder *x, uint32_t leaf, uint32_t sub, uint32_t r[4]);

/* Caches from a deterministic cache leaf (4, or AMD's 0x8000001D, which has
 * the same layout): cache_id/cache_kb of L1D, L2, L3 and the L2 shift. The
 * caller checks that the leaf exists. */
void cpuid_dec_caches(struct decoder *x, uint32_t leaf);

/* module_id (the L2 cluster) from the topology levels or the L2 sharing. */
void cpuid_dec_module(struct decoder *x);

/* cpuid_amd.c: topology (0x80000026, else 0x0B, else 0x8000001E, else
 * leaf 1), caches (0x8000001D), module, core type and efficiency ranking
 * (0x80000026) and the CPPC highest performance of an AuthenticAMD or
 * HygonGenuine CPU. */
void cpuid_decode_amd(struct decoder *x, const uint32_t leaf1[4]);
/* The 0x1F / 0x0B walk (cpuid_decode.c), for AMD's fallback: 1 when the
 * leaf gave usable levels (then apic, shifts and topo_leaf are set). */
int cpuid_dec_topo_walk(struct decoder *x, uint32_t leaf);
/* Without a topology leaf: leaf 1's APIC id and package width, a note. */
void cpuid_dec_legacy(struct decoder *x, const uint32_t leaf1[4]);
/* Ids from x->apic and the shifts (smt, core, die, package). */
void cpuid_dec_ids(struct decoder *x);

/* Smallest k with 2^k >= n (n >= 1). */
static inline unsigned cpuid_ceil_log2(uint32_t n)
{
	unsigned k = 0;
	while (k < 32 && (1ull << k) < n)
		k++;
	return k;
}

#endif
