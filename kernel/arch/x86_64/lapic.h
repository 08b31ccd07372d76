/* lapic.h — the local APIC (xAPIC MMIO or x2APIC MSRs, whichever is on). */
#ifndef MOSAIC_ARCH_LAPIC_H
#define MOSAIC_ARCH_LAPIC_H
#include <stdint.h>
/* Enable this CPU's local APIC: spurious vector VEC_SPURIOUS, task priority
 * 0, LINT0 masked (the IOAPIC delivers device interrupts), LINT1 as NMI.
 * Uses x2APIC when the firmware left it on (IA32_APIC_BASE.EXTD), else the
 * xAPIC registers at lapic_phys (0: the base from IA32_APIC_BASE), mapped
 * once with vmm_map_mmio(). Needs vmm_init(). Boot-time, per CPU. */
void lapic_init(uint64_t lapic_phys);
/* Signal end of interrupt. Interrupts off (called by the trap dispatcher). */
void lapic_eoi(void);
/* This CPU's APIC id (all 32 bits in x2APIC mode). Needs lapic_init(). */
uint32_t lapic_id(void);
/* 1 when the x2APIC (MSR) interface is in use. */
int lapic_is_x2apic(void);
/* Start the periodic timer at hz interrupts per second on VEC_LAPIC_TIMER.
 * The first call measures the timer against the TSC (needs time_tsc_hz()).
 * The vector's handler is the caller's business. Per CPU, interrupts off. */
void lapic_timer_start(uint32_t hz);
#endif
