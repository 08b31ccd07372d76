/* SPDX-License-Identifier: BSD-2-Clause */
/* ipi.h — inter-processor interrupts: fixed vectors to one CPU or to all
 * others, and the call-function mailbox (NMIs: nmi.h). */
#ifndef MOSAIC_ARCH_IPI_H
#define MOSAIC_ARCH_IPI_H
#include <stdint.h>

/* IPI vectors, in the 0x30-0xEF range trap.h leaves to devices and IPIs. */
#define VEC_IPI_CALL 0xE0   /* run the per-CPU mailbox's function */
#define VEC_IPI_RESCHED 0xE1   /* the scheduler: a better thread, or repick (thread.h) */
#define VEC_IPI_EMUL_THERM 0xE2   /* the emulated HFI device: raise the thermal LVT (emul/emul_hfi.c) */
#define VEC_IPI_TLB 0xE3   /* flush the TLB: a shootdown of user page tables (cpu/tlb.c) */

/* Install the IPI handlers. Boot CPU, boot-time, before any AP
 * starts. */
void ipi_init(void);
/* Send a fixed-delivery IPI with vector to logical CPU cpu. Any context. */
void ipi_send(unsigned cpu, uint8_t vector);
#endif
