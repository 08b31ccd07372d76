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
 * follows the hardware protocol. A driver cannot tell the two apart (only
 * its messages ask, through door_emulated()): real-hardware code (the HFI
 * driver, kernel/arch/x86_64/hfi/) and the emulated platform (kernel/emul/)
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

struct door_cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* The value of msr on the calling CPU. The caller has checked (CPUID,
 * through door_cpuid) that the MSR exists: on hardware an absent MSR
 * faults. */
uint64_t door_rdmsr(uint32_t msr);
/* Writes v to msr on the calling CPU (same precondition). */
void door_wrmsr(uint32_t msr, uint64_t v);
/* CPUID leaf/subleaf on the calling CPU, with the emulated HFI's leaf 0x06
 * fields when the device is active. */
void door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r);
/* 1 when the emulated HFI device answers behind the door, for messages
 * only: a driver acts the same either way. Any context. */
int door_emulated(void);

/* The emulated platform's side of the door (kernel/emul/emul_hfi.c), called
 * by door.c only: the MSR functions return 1 when the device answers msr
 * itself (filling *v); emul_door_cpuid() gets r with the real CPUID values
 * and overwrites the fields the device presents (returns 1 if it did). */
int emul_door_rdmsr(uint32_t msr, uint64_t *v);
int emul_door_wrmsr(uint32_t msr, uint64_t v);
int emul_door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r);
/* 1 while the device answers (emul_hfi_active()). */
int emul_door_active(void);

#endif
