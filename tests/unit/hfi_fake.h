/* SPDX-License-Identifier: BSD-2-Clause */
/* hfi_fake.h — a scripted machine for the portable HFI driver
 * (kernel/dev/hfi/hfi.h) on the host: the door (CPUID and the
 * package MSRs with their real semantics: R/WC0 log bits, faults on
 * reserved bits), each CPU's thermal LVT, table memory of exact size
 * (AddressSanitizer sees any read outside), hmp, and the log. Every door
 * and LVT access is traced in order, so tests can check the sequence.
 * Shared by tests/unit/test_hfi_*.c and tests/fuzz/fuzz_hfi_table.c. */
#ifndef MOSAIC_TESTS_HFI_FAKE_H
#define MOSAIC_TESTS_HFI_FAKE_H
#include <stdint.h>
#include <dev/hfi/hfi.h>

#define FAKE_CPUS 16
#define FAKE_PKGS 4
#define FAKE_TRACE_MAX 512
#define FAKE_LOG_MAX 64

struct fake_pkg {
	uint64_t ptr, config, status, intr;
};

struct fake {
	unsigned ncpu, self;
	int pkg_of[FAKE_CPUS];                 /* package index of each CPU */
	struct door_cpuid_regs leaf0, leaf6[FAKE_CPUS];
	int classes_now;                       /* >= 0: ECX[15:8] of later CPUID reads */
	int cpuid6_reads;                      /* CPUID 06H reads so far */
	uint64_t misc_enable[FAKE_CPUS];
	uint32_t lvt[FAKE_CPUS];
	int lvt_absent[FAKE_CPUS];
	int run_fails[FAKE_CPUS];              /* hfi_plat_run_on() refuses this CPU */
	struct fake_pkg pkg[FAKE_PKGS];
	/* what went wrong at the "hardware" */
	int faults;                            /* a 1 in a bit the package does not implement */
	int cleared_other_logs;                /* a 0 written over another set log bit */
	int unmasked_unlinked;                 /* an LVT unmasked before its CPU was linked */
	int config_before_ptr;                 /* CONFIG enabled while PTR was not valid */
	/* trace, e.g. "cpu2 wrmsr 0x17d0 0x10001" / "cpu2 lvt 0xfa" */
	char trace[FAKE_TRACE_MAX][64];
	int ntrace;
	char log[FAKE_LOG_MAX][200];
	int nlog;
	/* memory */
	void *tables[2 * FAKE_PKGS];           /* tables and local copies */
	int ntables;
	int alloc_fails;
	/* hmp */
	int hmp_perf[FAKE_CPUS], hmp_ee[FAKE_CPUS];
	unsigned hmp_mask[FAKE_CPUS];
	int hmp_provides, hmp_publishes, hmp_active;
	int hmp_class_provides;   /* columns of classes 1.. given (Thread Director tables) */
	char hmp_why[128];
	struct hfi_drv *drv;                   /* the driver under test (link checks) */
};
extern struct fake fake;

/* A machine of ncpu CPUs in one package: HFI, ITD and PTS, 4 classes,
 * perf+ee, one page, CPU i on row i / 2 (SMT pairs share rows); every LVT
 * fixed-mode and masked, as after INIT. d is the driver under test. */
void fake_reset(unsigned ncpu, struct hfi_drv *d);
/* Leaf 06H of every CPU: eax, ecx, edx with the row of CPU i put in
 * EDX[31:16] as rows[i] (NULL: keep the rows). */
void fake_set_leaf6(uint32_t eax, uint32_t ecx, uint32_t edx_low, const int *rows);
/* hfi_start on the fake's CPUs (all online, packages from pkg_of). */
int fake_start(struct hfi_drv *d);
/* The "hardware" writes package k's table: timestamp ts, row r class c
 * gets perf[r], ee[r] for every class (class c offset by c), then sets
 * status bit 26. rows values for nrows rows. */
void fake_hw_write(struct hfi_drv *d, int k, uint64_t ts, const uint8_t *perf, const uint8_t *ee,
		   unsigned nrows);
/* Index of the first trace line containing s at or after from, or -1. */
int fake_trace_find(const char *s, int from);
/* Number of log lines containing s. */
int fake_log_count(const char *s);
/* Frees the tables. */
void fake_free(void);

#endif
