/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smp.h — the logical CPUs of this machine: bring-up, per-CPU state, calls
 * to other CPUs. Logical CPU ids are 0..smp_cpu_count()-1; CPU 0 is the
 * boot CPU; the order is the MADT's (boot CPU first).
 */
#ifndef MOSAIC_SMP_H
#define MOSAIC_SMP_H
#include <stdint.h>
#include <lib/cpu_desc.h>

#define MAXCPU 256

/* Start every enabled CPU of the MADT (up to MAXCPU) and wait for each to
 * report online or time out. Boot CPU, boot-time, after time_init(). */
void smp_start_aps(void);
/* CPUs the MADT lists (capped at MAXCPU), online or not. */
unsigned smp_cpu_count(void);
unsigned smp_online_count(void);
int smp_cpu_online(unsigned cpu);
uint32_t smp_cpu_apic_id(unsigned cpu);
uint64_t smp_cpu_ticks(unsigned cpu);
/* The CPU's descriptor (filled by enumeration when it came online, then
 * possibly overridden by a machine description); NULL if never online. */
const struct cpu_desc *smp_cpu_desc(unsigned cpu);
struct cpu_desc *smp_cpu_desc_mut(unsigned cpu);
/* This CPU's logical id (through GS). */
unsigned cpu_current(void);
/* Run fn(arg) on cpu (IPI to the per-CPU mailbox) and wait until it has
 * returned; runs directly when cpu is this one. Returns 0, or -1 if the CPU
 * is offline or did not answer within 20 s (reported; a call slower than
 * 1 s is reported too). Interrupts on; a calling thread is not preempted
 * meanwhile (it may be after). */
int smp_call_on(unsigned cpu, void (*fn)(void *), void *arg);

#endif
