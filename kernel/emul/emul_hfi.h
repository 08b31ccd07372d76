/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_hfi.h — the emulated HFI device under QEMU (docs/hfi.md): what a
 * hybrid Intel package presents to an HFI driver, modelled from the
 * machine description (docs/machines.md). It answers CPUID leaf 06H's
 * HFI fields and the four HFI MSRs through the door (door.h), writes the
 * table in the hardware's layout at the address the driver programmed,
 * sets IA32_PACKAGE_THERM_STATUS bit 26 and raises the thermal LVT of the
 * package's CPUs, and writes again only once the driver cleared the bit.
 * Changes come from the description's timed `event` lines and from the
 * shell (`hfi set|throttle|restore|storm`).
 *
 * Active only when the applied description has HFI rows; everything here
 * then runs under one leaf spinlock (interrupts off), any context.
 * sysctl kern.emul.hfi=0 freezes it: no writes, no interrupts, events
 * wait, injections are refused.
 */
#ifndef MOSAIC_EMUL_HFI_H
#define MOSAIC_EMUL_HFI_H
#include <stddef.h>
#include <stdint.h>

#define EMUL_HFI_MAX_PKGS 16
#define EMUL_HFI_STORM_MAX 100000
#define EMUL_HFI_FREEZE_POLL_NS (100ull * 1000000ull)   /* a frozen device looks again */

/* Start the device if the applied description has HFI rows (logs what it
 * presents). Boot CPU, once, after machine_platform_apply() and before the
 * HFI driver starts; interrupts on. */
void emul_hfi_init(void);
/* 1 when the device answers (a description with HFI rows is applied). */
int emul_hfi_active(void);

/* The door's questions (emul_door.c, door.h's emul_door_*): the HFI MSRs
 * and leaf 06H's HFI fields; 0 when msr or leaf is not the device's or
 * it is off. emul_hfi_door_rdmsr() returns -1 for a read that faults on
 * hardware. */
struct door_cpuid_regs;
int emul_hfi_door_rdmsr(uint32_t msr, uint64_t *v);
int emul_hfi_door_wrmsr(uint32_t msr, uint64_t v);
int emul_hfi_door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r);
/* 1 when the calling CPU's package has the HFI and Thread Director on
 * (IA32_HW_FEEDBACK_CONFIG bits 0 and 1): what Thread Director's
 * classification needs besides its own enable. Any context. */
int emul_hfi_itd_enabled(void);

/* The work clock's view: current and initial class-0 perf (0..255) of row
 * as the device last wrote them to a table (current = initial before the
 * first write). 0, or -1 when the device is off or row out of range. Any
 * context. */
int emul_hfi_row_perf(int row, unsigned *now, unsigned *initial);
/* Called by the device right after a table write, once for each row whose
 * values that write changed, without the device lock held, in the writer's
 * context (a thread, the tick, or the driver's interrupt: interrupts may
 * be off; must not sleep). See its definition. */
void emul_hfi_row_changed(int row);

/* ---- the shell's injections: 0, or -1 with a one-line reason in err ---- */

struct cpuset;
/* Row's class cls to perf/ee (each 0..255). */
int emul_hfi_set(unsigned row, unsigned cls, unsigned perf, unsigned ee, char *err, size_t n);
/* The rows of the CPUs in cpus drop to perf in every class (ee kept). */
int emul_hfi_throttle(const struct cpuset *cpus, unsigned ncpu, unsigned perf, char *err, size_t n);
/* Every row back to the description's values. */
int emul_hfi_restore(char *err, size_t n);
/* count (1..EMUL_HFI_STORM_MAX) changes as fast as possible: each flips the
 * lowest perf bit of one row's class 0, the last puts every row back as it
 * was before the storm. */
int emul_hfi_storm(unsigned count, char *err, size_t n);

/* ---- reading (the shell) ---- */

struct emul_hfi_pkg_info {
	uint32_t package;
	uint64_t ptr, config, status;
	uint64_t timestamp;            /* of the last write */
	int pending;                   /* a change waits for the acknowledgement */
	/* writes = enables + changes - coalesced - pending (docs/hfi.md) */
	uint64_t enables, changes, writes, coalesced, acks, disables;
};

struct emul_hfi_info {
	int active, frozen;
	unsigned rows, classes, features, pages;
	unsigned events_done, events_total;
	uint64_t changes;              /* every change, enabled or not */
	uint64_t raised, masked;       /* LVT deliveries; CPUs whose LVT was masked */
	uint64_t faults;               /* writes that fault on hardware (ignored) */
	int npkg;
	struct emul_hfi_pkg_info pkg[EMUL_HFI_MAX_PKGS];
};

/* A consistent copy of the device's state. */
void emul_hfi_get_info(struct emul_hfi_info *out);

#endif
