/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuid_decode.c — one logical CPU's CPUID values → struct cpu_desc.
 *
 * Portable C (no inline assembly): the kernel feeds it the live CPUID of the
 * current CPU (cpu_enum.c), the host replay tool feeds it a dump. The rules
 * follow the CPUID reference of the Intel SDM Vol. 2A (leaves 04H, 06H, 0BH,
 * 1AH, 1FH) and its Vol. 3B chapter on the Hardware Feedback Interface;
 * AMD's leaves are read in cpuid_amd.c. docs/cpuid.md explains them and
 * every fallback.
 */
#include <arch/x86_64/cpu/cpuid_decode_int.h>
#include <kern/printk.h>
#include <lib/string.h>

#define TOPO_MAX_SUBLEAVES  8    /* 0x1F defines six domain types; more is garbage */
#define CACHE_MAX_SUBLEAVES 16   /* real parts list 4-6 caches */
#define MSR_HWP_CAPABILITIES 0x771u

/* See cpuid_decode_int.h. */
void cpuid_dec_leaf(struct decoder *x, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	r[0] = r[1] = r[2] = r[3] = 0;
	if (leaf < 0x80000000u ? leaf > x->max_basic : leaf > x->max_ext)
		return;
	if (x->src->get(x->src->ctx, leaf, sub, r) != 0) {
		r[0] = r[1] = r[2] = r[3] = 0;
		x->d->notes |= CPU_DESC_NOTE_LEAF_MISSING;
	}
}

/* Leaf 0 and 1: maximum leaf, vendor, family/model/stepping. */
static void dec_identity(struct decoder *x, uint32_t leaf1[4])
{
	uint32_t r[4] = { 0, 0, 0, 0 };
	x->max_basic = 0;
	if (x->src->get(x->src->ctx, 0, 0, r) != 0) {
		x->d->notes |= CPU_DESC_NOTE_LEAF_MISSING;
		r[0] = r[1] = r[2] = r[3] = 0;
	}
	/* Max basic leaves are small (0x23 in 2024); a huge value is garbage. */
	x->max_basic = r[0] > 0xFF ? 0xFF : r[0];
	if (r[1] == 0x756E6547 && r[3] == 0x49656E69 && r[2] == 0x6C65746E)
		x->d->vendor = CPU_VENDOR_INTEL;          /* "GenuineIntel" */
	else if (r[1] == 0x68747541 && r[3] == 0x69746E65 && r[2] == 0x444D4163)
		x->d->vendor = CPU_VENDOR_AMD;            /* "AuthenticAMD" */
	else
		x->d->vendor = CPU_VENDOR_OTHER;

	cpuid_dec_leaf(x, 1, 0, leaf1);
	uint32_t fam = (leaf1[0] >> 8) & 0xF, model = (leaf1[0] >> 4) & 0xF;
	if (fam == 0xF)
		fam += (leaf1[0] >> 20) & 0xFF;
	if (fam == 0x6 || fam >= 0xF)
		model |= ((leaf1[0] >> 16) & 0xF) << 4;
	x->d->vendor_family_model = fam << 16 | model << 4 | (leaf1[0] & 0xF);
}

/* See cpuid_decode_int.h: walk topology leaf 0x1F or 0x0B. */
int cpuid_dec_topo_walk(struct decoder *x, uint32_t leaf)
{
	uint32_t r[4];
	unsigned last_dom = DOM_NONE, last_shift = 0;

	if (x->max_basic < leaf)
		return 0;
	for (unsigned sl = 0; sl < TOPO_MAX_SUBLEAVES; sl++) {
		cpuid_dec_leaf(x, leaf, sl, r);
		unsigned type = (r[2] >> 8) & 0xFF, count = r[1] & 0xFFFF, shift = r[0] & 0x1F;
		if (type == 0 || count == 0)
			break;
		if (sl == 0) {
			x->apic = r[3];
			memset(x->have_shift, 0, sizeof(x->have_shift));
		}
		unsigned dom = type;
		if (dom >= DOM_COUNT || dom <= last_dom) {
			/* Unknown (or out-of-order) type: one level above the last. */
			dom = last_dom + 1 < DOM_COUNT ? last_dom + 1 : DOM_COUNT - 1;
			x->d->notes |= CPU_DESC_NOTE_UNKNOWN_DOMAIN;
		}
		if (sl == 0 && shift == 0 && count > 1) {
			shift = cpuid_ceil_log2(count);
			x->d->notes |= CPU_DESC_NOTE_ZERO_SHIFT;
		}
		if (shift < last_shift) {
			shift = last_shift;
			x->d->notes |= CPU_DESC_NOTE_BAD_SHIFT;
		}
		if (dom == DOM_SMT) {
			unsigned room = 1u << shift;
			if (count > room) {
				count = room;
				x->d->notes |= CPU_DESC_NOTE_BAD_SHIFT;
			}
			x->d->smt_threads = (uint8_t)(count > 255 ? 255 : count);
		}
		x->have_shift[dom] = 1;
		x->shift[dom] = shift;
		last_dom = dom;
		last_shift = shift;
	}
	if (last_dom == DOM_NONE)
		return 0;
	x->smt_shift = x->have_shift[DOM_SMT] ? x->shift[DOM_SMT] : 0;
	x->pkg_shift = last_shift;
	x->d->topo_leaf = (uint8_t)leaf;
	return 1;
}

/* Shift that names domain dom: the shift of the highest level below it. */
static unsigned dec_shift_below(const struct decoder *x, unsigned dom)
{
	unsigned s = 0;
	for (unsigned i = DOM_SMT; i < dom; i++)
		if (x->have_shift[i])
			s = x->shift[i];
	return s;
}

/* Topology: x2APIC id and SMT/core/die/package ids (module comes later). */
static void dec_topology(struct decoder *x, const uint32_t leaf1[4])
{
	x->d->smt_threads = 1;
	if (!cpuid_dec_topo_walk(x, 0x1F) && !cpuid_dec_topo_walk(x, 0x0B))
		cpuid_dec_legacy(x, leaf1);
	cpuid_dec_ids(x);
}

/* See cpuid_decode_int.h: the 8-bit initial APIC id, each CPU its own
 * core; with HTT the package spans EBX[23:16] ids. */
void cpuid_dec_legacy(struct decoder *x, const uint32_t leaf1[4])
{
	uint32_t lps = (leaf1[1] >> 16) & 0xFF;
	x->apic = leaf1[1] >> 24;
	x->smt_shift = 0;
	x->pkg_shift = (leaf1[3] & (1u << 28)) && lps > 1 ? cpuid_ceil_log2(lps) : 0;
	x->d->topo_leaf = 0x01;
	x->d->notes |= CPU_DESC_NOTE_NO_TOPO_LEAF;
}

/* See cpuid_decode_int.h. */
void cpuid_dec_ids(struct decoder *x)
{
	struct cpu_desc *d = x->d;
	d->apic_id = x->apic;
	d->smt_id = x->apic & ((1u << x->smt_shift) - 1);
	d->core_id = x->apic >> x->smt_shift;
	d->package_id = x->apic >> x->pkg_shift;
	d->die_id = x->have_shift[DOM_DIE] ? x->apic >> dec_shift_below(x, DOM_DIE) : d->package_id;
}

/* See cpuid_decode_int.h: sharing ids and sizes of L1 data, L2, L3. */
void cpuid_dec_caches(struct decoder *x, uint32_t leaf)
{
	struct cpu_desc *d = x->d;
	uint32_t r[4];
	unsigned sl;

	for (sl = 0; sl < CACHE_MAX_SUBLEAVES; sl++) {
		cpuid_dec_leaf(x, leaf, sl, r);
		unsigned type = r[0] & 0x1F, level = (r[0] >> 5) & 0x7;
		if (type == 0)
			break;
		if (type > 3 || level == 0) {
			d->notes |= CPU_DESC_NOTE_BAD_CACHE;
			continue;
		}
		x->caches_seen++;
		if (type == 2 || level > 3 || d->cache_id[level] != CPU_DESC_NO_CACHE)
			continue;   /* instruction caches, L4, duplicates: not described */
		unsigned msb = cpuid_ceil_log2(((r[0] >> 14) & 0xFFF) + 1);
		uint64_t bytes = (uint64_t)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3FF) + 1) *
				 ((r[1] & 0xFFF) + 1) * ((uint64_t)r[2] + 1);
		d->cache_id[level] = x->apic >> msb;
		d->cache_kb[level] = (uint32_t)(bytes >> 10);
		if (level == 2)
			x->l2_shift = msb;
	}
	if (sl == CACHE_MAX_SUBLEAVES)
		d->notes |= CPU_DESC_NOTE_BAD_CACHE;
}

/* See cpuid_decode_int.h: the 0x1F module level, else the L2 sharing of
 * the cache leaf, else the core alone. Named by the core_id of its first
 * core. */
void cpuid_dec_module(struct decoder *x)
{
	struct cpu_desc *d = x->d;
	unsigned ms = x->smt_shift;

	if (x->have_shift[DOM_MODULE])
		ms = dec_shift_below(x, DOM_MODULE);
	else if (d->cache_id[2] != CPU_DESC_NO_CACHE)
		ms = x->l2_shift;
	if (ms < x->smt_shift)
		ms = x->smt_shift;   /* an L2 smaller than a core: the core */
	if (ms > x->pkg_shift) {
		ms = x->pkg_shift;   /* an L2 wider than the package is garbage */
		d->notes |= CPU_DESC_NOTE_BAD_CACHE;
	}
	d->module_id = (x->apic >> ms) << (ms - x->smt_shift);
}

/* Leaf 7 hybrid flag and leaf 0x1A core type / native model. */
static void dec_core_type(struct decoder *x)
{
	struct cpu_desc *d = x->d;
	uint32_t r[4];

	cpuid_dec_leaf(x, 7, 0, r);
	if (r[3] & (1u << 15))
		d->flags |= CPU_DESC_F_HYBRID;
	if (x->max_basic < 0x1A) {
		/* Never read it: an out-of-range leaf returns the last leaf's data. */
		if (d->flags & CPU_DESC_F_HYBRID)
			d->notes |= CPU_DESC_NOTE_NO_TYPE_LEAF;
		return;
	}
	cpuid_dec_leaf(x, 0x1A, 0, r);
	d->native_model_id = r[0] & 0xFFFFFF;
	d->native_model = (uint8_t)r[0];
	if (!(d->flags & CPU_DESC_F_HYBRID))
		return;
	switch (r[0] >> 24) {
	case 0x40:
		d->core_type = CPU_CORE_P;
		break;
	case 0x20:
		/* An Atom core outside the L3 is a low-power E-core (Meteor Lake). */
		d->core_type = x->caches_seen && d->cache_id[3] == CPU_DESC_NO_CACHE ?
			       CPU_CORE_LPE : CPU_CORE_E;
		break;
	default:
		d->notes |= CPU_DESC_NOTE_NO_TYPE_LEAF;
		break;
	}
}

/* Leaf 6: HWP, HFI and Thread Director, this CPU's HFI row; MSR 0x771. */
static void dec_power(struct decoder *x)
{
	struct cpu_desc *d = x->d;
	uint32_t r[4];

	d->hfi_row = CPU_DESC_NO_HFI_ROW;
	cpuid_dec_leaf(x, 6, 0, r);
	if (r[0] & (1u << 7))
		d->flags |= CPU_DESC_F_HWP;
	if (r[0] & (1u << 19)) {
		d->flags |= CPU_DESC_F_HFI;
		d->hfi_caps = (uint8_t)r[3];
		d->hfi_pages = (uint8_t)(((r[3] >> 8) & 0xF) + 1);
		d->hfi_classes = (uint8_t)(r[2] >> 8);
		d->hfi_row = (int32_t)(r[3] >> 16);
	}
	if (r[0] & (1u << 23))
		d->flags |= CPU_DESC_F_ITD;
	if ((d->flags & CPU_DESC_F_HWP) && x->src->msr) {
		uint64_t v;
		if (x->src->msr(x->src->ctx, MSR_HWP_CAPABILITIES, &v) == 0)
			d->perf_hint = (uint16_t)(v & 0xFF);
		else
			d->notes |= CPU_DESC_NOTE_NO_HWP_MSR;
	}
}

void cpuid_decode(const struct cpuid_source *src, struct cpu_desc *out)
{
	struct decoder x;
	uint32_t leaf1[4];

	memset(out, 0, sizeof(*out));
	memset(&x, 0, sizeof(x));
	x.src = src;
	x.d = out;
	out->source = CPU_DESC_FROM_CPUID;
	for (int i = 0; i < 4; i++)
		out->cache_id[i] = CPU_DESC_NO_CACHE;
	dec_identity(&x, leaf1);
	if (out->vendor == CPU_VENDOR_AMD) {
		cpuid_decode_amd(&x, leaf1);
	} else {
		dec_topology(&x, leaf1);
		if (x.max_basic >= 4)
			cpuid_dec_caches(&x, 4);
		if (!x.caches_seen)
			out->notes |= CPU_DESC_NOTE_NO_CACHE_LEAF;
		cpuid_dec_module(&x);
		dec_core_type(&x);
	}
	dec_power(&x);
	cpuid_decode_layout(src, out, x.max_basic);
}

static const char *const note_text[CPU_DESC_NOTE_COUNT] = {
	"no topology leaf 0x1F/0x0B: legacy APIC id, one core per CPU",
	"topology shift 0 with several CPUs: shift taken from the count",
	"topology shifts or counts inconsistent: clamped",
	"unknown topology domain type: placed one level above the last",
	"no cache leaf (CPUID 0x04, AMD 0x8000001D): no cache ids, each core its own module",
	"odd cache-leaf sub-leaf ignored",
	"hybrid flag but no usable core type (CPUID 0x1A, AMD 0x80000026): core type unknown",
	"HWP or CPPC present but its MSR (0x771, AMD 0xC00102B0) unreadable: no performance hint",
	"a CPUID leaf below the maximum was unavailable: read as zero",
	"CPUID 0x80000026 sets no heterogeneous-cores flag: core types unknown (dense cores look classic)",
};

const char *cpuid_decode_note_text(uint16_t note)
{
	for (unsigned i = 0; i < CPU_DESC_NOTE_COUNT; i++)
		if (note == (1u << i))
			return note_text[i];
	return "?";
}

const char *cpu_core_type_name(unsigned type)
{
	switch (type) {
	case CPU_CORE_P: return "P";
	case CPU_CORE_E: return "E";
	case CPU_CORE_LPE: return "LP-E";
	default: return "-";
	}
}

int cpu_desc_format_header(char *buf, size_t size)
{
	return ksnprintf(buf, size, "%4s %6s %-4s %3s %5s %6s %3s %5s %5s %4s %4s", "cpu", "apic",
			 "type", "smt", "core", "module", "pkg", "l2", "l3", "hfi", "perf");
}

/* Print an id column: the number, or "-" for an absent value. */
static void fmt_id(char *buf, size_t size, uint32_t v, uint32_t absent)
{
	if (v == absent)
		ksnprintf(buf, size, "-");
	else
		ksnprintf(buf, size, "%u", v);
}

int cpu_desc_format_line(char *buf, size_t size, unsigned cpu, const struct cpu_desc *d)
{
	char l2[12], l3[12], hfi[12];

	fmt_id(l2, sizeof(l2), d->cache_id[2], CPU_DESC_NO_CACHE);
	fmt_id(l3, sizeof(l3), d->cache_id[3], CPU_DESC_NO_CACHE);
	fmt_id(hfi, sizeof(hfi), (uint32_t)d->hfi_row, (uint32_t)CPU_DESC_NO_HFI_ROW);
	return ksnprintf(buf, size, "%4u 0x%04x %-4s %3u %5u %6u %3u %5s %5s %4s %4u", cpu,
			 d->apic_id, cpu_core_type_name(d->core_type), d->smt_id, d->core_id,
			 d->module_id, d->package_id, l2, l3, hfi, d->perf_hint);
}
