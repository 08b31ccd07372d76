/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi.h — the Hardware Feedback Interface driver, its portable part: the
 * enable sequence, the thermal-interrupt path (timestamp, copy,
 * acknowledgement), the publication of scores to hmp, and the reading of
 * the table. Portable C: every MSR and CPUID access goes through the door
 * (door.h), everything else the driver needs from the machine through
 * hfi_plat.h, so the whole logic also runs on the host against a scripted
 * door and table (tests/unit/test_hfi_*.c, tests/fuzz/fuzz_hfi_table.c).
 * The kernel side (thermal vector, publisher thread, memory) is
 * hfi_kernel.c; docs/hfi.md describes the whole.
 *
 * Hardware facts, from the Intel SDM: CPUID leaf 06H (vol. 2A) enumerates
 * the interface (EAX[19] HFI, EAX[23] Thread Director, EAX[6] package
 * thermal management, EDX[7:0] capabilities, EDX[11:8] table pages - 1,
 * EDX[31:16] the calling CPU's row, ECX[15:8] classes); the MSRs, the
 * table layout and the update protocol are in vol. 3B, "Hardware Feedback
 * Interface and Intel Thread Director" in the power and thermal management
 * chapter; the thermal LVT in vol. 3A, the APIC chapter.
 *
 * Locking: one event lock per package (a trylock: one CPU of the package
 * handles an update, the others return at once), a sequence count over
 * each package's local copy (the publisher and the shell read it without
 * blocking the interrupt), counters updated atomically. hfi_start() and
 * hfi_publish_step() run in one thread at a time (boot, the publisher).
 */
#ifndef MOSAIC_ARCH_HFI_H
#define MOSAIC_ARCH_HFI_H
#include <stddef.h>
#include <stdint.h>
#include <arch/x86_64/cpu/door.h>

#define HFI_MAX_CPUS 256     /* = MAXCPU */
#define HFI_MAX_PKGS 16      /* packages with a table; more are left without HFI */
#define HFI_WHY_MAX 96

/* At most one publication to hmp per 10 ms: a storm of updates costs the
 * scheduler at most 100 re-resolutions a second; updates in between are
 * coalesced (the newest wins). */
#define HFI_PUBLISH_INTERVAL_NS (10ull * 1000000ull)
/* "Every row reports perf 0" is logged at most once a minute. */
#define HFI_ZERO_LOG_INTERVAL_NS (60ull * 1000000000ull)

/* CPUID leaf 06H (SDM vol. 2A). */
#define HFI_CPUID_LEAF       0x06u
#define HFI_CPUID6_EAX_PTS   (1u << 6)
#define HFI_CPUID6_EAX_HFI   (1u << 19)
#define HFI_CPUID6_EAX_ITD   (1u << 23)
#define HFI_CAP_PERF         0x1u   /* EDX[0]: performance column */
#define HFI_CAP_EE           0x2u   /* EDX[1]: energy-efficiency column */
#define HFI_ROW_NONE         0xFFFFu

/* MSR bits (SDM vol. 3B, thermal chapter; vol. 4, the MSR tables). */
#define HFI_STATUS_CHANGED   (1ull << 26)   /* IA32_PACKAGE_THERM_STATUS: table updated */
#define HFI_STATUS_PTS_LOGS  0xAAAull       /* its log bits 1, 3, 5, 7, 9, 11 (with PTS) */
#define HFI_THERM_INT_HFI    (1ull << 25)   /* IA32_PACKAGE_THERM_INTERRUPT: HFI interrupt */
#define HFI_PTR_VALID        0x1ull         /* IA32_HW_FEEDBACK_PTR bit 0 */
#define HFI_CONFIG_ENABLE    0x1ull         /* IA32_HW_FEEDBACK_CONFIG bit 0 */
#define HFI_CONFIG_ITD       0x2ull         /* bit 1: Thread Director classes */
#define HFI_MISC_ENABLE_TM1  (1ull << 3)    /* IA32_MISC_ENABLE: automatic thermal control */

/* The local APIC's thermal LVT (SDM vol. 3A). */
#define HFI_LVT_MASKED       (1u << 16)
#define HFI_LVT_DM_MASK      0x700u
#define HFI_LVT_DM_FIXED     0x000u
#define HFI_LVT_DM_SMI       0x200u

/* What CPUID 06H enumerates (read on one CPU). */
struct hfi_features {
	uint32_t max_leaf;   /* CPUID.0:EAX */
	uint8_t hfi, itd, pts;
	uint8_t caps;        /* EDX[7:0] */
	uint8_t classes;     /* ECX[15:8] */
	uint8_t pages;       /* EDX[11:8] + 1 */
};

/* Where things are in a table (SDM vol. 3B): an 8-byte timestamp, a
 * header of ncls x ncap change flags rounded up to 8 bytes, then rows of
 * ncls x ncap bytes rounded up to 8. */
struct hfi_layout {
	uint8_t ncap;        /* capability columns (perf, ee) */
	int8_t ee_col;       /* column of ee, -1 without one */
	uint8_t ncls;        /* classes in the table: the enumerated count with ITD on, else 1 */
	uint32_t hdr_size, row_stride, rows_off;
	uint32_t size;       /* pages x 4096 */
	uint32_t rows_fit;   /* rows that fit in size */
};

enum hfi_lvt {
	HFI_LVT_UNSET = 0,
	HFI_LVT_OURS,        /* programmed with our vector, fixed delivery */
	HFI_LVT_FIRMWARE,    /* SMI delivery and TM1 set: firmware's, left alone */
	HFI_LVT_ABSENT,      /* this local APIC has no thermal LVT */
};

struct hfi_cpu {
	int16_t pkg;         /* index into hfi_drv.pkg, -1 none */
	uint8_t online;      /* prepared on its own CPU */
	uint8_t row_ok;      /* row fits the table */
	int32_t row;         /* CPUID.06H:EDX[31:16] read on this CPU, -1 before */
	uint8_t lvt;         /* enum hfi_lvt */
	uint8_t classes;     /* CPUID.06H:ECX[15:8] read on this CPU */
	volatile uint8_t linked;   /* set before its LVT is unmasked */
	uint8_t published;   /* perf/ee below were handed to hmp */
	uint16_t perf, ee;   /* last published, 0..1020 */
};

struct hfi_pkg {
	uint32_t package;            /* package id (cpu_desc) */
	int first_cpu, ncpus;
	int enabled;                 /* PTR and CONFIG programmed */
	int irq_cpus;                /* CPUs whose LVT is ours */
	uint8_t *table;              /* the hardware's, never freed or moved */
	uint64_t table_phys;
	uint8_t *copy;               /* the local copy, lay.size bytes */
	uint32_t event_lock;         /* trylock of the interrupt path */
	uint32_t seq;                /* sequence count over copy: odd while writing;
	                              * seq / 2 = updates copied */
	uint64_t last_ts;            /* timestamp of copy */
	uint64_t consumed;           /* updates the publisher has taken (publisher only) */
	/* Counters (atomic). Every thermal interrupt on a linked CPU is one
	 * of busy, spurious, unchanged, updates. */
	uint64_t interrupts, busy, spurious, unchanged, updates, ts_backwards;
};

struct hfi_drv {
	int on;                      /* a table is enabled on some package */
	char why[HFI_WHY_MAX];       /* status line: what applied, or why not */
	uint8_t vector;              /* the thermal LVT's vector */
	uint8_t itd_on;              /* CONFIG bit 1 set */
	struct hfi_features feat;    /* as enumerated at start */
	struct hfi_layout lay;
	unsigned ncpu;
	unsigned rows_used;          /* highest valid row + 1 */
	struct hfi_cpu cpu[HFI_MAX_CPUS];
	int npkg;
	struct hfi_pkg pkg[HFI_MAX_PKGS];
	uint64_t unlinked;           /* interrupts on CPUs not linked to a table */
	/* Publisher (one thread). publications + coalesced = updates taken. */
	uint64_t publications, coalesced, zero_tables;
	uint64_t last_pub_ns, last_zero_log_ns, zero_unlogged;
	uint8_t logged_classes, logged_backwards;
};

/* What hfi_start() learns about each logical CPU from the kernel. */
struct hfi_cpu_info {
	uint8_t online;
	uint32_t package;
};

/* ---- table (hfi_table.c) ---- */

/* Fills f from CPUID.0:EAX and the leaf-06H registers (r6 ignored when
 * max_leaf < 6). Returns 0 when the interface can be used, else -1 with
 * the reason in why ("CPUID.06H:EAX[19] clear", ...). */
int hfi_features_decode(uint32_t max_leaf, const struct door_cpuid_regs *r6,
			struct hfi_features *f, char *why, size_t why_size);
/* The layout of f's table, with Thread Director classes when itd_on. */
void hfi_layout_init(struct hfi_layout *l, const struct hfi_features *f, int itd_on);
/* Class cls of row in table t (l->size bytes): raw perf and ee (ee 0
 * without the column). Returns -1, reading nothing, when the row or the
 * class is outside the table. */
int hfi_table_read(const struct hfi_layout *l, const uint8_t *t, uint32_t row, unsigned cls,
		   uint8_t *perf, uint8_t *ee);
/* The value to write to IA32_PACKAGE_THERM_STATUS to acknowledge an
 * update: 1 in every log bit this CPU implements except bit 26, 0
 * elsewhere (the log bits are R/WC0: 0 clears, 1 leaves as is; a 1 in a
 * bit the CPU does not implement faults). */
uint64_t hfi_ack_value(const struct hfi_features *f);

/* ---- start (hfi_start.c) ---- */

/* Detects the interface on the calling CPU, prepares every online CPU (its
 * row, its thermal LVT masked with d->vector, the package interrupt
 * enable), allocates one table per package, links the CPUs, unmasks their
 * LVTs, then programs IA32_HW_FEEDBACK_PTR and IA32_HW_FEEDBACK_CONFIG on
 * one CPU of each package; tells hmp its status. d is zeroed except
 * d->vector. Returns 0 when some package is enabled, -1 otherwise (d->why
 * says why). Boot, one thread, interrupts on. */
int hfi_start(struct hfi_drv *d, unsigned ncpu, const struct hfi_cpu_info *info);

/* ---- interrupt (hfi_event.c) ---- */

/* The thermal interrupt on cpu. Returns 1 when a new table was copied (the
 * caller wakes the publisher), 0 otherwise. Interrupts off. */
int hfi_event(struct hfi_drv *d, int cpu);

/* ---- publication (hfi_publish.c) ---- */

/* 1 when some package has an update the publisher has not taken. */
int hfi_publish_pending(const struct hfi_drv *d);
/* Hands the newest scores of every package with a new update to hmp,
 * unless the last publication is less than HFI_PUBLISH_INTERVAL_NS old:
 * then returns the nanoseconds to wait. Returns 0 otherwise. The
 * publisher thread only (it may sleep in between, not inside). */
uint64_t hfi_publish_step(struct hfi_drv *d, uint64_t now_ns);

/* ---- reading (hfi_publish.c) ---- */

/* Class cls of row in package pkg's local copy, read consistently with
 * the interrupt path. -1 when the row or class is outside the table. */
int hfi_copy_read(const struct hfi_drv *d, int pkg, uint32_t row, unsigned cls, uint8_t *perf,
		  uint8_t *ee);
/* The timestamp of package pkg's local copy. */
uint64_t hfi_copy_timestamp(const struct hfi_drv *d, int pkg);
/* A counter, read atomically. */
static inline uint64_t hfi_count(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

#endif
