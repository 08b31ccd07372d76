/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine.h — machine descriptions: the emulated hybrid machines Mosaic
 * runs on under QEMU (and the simulator's models). The text format is
 * documented in docs/machines.md; presets live in machines/ (NAME.machine).
 *
 * Portable: no arch headers. The parser (kernel/emul/machine_desc/machine_parse.c) turns
 * a file into a struct machine; machine_apply (kernel/emul/machine_desc/machine_apply.c)
 * overrides the per-CPU descriptors with it. Speeds are fixed point with
 * MACHINE_SPEED_ONE = 1.000 (one P-core thread running alone).
 */
#ifndef MOSAIC_MACHINE_H
#define MOSAIC_MACHINE_H
#include <stddef.h>
#include <stdint.h>
#include <lib/cpu_desc.h>

#define MACHINE_MAX_CPUS    256   /* = MAXCPU (QEMU's q35 takes 255: the host tool says so) */
#define MACHINE_MAX_ROWS    256
#define MACHINE_MAX_EVENTS  64
/* `hfi-classes` bound: real hybrid parts enumerate 4 Thread Director
 * classes (CPUID.06H:ECX[15:8]); 8 leaves room for later parts while a
 * table of 256 rows stays within 2 pages (docs/hfi.md). */
#define MACHINE_HFI_CLASSES_MAX 8
#define MACHINE_MODEL_MAX   64
#define MACHINE_NO_ROW      CPU_DESC_NO_HFI_ROW
#define MACHINE_NO_LLC      CPU_DESC_NO_CACHE
#define MACHINE_SPEED_ONE   1000  /* speeds and throughputs in thousandths */
#define MACHINE_CORE_TYPES  4     /* indexed by enum cpu_core_type */
#define MACHINE_FILE_MAX    (64 * 1024)   /* bytes of a description file */
/* `memory` bounds: OVMF needs more than 32 MiB to start; the kernel writes
 * to every free page at boot (its free list runs through them), so QEMU
 * commits all guest memory on the host: 16 GiB is far more than any
 * emulated machine needs and still fits a development machine. */
#define MACHINE_MEM_MIN     (64ull << 20)
#define MACHINE_MEM_MAX     (16ull << 30)

/* How the kernel should take its topology when it reads this description. */
enum machine_topology {
	MACHINE_TOPOLOGY_FILE = 0,   /* from the cpu lines (default) */
	MACHINE_TOPOLOGY_CPUID,      /* the file only sizes the VM; CPUID is the truth */
};

struct machine_cpu {
	uint8_t type;          /* enum cpu_core_type; CPU_CORE_UNKNOWN = not hybrid */
	uint8_t thread;        /* SMT thread number within its core */
	uint8_t smt_threads;   /* threads of its core (computed) */
	uint32_t core;         /* machine-wide core id */
	uint32_t module;       /* machine-wide L2 module id */
	uint32_t llc;          /* machine-wide LLC id, or MACHINE_NO_LLC */
	uint32_t package;
	int32_t hfi_row;       /* or MACHINE_NO_ROW */
	unsigned line;         /* where it was described */
};

/* CPUID.06H bits the emulated HFI device presents (`hfi-features`). */
#define MACHINE_HFI_F_HFI 0x1u   /* EAX[19]: the HFI table and its MSRs */
#define MACHINE_HFI_F_ITD 0x2u   /* EAX[23]: Thread Director (classes) */
#define MACHINE_HFI_F_PTS 0x4u   /* EAX[6]: package thermal status/interrupt */

/* One class's capabilities in an HFI row, raw 0..255. */
struct machine_hfi_value {
	uint8_t perf, ee;
};

/* The optional `power` line: what one busy core of each type draws at
 * full speed (its first thread; each further busy SMT thread of the core
 * adds smt_mw), what an idle core of each type draws, what the package
 * draws besides its cores (base), and optionally a power budget per
 * package (0: none, the model only meters). Milliwatts; line 0 = no power
 * line. A model (docs/hfi.md), used by the work clock and its energy. */
#define MACHINE_POWER_MAX_MW 1000000u   /* 1000 W */
struct machine_power {
	uint32_t budget_mw;                   /* 0: no budget */
	uint32_t core_mw[MACHINE_CORE_TYPES];
	uint32_t idle_mw[MACHINE_CORE_TYPES]; /* a core of the type with no busy thread */
	uint32_t smt_mw;
	uint32_t base_mw;                     /* the package besides its cores */
	unsigned line;
};

/* Class 0's values are also .perf / .ee (the HFI table without Thread
 * Director has only class 0). */
struct machine_hfi_row {
	union {
		struct { uint8_t perf, ee; };
		struct machine_hfi_value cls[MACHINE_HFI_CLASSES_MAX];
	};
	uint8_t set;           /* an `hfi` line gave them (every class) */
};

/* At time_ms after boot, row `row` gets the values of the classes in
 * `classes` (bit c: cls[c]; class 0 always); the other classes keep theirs. */
struct machine_event {
	uint64_t time_ms;
	int32_t row;
	uint8_t classes;
	union {
		struct { uint8_t perf, ee; };
		struct machine_hfi_value cls[MACHINE_HFI_CLASSES_MAX];
	};
};

struct machine {
	char model[MACHINE_MODEL_MAX];
	uint8_t topology;                 /* enum machine_topology */
	uint8_t cpuid_module;             /* `cpuid-levels smt,core,module`: the CPUID leaf 0x1F
	                                   * of the modelled part has a module level, so its core
	                                   * level spans one L2 module (Meteor Lake); 0: smt,core,
	                                   * the core level spans the package (machine_layout.c) */
	unsigned cpu_count;               /* `cpus` */
	unsigned cpu_count_line;          /* where `cpus` was given */
	uint64_t mem_bytes;               /* `memory`: MACHINE_MEM_MIN..MACHINE_MEM_MAX */
	unsigned hfi_rows;                /* `hfi-rows` (0: no HFI) */
	unsigned hfi_classes;             /* `hfi-classes`, 1..MACHINE_HFI_CLASSES_MAX (1 if not given) */
	unsigned hfi_features;            /* MACHINE_HFI_F_*: `hfi-features`, else hfi,pts (+itd
	                                   * with hfi-classes > 1); 0 without rows */
	unsigned hfi_pages;               /* 4 KiB pages of the emulated table with every class
	                                   * (computed; 0 without rows) */
	/* Relative speed of one thread of each core type running alone, and
	 * the combined throughput of a core's SMT threads all busy (0 = not
	 * given), both in MACHINE_SPEED_ONE units. */
	uint16_t speed[MACHINE_CORE_TYPES];
	uint16_t smt_throughput[MACHINE_CORE_TYPES];
	struct machine_power power;       /* `power` (optional) */
	/* `class-speed CLASS TYPE=X`: a thread running code of Thread Director
	 * class c on a core of type t runs at class_speed[c][t] / 1000 of its
	 * rate with class-0 code there (same SMT share, throttle and power;
	 * docs/machines.md). 0 = not given = 1.000; class 0 is always 1.000
	 * (the `speed` line's). class_speed_line[c]: where class c was given. */
	uint16_t class_speed[MACHINE_HFI_CLASSES_MAX][MACHINE_CORE_TYPES];
	unsigned class_speed_line[MACHINE_HFI_CLASSES_MAX];
	struct machine_cpu cpu[MACHINE_MAX_CPUS];
	struct machine_hfi_row hfi[MACHINE_MAX_ROWS];
	unsigned event_count;
	struct machine_event event[MACHINE_MAX_EVENTS];   /* in time order */
};

/* Parse a description (text, len bytes, need not be NUL-terminated) into m.
 * Returns 0, or -1 with "NAME:LINE: reason" in err (NAME = file_name).
 * m's contents are unspecified after an error. No locks, no allocation. */
int machine_parse(struct machine *m, const char *text, size_t len, const char *file_name,
		  char *err, size_t err_size);

/* Override the descriptors of the count logical CPUs (desc[i] = CPU i, NULL
 * if it is not online) with m's topology: core type, SMT/core/module/LLC/
 * package ids, HFI row, the CPUID layout (machine_layout), source =
 * CPU_DESC_FROM_MACHINE_FILE; APIC id and CPUID identification are kept. All-or-nothing: on a mismatch with the
 * running machine returns -1 with a reason in err and changes nothing.
 * A MACHINE_TOPOLOGY_CPUID description changes nothing and returns 0.
 * Caller serialises (boot-time, one CPU). */
int machine_apply(const struct machine *m, struct cpu_desc *const *desc, unsigned count,
		  char *err, size_t err_size);

/* Fills desc[i]->layout (cpu_desc.h) for the count CPUs of m with what an
 * Intel part laid out as m says would report in CPUID: x2APIC ids numbered
 * package, L2 module, core, thread (each field as wide as the largest
 * one needs; modules, cores and packages in the order of their ids), leaf
 * 0x1F's SMT and core levels (`cpuid-levels`), and leaf 4's sharing counts
 * (L1: the core's threads, L2: the module's APIC-id block, L3: the block
 * of its LLC's CPUs). Called by machine_apply(); caller serialises. */
void machine_layout(const struct machine *m, struct cpu_desc *const *desc, unsigned count);

/* The class-speed factor of class cls on core type type, in
 * MACHINE_SPEED_ONE units: MACHINE_SPEED_ONE for class 0, a class or type
 * out of range, or a factor not given. No lock. */
unsigned machine_class_speed(const struct machine *m, unsigned cls, unsigned type);

/* "P", "E", "LP-E" or "none". */
const char *machine_core_type_name(unsigned type);

/* m as hmp's machine provider for CPUs 0..n-1: capacities from speeds,
 * initial scores from HFI rows, SMT shares from smt-throughput
 * (machine_hmp.c). Does not publish. After hmp_init(); no lock. */
void machine_hmp_provide(const struct machine *m, unsigned n);
/* The MACHINE_HFI_F_* bits as `hfi-features` spells them ("hfi,itd,pts",
 * "none") into buf. */
void machine_hfi_features_text(unsigned features, char *buf, size_t size);

#endif
