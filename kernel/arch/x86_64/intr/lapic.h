/* SPDX-License-Identifier: BSD-2-Clause */
/* lapic.h — the local APIC (xAPIC MMIO or x2APIC MSRs, whichever is on). */
#ifndef MOSAIC_ARCH_LAPIC_H
#define MOSAIC_ARCH_LAPIC_H
#include <stdint.h>
/* Enable this CPU's local APIC: spurious vector VEC_SPURIOUS, task priority
 * 0, LINT0 masked (the IOAPIC delivers device interrupts), LINT1 as NMI.
 * Uses x2APIC when the firmware left it on (IA32_APIC_BASE.EXTD) or when a
 * MADT APIC id above 254 needs it (and CPUID offers it), else the
 * xAPIC registers at lapic_phys (0: the base from IA32_APIC_BASE), mapped
 * once with vmm_map_mmio(). Prints its mode on the first call only.
 * Needs vmm_init() and acpi_init(). Boot-time, per CPU. */
void lapic_init(uint64_t lapic_phys);
/* INIT to every other CPU (the all-excluding-self shorthand), through the
 * APIC as the firmware left it (IA32_APIC_BASE: x2APIC MSRs, or the xAPIC
 * page through the loader's direct map): the application processors
 * stop running the firmware's parking loop and wait for a start-up IPI,
 * as the Intel SDM's MP initialisation begins (vol. 3, 9.4.4.1). Under
 * QEMU's TCG the parked APs kept running (measured: the boot CPU's memory
 * set-up took 4.5 s with 4 CPUs and 10.8 s with 20, on 512 MiB), so 19 of
 * them took most of a 2-core host from the boot CPU.
 * Boot CPU, before pmm_init(), interrupts off. */
void lapic_park_others(void);
/* Write the interrupt command register: icr_low (vector, delivery mode,
 * level, shorthand: LAPIC_ICR_*) to APIC id dest (ignored with a
 * shorthand). Waits until an xAPIC has accepted it. Per CPU, interrupts
 * off (the two xAPIC writes must not be split by another IPI send). */
#define LAPIC_ICR_FIXED      0x00000u
#define LAPIC_ICR_NMI        0x00400u
#define LAPIC_ICR_INIT       0x00500u
#define LAPIC_ICR_STARTUP    0x00600u
#define LAPIC_ICR_ASSERT     0x04000u
#define LAPIC_ICR_ALL_BUT_SELF 0xC0000u
void lapic_send_ipi(uint32_t dest, uint32_t icr_low);
/* Signal end of interrupt. Interrupts off (called by the trap dispatcher). */
void lapic_eoi(void);
/* This CPU's APIC id (all 32 bits in x2APIC mode). Needs lapic_init(). */
uint32_t lapic_id(void);
/* 1 when the x2APIC (MSR) interface is in use. */
int lapic_is_x2apic(void);
/* Start the tick at hz interrupts per second on VEC_LAPIC_TIMER: in
 * TSC-deadline mode where the CPU has it (unless tsc_deadline=off), else
 * periodic; the first call chooses, logs the choice, and measures the
 * periodic timer against the TSC (needs time_tsc_hz()). The vector's
 * handler is the caller's business and calls lapic_timer_tick(). Per
 * CPU, interrupts off. */
void lapic_timer_start(uint32_t hz);
/* Arm the next tick (TSC-deadline mode; nothing in periodic mode). From
 * the tick's handler, interrupts off. */
void lapic_timer_tick(void);
/* "TSC deadline", "periodic" or "not started". */
const char *lapic_timer_mode(void);
/* The thermal sensor LVT (xAPIC offset 0x330, x2APIC MSR 0x833; Intel SDM
 * vol. 3A, the APIC chapter): vector bits 7:0, delivery mode bits 10:8
 * (LAPIC_LVT_DM_*), mask bit 16. lapic_has_thermal_lvt() says whether this
 * CPU's APIC has it (the version register's maximum LVT entry is 5 or
 * more). The calling CPU's own register; needs lapic_init(). */
#define LAPIC_LVT_MASKED     0x10000u
#define LAPIC_LVT_DM_MASK    0x700u
#define LAPIC_LVT_DM_FIXED   0x000u
#define LAPIC_LVT_DM_SMI     0x200u
int lapic_has_thermal_lvt(void);
uint32_t lapic_thermal_lvt_read(void);
void lapic_thermal_lvt_write(uint32_t v);
#endif
