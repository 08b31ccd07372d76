/* SPDX-License-Identifier: BSD-2-Clause */
/* smp_boot.h — starting one application processor (smp_boot.c). */
#ifndef MOSAIC_ARCH_SMP_BOOT_H
#define MOSAIC_ARCH_SMP_BOOT_H
#include <stdint.h>
#include <arch/x86_64/smp/percpu.h>

/* Copy the start-up code below 1 MiB and build its page table. Returns 0,
 * or -1 when there is no free low memory for it. Boot CPU, boot-time,
 * once, after vmm_init(). */
int smp_boot_prepare(void);
/* One INIT-SIPI-SIPI sequence for the AP whose record is p (apic_id,
 * stack_top and ist_top filled in); it then sets p->entered when it runs
 * kernel C code and p->online when it is ready. send_startup 0 sends INIT
 * only: a start-up the AP never sees (smp.c's planted failure). Boot CPU,
 * one AP at a time, after smp_boot_prepare(). */
void smp_boot_send_startup(struct percpu *p, int send_startup);
/* INIT to the AP of p: back to waiting for a start-up IPI, so a late
 * start cannot run on the trampoline the next AP uses. Boot CPU. */
void smp_boot_stop(struct percpu *p);
/* Logical CPUs 0..n-1 have an id (smp_number_cpus(), smp.c). Boot-time,
 * before any AP starts (smp_cpus.c). */
void smp_cpus_set_count(unsigned n);

#endif
