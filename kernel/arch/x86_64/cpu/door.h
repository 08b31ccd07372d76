/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * door.h — the one door between drivers and the CPU's model-specific
 * state: every MSR access and every CPUID query of the HFI driver (and of
 * the hmp providers that read CPU registers) goes through door_rdmsr(),
 * door_wrmsr() and door_cpuid().
 *
 * On real hardware they are the RDMSR / WRMSR / CPUID instructions. Under
 * QEMU with a machine description that presents an HFI (docs/machines.md,
 * docs/hfi.md), the door routes the HFI MSRs (IA32_HW_FEEDBACK_PTR 0x17D0,
 * IA32_HW_FEEDBACK_CONFIG 0x17D1, IA32_PACKAGE_THERM_STATUS 0x1B1,
 * IA32_PACKAGE_THERM_INTERRUPT 0x1B2) and the HFI fields of CPUID leaf
 * 0x06 to the emulated HFI device (kernel/emul/), which
 * follows the hardware protocol; and the Thread Director MSRs (0x17D2,
 * 0x17D4, 0x17DA), HRESET and the CPUID bits announcing them to the
 * emulated Thread Director (kernel/emul/emul_itd.c); with a power line the
 * RAPL MSRs (0x606, 0x611, 0x639) to the emulated energy counters
 * (kernel/emul/emul_rapl.c). A driver cannot tell the two apart (only
 * its messages ask, through door_emulated()): real-hardware code (the HFI
 * driver, kernel/dev/hfi/) and the emulated platform (kernel/emul/)
 * meet only here, and the emulated side of the door is every emul_door_*
 * function.
 *
 * The three act on the calling CPU (package-scope MSRs: its package), like
 * the instructions. Any context; they take no lock a caller could hold
 * except the device's own leaf lock.
 */
#ifndef MOSAIC_ARCH_DOOR_H
#define MOSAIC_ARCH_DOOR_H
#include <stdint.h>

#define MSR_IA32_MISC_ENABLE           0x1A0
#define MSR_IA32_PACKAGE_THERM_STATUS  0x1B1
#define MSR_IA32_PACKAGE_THERM_INTERRUPT 0x1B2
#define MSR_IA32_HWP_CAPABILITIES      0x771
#define MSR_IA32_HW_FEEDBACK_PTR       0x17D0
#define MSR_IA32_HW_FEEDBACK_CONFIG    0x17D1
/* Thread Director (Intel SDM vol. 3B, "Intel Thread Director"; vol. 4,
 * the MSR tables): per logical CPU. */
#define MSR_IA32_THREAD_FEEDBACK_CHAR  0x17D2   /* bits 7:0 class, bit 63 valid */
#define MSR_IA32_HW_FEEDBACK_THREAD_CONFIG 0x17D4   /* bit 0: enable ITD classification */
#define MSR_IA32_HRESET_ENABLE         0x17DA   /* bit 0: HRESET may reset the ITD history */
#define HRESET_ITD_HISTORY             0x1u     /* HRESET's EAX bit 0 (CPUID.20H:EBX[0]) */

/* RAPL, the running average power limit interface (Intel SDM vol. 3B,
 * "Platform Specific Power Management Support", RAPL): package scope. */
#define MSR_RAPL_POWER_UNIT            0x606    /* bits 3:0 power, 12:8 energy, 19:16 time units (1/2^n) */
#define MSR_PKG_ENERGY_STATUS          0x611    /* bits 31:0: package energy, wrapping, energy units */
#define MSR_PP0_ENERGY_STATUS          0x639    /* the same for the cores (power plane 0) */

struct door_cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* The value of msr on the calling CPU. The caller has checked (CPUID,
 * through door_cpuid) that the MSR exists: on hardware an absent MSR
 * faults. */
uint64_t door_rdmsr(uint32_t msr);
/* Writes v to msr on the calling CPU (same precondition). */
void door_wrmsr(uint32_t msr, uint64_t v);
/* msr's value into *v: 0, or -1 when the read faults (#GP: the MSR does
 * not exist, or the emulated device counts the read as a fault). For the
 * MSRs a driver reads on every context switch, where a fault must not
 * stop the kernel. */
int door_rdmsr_safe(uint32_t msr, uint64_t *v);
/* HRESET with EAX = eax on the calling CPU (Intel SDM vol. 2B, HRESET:
 * resets the history of the components in eax that IA32_HRESET_ENABLE
 * enables). The caller has checked CPUID.07H.01H:EAX[22]. QEMU's TCG does
 * not know the instruction (it raises #UD), so under emulation only the
 * device answers it. */
void door_hreset(uint32_t eax);
/* CPUID leaf/subleaf on the calling CPU, with the emulated HFI's leaf 0x06
 * fields when the device is active. */
void door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r);
/* 1 when the emulated HFI device answers behind the door, for messages
 * only: a driver acts the same either way. Any context. */
int door_emulated(void);

/* The emulated platform's side of the door (kernel/emul/emul_door.c, which
 * asks the Thread Director and the HFI device), called by door.c only:
 * the MSR functions return 1 when a device answers msr itself (filling
 * *v), emul_door_rdmsr() -1 when it answers with what would be a #GP on
 * hardware (*v = 0), 0 when no device has msr; emul_door_cpuid() gets r
 * with the real CPUID values and overwrites the fields the devices
 * present (returns 1 if it did). */
int emul_door_rdmsr(uint32_t msr, uint64_t *v);
int emul_door_wrmsr(uint32_t msr, uint64_t v);
int emul_door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r);
/* The same for HRESET: 1 when the device took it. */
int emul_door_hreset(uint32_t eax);
/* 1 while a device answers (the HFI device or the RAPL counters). */
int emul_door_active(void);

#endif
