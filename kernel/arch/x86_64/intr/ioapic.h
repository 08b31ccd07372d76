/* SPDX-License-Identifier: BSD-2-Clause */
/* ioapic.h — routing ISA interrupts through the IOAPIC(s) found in the MADT. */
#ifndef MOSAIC_ARCH_IOAPIC_H
#define MOSAIC_ARCH_IOAPIC_H
#include <stdint.h>
/* Mask all legacy 8259 PIC lines and set up the IOAPICs from ACPI (every
 * redirection entry masked). Needs acpi_init() and vmm_init(). Boot-time. */
void ioapic_init(void);
/* Route ISA irq (0-15, honouring MADT source overrides) to vector on the
 * boot CPU and unmask it. Needs ioapic_init() and lapic_init(). */
void ioapic_route_isa(uint8_t isa_irq, uint8_t vector);
/* Remap the two 8259 PICs away from the exception vectors and mask every
 * line (pic.c). Called by ioapic_init(). Boot-time. */
void pic_disable(void);
#endif
