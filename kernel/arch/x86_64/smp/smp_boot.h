/* smp_boot.h — starting one application processor (smp_boot.c). */
#ifndef MOSAIC_ARCH_SMP_BOOT_H
#define MOSAIC_ARCH_SMP_BOOT_H
#include <stdint.h>
#include <percpu.h>

/* Copy the start-up code below 1 MiB and build its page table. Returns 0,
 * or -1 when there is no free low memory for it. Boot CPU, boot-time,
 * once, after vmm_init(). */
int smp_boot_prepare(void);
/* Start the AP whose record is p (apic_id, stack_top and ist_top filled
 * in) and wait until it reports online. Returns 0, or -1 after timeout_ns
 * (the AP is then sent INIT again and stays offline). Boot CPU, one AP at
 * a time, after smp_boot_prepare(). */
int smp_boot_ap(struct percpu *p, uint64_t timeout_ns);
#endif
