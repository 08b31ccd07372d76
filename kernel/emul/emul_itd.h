/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_itd.h — the emulated Intel Thread Director under QEMU (docs/hfi.md,
 * "Thread Director"): the per-thread classification the hardware reports
 * through IA32_THREAD_FEEDBACK_CHAR, modelled from the work clock (the
 * class of the code each CPU executes, kernel/emul/emul_workclock.h).
 *
 * It answers, through the door (door.h), CPUID.07H.01H:EAX[22] (HRESET),
 * leaf 0x20 (EBX[0]: HRESET resets the Thread Director history; leaf 0's
 * maximum raised to 0x20, leaf 07H's maximum sub-leaf to 1), the MSRs
 * IA32_THREAD_FEEDBACK_CHAR (0x17D2), IA32_HW_FEEDBACK_THREAD_CONFIG
 * (0x17D4) and IA32_HRESET_ENABLE (0x17DA), and HRESET itself. CPUID.06H
 * EAX[23] and ECX[15:8] are the HFI device's (`hfi-features itd`,
 * `hfi-classes`).
 *
 * Active when the HFI device presents Thread Director (`itd` in
 * hfi-features) and the work clock runs. Per-CPU state, touched only by
 * its own CPU with interrupts off; counters are atomic.
 */
#ifndef MOSAIC_EMUL_ITD_H
#define MOSAIC_EMUL_ITD_H
#include <stdint.h>
#include <lib/itd_class.h>

/* How long a CPU must execute code of one class, without a change of
 * class or an HRESET, before IA32_THREAD_FEEDBACK_CHAR reports it valid.
 * The SDM says the classification is valid only once the hardware has
 * observed the code for a while, without a figure; 1 ms of guest time is
 * the model's choice: shorter than a timeslice, so a thread that computes
 * in one class is classified within its run, longer than the few
 * microseconds between an HRESET and a quick switch, so a thread that
 * barely ran reads invalid, as on hardware. */
#define EMUL_ITD_SETTLE_NS 1000000ull

/* Start the device if the description presents Thread Director and the
 * work clock runs (logs what it presents). Boot CPU, once, after
 * emul_hfi_init() and emul_workclock_init(), before the HFI driver. */
void emul_itd_init(void);
/* 1 when the device answers. */
int emul_itd_active(void);

/* The door's questions (emul_door.c): 0 when not the device's (or off);
 * emul_itd_door_rdmsr() returns -1 for a read that faults on hardware. */
struct door_cpuid_regs;
int emul_itd_door_rdmsr(uint32_t msr, uint64_t *v);
int emul_itd_door_wrmsr(uint32_t msr, uint64_t v);
int emul_itd_door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r);
int emul_itd_door_hreset(uint32_t eax);

struct emul_itd_info {
	int active;
	unsigned classes;               /* CPUID.06H:ECX[15:8] */
	uint64_t valid[ITD_CLASS_MAX];  /* reads of 0x17D2 answered valid, per class */
	uint64_t invalid;               /* reads answered not valid */
	uint64_t hresets, hresets_ignored;   /* ignored: HRESET_ENABLE bit 0 clear */
	uint64_t faults;                /* accesses that fault on hardware (ignored) */
	unsigned cpus_enabled;          /* CPUs with THREAD_CONFIG bit 0 set */
};
/* The device's counters. Any context. */
void emul_itd_get_info(struct emul_itd_info *out);

#endif
