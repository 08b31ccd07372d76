/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_hfi_dev.h — private to the emulated HFI device (emul_hfi.c: state,
 * the door's MSR and CPUID answers, table writes, interrupts;
 * emul_hfi_inject.c: events, the shell's injections, reading).
 */
#ifndef MOSAIC_EMUL_HFI_DEV_H
#define MOSAIC_EMUL_HFI_DEV_H
#include <emul/machine_desc/machine.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/spinlock.h>
#include <sync/timer.h>
#include <emul/emul_hfi.h>

/* Rows whose values a table write changed: handed to emul_hfi_row_changed()
 * once the lock is released. */
struct emul_hfi_changed {
	uint64_t rows[MACHINE_MAX_ROWS / 64];
};

/* One package: its MSRs and its table's history. */
struct emul_hfi_pkg {
	uint32_t package;
	uint64_t ptr, config, status, intr;   /* the four package-scoped MSRs */
	uint64_t ts;                          /* timestamp of the last write */
	int pending;                          /* a change waits for the acknowledgement */
	int full;                             /* next write flags every column changed */
	struct machine_hfi_value *last;       /* rows x classes as last written here */
	uint64_t enables, changes, writes, coalesced, acks, disables;
};

struct emul_hfi_dev {
	int active;
	const struct machine *m;
	unsigned rows, classes, features, pages;
	uint32_t max_leaf;                    /* the real CPUID.0:EAX */
	struct spinlock lock;
	struct machine_hfi_value cur[MACHINE_MAX_ROWS][MACHINE_HFI_CLASSES_MAX];
	struct machine_hfi_value written[MACHINE_MAX_ROWS][MACHINE_HFI_CLASSES_MAX];
	uint8_t was_written[MACHINE_MAX_ROWS];
	int npkg;
	struct emul_hfi_pkg pkg[EMUL_HFI_MAX_PKGS];
	int8_t cpu_pkg[MAXCPU];               /* package index of each CPU, -1 none */
	uint64_t changes, faults, raised, masked;
	unsigned next_event;                  /* first description event not applied */
	struct timer timer;                   /* next event, or a frozen device's poll */
};

extern struct emul_hfi_dev emul_hfi;
/* sysctl kern.emul.hfi: 1 runs, 0 freezes. */
extern int64_t emul_hfi_running;

/* Take the device lock (interrupts off); release it, then report the
 * changed rows to emul_hfi_row_changed(). */
uint64_t emul_hfi_lock(void);
void emul_hfi_unlock(uint64_t flags, const struct emul_hfi_changed *ch);
/* The current values (emul_hfi.cur) changed: each enabled package writes
 * its table now if the driver has acknowledged the last write, else keeps
 * the change pending (coalesced with any already pending). Lock held. */
void emul_hfi_change_locked(struct emul_hfi_changed *ch);
/* Write what is pending on packages whose last write was acknowledged
 * (after a freeze). Lock held, device running. */
void emul_hfi_flush_locked(struct emul_hfi_changed *ch);
/* Arm the device timer for the next event, or for a poll while frozen
 * with work waiting (emul_hfi_inject.c). Lock held. */
void emul_hfi_arm_locked(void);

#endif
