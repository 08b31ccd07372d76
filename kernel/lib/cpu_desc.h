/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu_desc.h — one machine-independent record per logical CPU.
 *
 * The only input of the topology builder (kernel/sched/). Filled from CPUID
 * on real hardware (kernel/arch/x86_64/cpu/cpu_enum.c and cpuid_decode.c), from a CPUID dump on
 * the host (tools/cpuid-replay), and overridden by a machine description
 * under QEMU (kernel/emul/machine_desc/machine_*.c). Portable: no arch headers.
 *
 * Ids are "as the hardware numbers them" (derived from the x2APIC id by the
 * CPUID 0x1F/0x0B shifts): equal ids mean the same SMT core / module / die /
 * package. Cache ids follow the CPUID 0x04 rule: equal id = shared cache.
 */
#ifndef MOSAIC_CPU_DESC_H
#define MOSAIC_CPU_DESC_H
#include <stdint.h>

enum cpu_core_type {
	CPU_CORE_UNKNOWN = 0,   /* not hybrid, or not reported */
	CPU_CORE_P,             /* performance (CPUID 0x1A type 0x40, "Core"; AMD 0x80000026 core
	                         * type 0, a "classic" core such as Zen 5) */
	CPU_CORE_E,             /* efficiency (type 0x20, "Atom") in the compute tile / ring; AMD
	                         * core type 1, a "dense" core such as Zen 5c */
	CPU_CORE_LPE,           /* low-power efficiency (Atom without an L3, e.g. Meteor Lake SoC tile) */
};

#define CPU_DESC_NO_CACHE 0xFFFFFFFFu   /* this cache level does not exist for the CPU */
#define CPU_DESC_NO_HFI_ROW (-1)

enum cpu_desc_source {
	CPU_DESC_FROM_CPUID = 0,      /* this machine's CPUID */
	CPU_DESC_FROM_DUMP,           /* a CPUID dump replayed on the host */
	CPU_DESC_FROM_MACHINE_FILE,   /* a machine description (QEMU emulation, simulator) */
};

/* The CPUID values FreeBSD's x86 topology probe reads, raw (sys/x86/x86/
 * mp_x86.c: topo_probe_intel_0xb, topo_probe_intel_0x4,
 * topo_probe_intel_caches, topo_probe_amd). kernel/sched/topo_freebsd*.c
 * applies FreeBSD's rules to the boot CPU's values and groups every CPU by
 * its `apic`. cpuid_decode() fills it from the CPU's own leaves
 * (cpuid_layout.c); machine_apply() with what an Intel part laid out as the
 * description says would report (machine_layout.c). docs/topology.md. */
struct cpu_layout {
	uint32_t apic;            /* x2APIC id these values number the CPU by */
	uint8_t vendor;           /* enum cpu_vendor of these values (Hygon counts as AMD) */
	uint8_t max_leaf;         /* CPUID.0:EAX, at most 0xFF */
	uint8_t topo_leaf;        /* 0x1F or 0x0B: the first one up to max_leaf whose sub-leaf 0
	                           * has EBX != 0 (Intel); 0: neither */
	uint8_t smt_shift;        /* EAX[4:0] of its last SMT-type sub-leaf (type 1), else 0 */
	uint8_t core_shift;       /* EAX[4:0] of its last core-type sub-leaf (type 2), else 0 */
	uint8_t htt_lps;          /* without a topology leaf: CPUID.1:EBX[23:16] when
	                           * EDX[28] (HTT) is set, else 1 */
	uint8_t leaf4_cores;      /* without a topology leaf: CPUID.4.0:EAX[31:26] + 1 (1 below
	                           * leaf 4) */
	uint8_t amd_flags;        /* CPU_LAYOUT_AMD_* (AMD only) */
	uint16_t amd_size;        /* 0x80000008 ECX[15:0]: [15:12] core id bits, [7:0] cores - 1 */
	uint8_t amd_threads_m1;   /* 0x8000001E EBX[15:8]: threads per core - 1 (TOPOEXT,
	                           * family 0x16 and later) */
	uint8_t amd_nodes_m1;     /* nodes per package - 1: 0x8000001E ECX[10:8] there; MSR
	                           * 0xC001100C[5:3] for the L3 of a part without TOPOEXT */
	uint16_t cache_share[4];  /* [1..3]: EAX[25:14] + 1 of the last data or unified entry
	                           * of that level in leaf 4 (AMD with TOPOEXT: 0x8000001D);
	                           * 0: no such entry. [0] unused */
};

#define CPU_LAYOUT_AMD_CMP     0x01u  /* 0x80000001 ECX[1]: more than one core */
#define CPU_LAYOUT_AMD_TOPOEXT 0x02u  /* 0x80000001 ECX[22]: leaves 0x8000001D/1E */
#define CPU_LAYOUT_AMD_NODEID  0x04u  /* 0x80000001 ECX[19]: MSR 0xC001100C */
#define CPU_LAYOUT_AMD_L1      0x08u  /* 0x80000005 ECX[31:24] (L1D size) non-zero */
#define CPU_LAYOUT_AMD_L2      0x10u  /* 0x80000006 ECX[31:16] (L2 size) non-zero */
#define CPU_LAYOUT_AMD_L3      0x20u  /* 0x80000006 EDX[31:18] (L3 size) non-zero */

struct cpu_desc {
	uint32_t apic_id;        /* full x2APIC id */
	uint32_t smt_id;         /* thread number within its core (0, 1, ...) */
	uint32_t core_id;        /* x2APIC id >> SMT shift: same value = SMT siblings */
	uint32_t module_id;      /* L2 module / cluster, named by the core_id of its first core
	                          * (so equal to core_id when a core is alone) */
	uint32_t die_id;
	uint32_t package_id;
	uint32_t cache_id[4];    /* [1] L1D, [2] L2, [3] L3 (LLC); [0] unused; CPU_DESC_NO_CACHE if absent */
	uint8_t core_type;       /* enum cpu_core_type (AMD: classic = P, dense = E) */
	uint8_t native_model;    /* low byte of native_model_id */
	uint8_t smt_threads;     /* threads of its core (1 or 2) */
	uint8_t source;          /* enum cpu_desc_source */
	int32_t hfi_row;         /* row in the HFI table, CPU_DESC_NO_HFI_ROW if none */
	uint16_t perf_hint;      /* static performance: HWP highest perf (MSR 0x771), AMD's CPPC
	                          * highest perf (MSR 0xC00102B0 [31:24]), or 0 */
	uint8_t eff_rank;        /* AMD: CPUID 0x80000026 EBX[23:16] of the core level when EAX[29]
	                          * says the ranking is available; else 0 */
	uint8_t reserved;
	uint32_t vendor_family_model; /* family << 16 | model << 4 | stepping */
	/* Enumeration detail (fields below added with cpuid_decode; zero when unknown). */
	uint32_t native_model_id;     /* Intel: CPUID 0x1A EAX[23:0]; AMD: 0x80000026 EBX[27:24] */
	uint32_t cache_kb[4];         /* cache sizes in KiB, indexed like cache_id; 0 if absent */
	uint8_t vendor;               /* enum cpu_vendor */
	uint8_t flags;                /* CPU_DESC_F_* */
	uint8_t hfi_caps;             /* CPUID 6 EDX[7:0]: bit 0 performance, bit 1 efficiency */
	uint8_t hfi_classes;          /* CPUID 6 ECX[15:8]: Thread Director classes */
	uint8_t hfi_pages;            /* HFI table size in 4 KiB pages (EDX[11:8] + 1); 0 without HFI */
	uint32_t topo_leaf;           /* topology leaf used: 0x1F, 0x0B, 0x80000026, 0x8000001E
	                               * or 0x01 (legacy) */
	uint16_t notes;               /* CPU_DESC_NOTE_*: fallbacks taken on odd CPUID values */
	struct cpu_layout layout;     /* what FreeBSD's topology probe reads (above) */
};

enum cpu_vendor {
	CPU_VENDOR_OTHER = 0,
	CPU_VENDOR_INTEL,
	CPU_VENDOR_AMD,
};

#define CPU_DESC_F_HYBRID   0x01u   /* Intel: CPUID 7.0 EDX[15]; AMD: 0x80000026 EAX[30] */
#define CPU_DESC_F_HFI      0x02u   /* CPUID 6 EAX[19] */
#define CPU_DESC_F_ITD      0x04u   /* CPUID 6 EAX[23] */
#define CPU_DESC_F_HWP      0x08u   /* CPUID 6 EAX[7] */
#define CPU_DESC_F_CPPC     0x10u   /* AMD: CPUID 0x80000008 EBX[27], MSRs 0xC00102B0.. */
#define CPU_DESC_F_AMD_WLC  0x20u   /* AMD: CPUID 0x80000021 EAX[22], workload classification */

/* Fallbacks the decoder took; cpuid_decode_note_text() names each bit. */
#define CPU_DESC_NOTE_NO_TOPO_LEAF   0x0001u  /* no 0x1F/0x0B: 8-bit APIC id, one core per CPU */
#define CPU_DESC_NOTE_ZERO_SHIFT     0x0002u  /* a shift of 0 with several CPUs: taken from the count */
#define CPU_DESC_NOTE_BAD_SHIFT      0x0004u  /* shifts not increasing or too large: clamped */
#define CPU_DESC_NOTE_UNKNOWN_DOMAIN 0x0008u  /* unknown domain type: put one level above the last */
#define CPU_DESC_NOTE_NO_CACHE_LEAF  0x0010u  /* no CPUID 0x04 caches: cache ids absent, module = core */
#define CPU_DESC_NOTE_BAD_CACHE      0x0020u  /* absurd CPUID 0x04 sub-leaf: ignored */
#define CPU_DESC_NOTE_NO_TYPE_LEAF   0x0040u  /* hybrid flag but no usable 0x1A: core type unknown */
#define CPU_DESC_NOTE_NO_HWP_MSR     0x0080u  /* HWP (or AMD's CPPC) present but its capability
                                                * MSR (0x771, 0xC00102B0) unreadable */
#define CPU_DESC_NOTE_LEAF_MISSING   0x0100u  /* a leaf below the max leaf was unavailable (dump) */
#define CPU_DESC_NOTE_AMD_NO_HETERO  0x0200u  /* AMD 0x80000026 without the heterogeneous flag:
                                                * core types not enumerated */
#define CPU_DESC_NOTE_COUNT          10

#endif
