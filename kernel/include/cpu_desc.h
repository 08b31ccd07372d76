/*
 * cpu_desc.h — one machine-independent record per logical CPU.
 *
 * The only input of the topology builder (kernel/sched/). Filled from CPUID
 * on real hardware (kernel/arch/x86_64/cpu_enum*.c), from a CPUID dump on
 * the host (tools/cpuid-replay), and overridden by a machine description
 * under QEMU (kernel/machine/machine_*.c). Portable: no arch headers.
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
	CPU_CORE_P,             /* performance (CPUID 0x1A type 0x40, "Core") */
	CPU_CORE_E,             /* efficiency (type 0x20, "Atom") in the compute tile / ring */
	CPU_CORE_LPE,           /* low-power efficiency (Atom without an L3, e.g. Meteor Lake SoC tile) */
};

#define CPU_DESC_NO_CACHE 0xFFFFFFFFu   /* this cache level does not exist for the CPU */
#define CPU_DESC_NO_HFI_ROW (-1)

enum cpu_desc_source {
	CPU_DESC_FROM_CPUID = 0,      /* this machine's CPUID */
	CPU_DESC_FROM_DUMP,           /* a CPUID dump replayed on the host */
	CPU_DESC_FROM_MACHINE_FILE,   /* a machine description (QEMU emulation, simulator) */
};

struct cpu_desc {
	uint32_t apic_id;        /* full x2APIC id */
	uint32_t smt_id;         /* thread number within its core (0, 1, ...) */
	uint32_t core_id;        /* x2APIC id >> SMT shift: same value = SMT siblings */
	uint32_t module_id;      /* L2 module / cluster, named by the core_id of its first core
	                          * (so equal to core_id when a core is alone) */
	uint32_t die_id;
	uint32_t package_id;
	uint32_t cache_id[4];    /* [1] L1D, [2] L2, [3] L3 (LLC); [0] unused; CPU_DESC_NO_CACHE if absent */
	uint8_t core_type;       /* enum cpu_core_type */
	uint8_t native_model;    /* CPUID 0x1A EAX[23:0] is model id; low byte kept here */
	uint8_t smt_threads;     /* threads of its core (1 or 2) */
	uint8_t source;          /* enum cpu_desc_source */
	int32_t hfi_row;         /* row in the HFI table, CPU_DESC_NO_HFI_ROW if none */
	uint16_t perf_hint;      /* static performance: HWP highest perf (MSR 0x771) or 0 */
	uint16_t reserved;
	uint32_t vendor_family_model; /* family << 16 | model << 4 | stepping */
	/* Enumeration detail (fields below added with cpuid_decode; zero when unknown). */
	uint32_t native_model_id;     /* CPUID 0x1A EAX[23:0] */
	uint32_t cache_kb[4];         /* cache sizes in KiB, indexed like cache_id; 0 if absent */
	uint8_t vendor;               /* enum cpu_vendor */
	uint8_t flags;                /* CPU_DESC_F_* */
	uint8_t hfi_caps;             /* CPUID 6 EDX[7:0]: bit 0 performance, bit 1 efficiency */
	uint8_t hfi_classes;          /* CPUID 6 ECX[15:8]: Thread Director classes */
	uint8_t hfi_pages;            /* HFI table size in 4 KiB pages (EDX[11:8] + 1); 0 without HFI */
	uint8_t topo_leaf;            /* topology leaf used: 0x1F, 0x0B, or 0x01 (legacy) */
	uint16_t notes;               /* CPU_DESC_NOTE_*: fallbacks taken on odd CPUID values */
};

enum cpu_vendor {
	CPU_VENDOR_OTHER = 0,
	CPU_VENDOR_INTEL,
	CPU_VENDOR_AMD,
};

#define CPU_DESC_F_HYBRID   0x01u   /* CPUID 7.0 EDX[15] */
#define CPU_DESC_F_HFI      0x02u   /* CPUID 6 EAX[19] */
#define CPU_DESC_F_ITD      0x04u   /* CPUID 6 EAX[23] */
#define CPU_DESC_F_HWP      0x08u   /* CPUID 6 EAX[7] */

/* Fallbacks the decoder took; cpuid_decode_note_text() names each bit. */
#define CPU_DESC_NOTE_NO_TOPO_LEAF   0x0001u  /* no 0x1F/0x0B: 8-bit APIC id, one core per CPU */
#define CPU_DESC_NOTE_ZERO_SHIFT     0x0002u  /* a shift of 0 with several CPUs: taken from the count */
#define CPU_DESC_NOTE_BAD_SHIFT      0x0004u  /* shifts not increasing or too large: clamped */
#define CPU_DESC_NOTE_UNKNOWN_DOMAIN 0x0008u  /* unknown domain type: put one level above the last */
#define CPU_DESC_NOTE_NO_CACHE_LEAF  0x0010u  /* no CPUID 0x04 caches: cache ids absent, module = core */
#define CPU_DESC_NOTE_BAD_CACHE      0x0020u  /* absurd CPUID 0x04 sub-leaf: ignored */
#define CPU_DESC_NOTE_NO_TYPE_LEAF   0x0040u  /* hybrid flag but no usable 0x1A: core type unknown */
#define CPU_DESC_NOTE_NO_HWP_MSR     0x0080u  /* HWP present but MSR 0x771 unreadable */
#define CPU_DESC_NOTE_LEAF_MISSING   0x0100u  /* a leaf below the max leaf was unavailable (dump) */
#define CPU_DESC_NOTE_COUNT          9

#endif
