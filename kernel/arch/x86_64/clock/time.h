/* SPDX-License-Identifier: BSD-2-Clause */
/* time.h — monotonic time since boot. */
#ifndef MOSAIC_TIME_H
#define MOSAIC_TIME_H
#include <stdint.h>
#define TIMER_HZ 100
/* Calibrate the TSC (CPUID 0x15, else HPET, else the ACPI PM timer, else
 * PIT, else CPUID 0x16's nominal frequency; each one passed over logged).
 * Needs acpi_init() and vmm_init(); interrupts stay as they were.
 * Boot-time, single CPU (time.c). */
void time_init(void);
/* Start the boot CPU's tick (LAPIC timer, TSC-deadline or periodic,
 * TIMER_HZ, on VEC_LAPIC_TIMER), right after time_init(). Needs
 * idt_init() and lapic_init(). Boot-time, single CPU (tick.c). */
void time_tick_init(void);
/* Start the periodic tick on an AP (the timer was calibrated by
 * time_init()); its ticks count in its own per-CPU record. Per CPU,
 * interrupts off (tick.c). */
void time_init_ap(void);
/* Nanoseconds since time_init() (0 before it); lock-free. */
uint64_t time_ns(void);
/* Busy-wait at least us microseconds. Panics if called before time_init(). */
void time_udelay(uint64_t us);
/* TSC frequency in Hz, 0 before time_init(); lock-free. */
uint64_t time_tsc_hz(void);
/* Timer interrupts counted on the boot CPU since time_init(); lock-free.
 * Per-CPU counts: smp_cpu_ticks(). */
uint64_t time_ticks(void);
#endif
