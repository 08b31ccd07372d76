/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuid_amd.c — what an AuthenticAMD (or HygonGenuine) CPU says of itself,
 * into the same vendor-neutral struct cpu_desc as Intel's leaves.
 *
 * Sources: AMD64 Architecture Programmer's Manual Vol. 3 (pub. 24594),
 * appendix E, CPUID Fn8000_0026 (extended CPU topology: level types core,
 * complex, die, socket; per level the x2APIC shift, the logical processor
 * count and the heterogeneous / asymmetric flags; at the core level the
 * core type, native model id and efficiency ranking), Fn8000_001E,
 * Fn8000_001D (caches, in leaf 4's layout), Fn8000_0008 (CPPC, APIC id
 * size), Fn8000_0021 / Fn8000_0027 (workload classification and its class
 * count); AMD's family 19h/1Ah PPRs for MSRC001_02B0 (CPPC capability 1,
 * highest performance in [31:24]). docs/cpuid.md explains the rules.
 * Portable C: the values come through the decoder's callback.
 */
#include <arch/x86_64/cpu/cpuid_decode_int.h>

#define AMD_TOPO_MAX_SUBLEAVES 8     /* four level types are defined; more is garbage */
#define MSR_AMD_CPPC_CAP1 0xC00102B0u

/* Level types of CPUID 0x80000026 ECX[15:8]. */
enum { AMD_LVL_NONE = 0, AMD_LVL_CORE, AMD_LVL_COMPLEX, AMD_LVL_DIE, AMD_LVL_SOCKET, AMD_LVL_COUNT };

/* The maximum extended leaf, 0 when leaf 0x80000000 is absent or garbage
 * (real parts report at most 0x800000FF). */
static void amd_max_ext(struct decoder *x)
{
	uint32_t r[4];
	x->max_ext = 0x80000000u;
	cpuid_dec_leaf(x, 0x80000000u, 0, r);
	x->max_ext = r[0] >= 0x80000000u && r[0] <= 0x800000FFu ? r[0] : 0;
}

/* The core level's EBX: core type (0 classic, 1 dense) and, with the
 * heterogeneous flag anywhere in the leaf, the type, native model and
 * (when EAX[29] says it is available) efficiency ranking. */
static void amd_core_type(struct decoder *x, int hetero, uint32_t core_eax, uint32_t core_ebx)
{
	struct cpu_desc *d = x->d;
	if (!hetero) {
		d->notes |= CPU_DESC_NOTE_AMD_NO_HETERO;
		return;
	}
	d->flags |= CPU_DESC_F_HYBRID;
	d->native_model_id = (core_ebx >> 24) & 0xF;
	d->native_model = (uint8_t)d->native_model_id;
	if (core_eax & (1u << 29))
		d->eff_rank = (uint8_t)(core_ebx >> 16);
	switch (core_ebx >> 28) {
	case 0:
		d->core_type = CPU_CORE_P;
		break;
	case 1:
		d->core_type = CPU_CORE_E;
		break;
	default:
		d->notes |= CPU_DESC_NOTE_NO_TYPE_LEAF;
		break;
	}
}

/* Leaf 0x80000026: 1 and the ids set when sub-leaf 0 is a usable level.
 * Unlike 0x1F, each level's shift names that level itself: x2APIC >>
 * shift(core) is the core, >> shift(complex) the CCX, >> shift(socket)
 * the package. */
static int amd_ext_topology(struct decoder *x)
{
	struct cpu_desc *d = x->d;
	unsigned shift[AMD_LVL_COUNT] = { 0 }, last_lvl = AMD_LVL_NONE, last_shift = 0;
	int have[AMD_LVL_COUNT] = { 0 }, hetero = 0;
	uint32_t r[4], core_eax = 0, core_ebx = 0;

	if (x->max_ext < 0x80000026u)
		return 0;
	for (unsigned sl = 0; sl < AMD_TOPO_MAX_SUBLEAVES; sl++) {
		cpuid_dec_leaf(x, 0x80000026u, sl, r);
		unsigned lvl = (r[2] >> 8) & 0xFF, count = r[1] & 0xFFFF, s = r[0] & 0x1F;
		if (lvl == AMD_LVL_NONE || count == 0)
			break;
		if (sl == 0)
			x->apic = r[3];
		if (lvl >= AMD_LVL_COUNT || lvl <= last_lvl) {
			lvl = last_lvl + 1 < AMD_LVL_COUNT ? last_lvl + 1 : AMD_LVL_COUNT - 1;
			d->notes |= CPU_DESC_NOTE_UNKNOWN_DOMAIN;
		}
		if (sl == 0 && s == 0 && count > 1) {
			s = cpuid_ceil_log2(count);
			d->notes |= CPU_DESC_NOTE_ZERO_SHIFT;
		}
		if (s < last_shift) {
			s = last_shift;
			d->notes |= CPU_DESC_NOTE_BAD_SHIFT;
		}
		if (r[0] & (1u << 30))
			hetero = 1;
		if (lvl == AMD_LVL_CORE) {
			if (count > (1u << s)) {
				count = 1u << s;
				d->notes |= CPU_DESC_NOTE_BAD_SHIFT;
			}
			d->smt_threads = (uint8_t)(count > 255 ? 255 : count);
			core_eax = r[0];
			core_ebx = r[1];
		}
		have[lvl] = 1;
		shift[lvl] = s;
		last_lvl = lvl;
		last_shift = s;
	}
	if (last_lvl == AMD_LVL_NONE)
		return 0;
	x->smt_shift = have[AMD_LVL_CORE] ? shift[AMD_LVL_CORE] : 0;
	x->pkg_shift = last_shift;
	d->topo_leaf = 0x80000026u;
	d->apic_id = x->apic;
	d->smt_id = x->apic & ((1u << x->smt_shift) - 1);
	d->core_id = x->apic >> x->smt_shift;
	d->package_id = x->apic >> x->pkg_shift;
	d->die_id = have[AMD_LVL_DIE] ? x->apic >> shift[AMD_LVL_DIE] : d->package_id;
	amd_core_type(x, hetero, core_eax, core_ebx);
	return 1;
}

/* Leaf 0x8000001E (TOPOEXT, Zen and later: family 0x17 on, where EBX[15:8]
 * counts threads per core): the extended APIC id and the SMT width; the
 * package width from 0x80000008 ECX (ApicIdSize [15:12], else the count
 * [7:0] + 1). 1 when used. */
static int amd_topology_1e(struct decoder *x, int topoext)
{
	struct cpu_desc *d = x->d;
	uint32_t r[4], size[4];
	if (!topoext || x->max_ext < 0x8000001Eu || (d->vendor_family_model >> 16) < 0x17)
		return 0;
	cpuid_dec_leaf(x, 0x8000001Eu, 0, r);
	cpuid_dec_leaf(x, 0x80000008u, 0, size);
	unsigned threads = ((r[1] >> 8) & 0xFF) + 1, id_bits = (size[2] >> 12) & 0xF;
	x->apic = r[0];
	x->smt_shift = cpuid_ceil_log2(threads);
	x->pkg_shift = id_bits ? id_bits : cpuid_ceil_log2((size[2] & 0xFF) + 1);
	if (x->pkg_shift < x->smt_shift) {
		x->pkg_shift = x->smt_shift;
		d->notes |= CPU_DESC_NOTE_BAD_SHIFT;
	}
	d->smt_threads = (uint8_t)(threads > 255 ? 255 : threads);
	d->topo_leaf = 0x8000001Eu;
	cpuid_dec_ids(x);
	return 1;
}

/* CPPC (0x80000008 EBX[27]) and its highest performance; workload
 * classification (0x80000021 EAX[22]) and its class count (0x80000027
 * EAX[7:0]), the enumeration Linux's amd_hfi driver checks. */
static void amd_power(struct decoder *x)
{
	struct cpu_desc *d = x->d;
	uint32_t r[4];
	cpuid_dec_leaf(x, 0x80000008u, 0, r);
	if (r[1] & (1u << 27)) {
		uint64_t v;
		d->flags |= CPU_DESC_F_CPPC;
		if (x->src->msr && x->src->msr(x->src->ctx, MSR_AMD_CPPC_CAP1, &v) == 0)
			d->perf_hint = (uint16_t)((v >> 24) & 0xFF);
		else
			d->notes |= CPU_DESC_NOTE_NO_HWP_MSR;
	}
	cpuid_dec_leaf(x, 0x80000021u, 0, r);
	if (r[0] & (1u << 22)) {
		d->flags |= CPU_DESC_F_AMD_WLC;
		cpuid_dec_leaf(x, 0x80000027u, 0, r);
		d->hfi_classes = (uint8_t)r[0];
	}
}

/* See cpuid_decode_int.h. */
void cpuid_decode_amd(struct decoder *x, const uint32_t leaf1[4])
{
	uint32_t r[4];
	amd_max_ext(x);
	cpuid_dec_leaf(x, 0x80000001u, 0, r);
	int topoext = (r[2] >> 22) & 1;
	x->d->smt_threads = 1;
	if (!amd_ext_topology(x) && !amd_topology_1e(x, topoext)) {
		if (!cpuid_dec_topo_walk(x, 0x0B))   /* Zen 2 on */
			cpuid_dec_legacy(x, leaf1);
		cpuid_dec_ids(x);
	}
	if (topoext && x->max_ext >= 0x8000001Du)
		cpuid_dec_caches(x, 0x8000001Du);
	if (!x->caches_seen)
		x->d->notes |= CPU_DESC_NOTE_NO_CACHE_LEAF;
	cpuid_dec_module(x);
	amd_power(x);
}
