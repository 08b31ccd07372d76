/* SPDX-License-Identifier: BSD-2-Clause */
/* pic.c — silencing the legacy 8259 pair so only the IOAPIC delivers. */
#include <arch/x86_64/intr/ioapic.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/trap/trap.h>

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xA0
#define PIC2_DATA 0xA1

/* A write to the unused POST port: gives the old PICs time between ICWs. */
static void pic_io_wait(void)
{
	outb(0x80, 0);
}

/* See ioapic.h. The PICs get vectors VEC_ISA_BASE..+15 so that even a
 * spurious IRQ 7/15 lands on an ISA vector, never on an exception. */
void pic_disable(void)
{
	static const uint8_t seq[][2] = {
		{ PIC1_CMD, 0x11 }, { PIC2_CMD, 0x11 },                   /* ICW1: init, ICW4 follows */
		{ PIC1_DATA, VEC_ISA_BASE }, { PIC2_DATA, VEC_ISA_BASE + 8 }, /* ICW2: vector base */
		{ PIC1_DATA, 0x04 }, { PIC2_DATA, 0x02 },                 /* ICW3: slave on line 2 */
		{ PIC1_DATA, 0x01 }, { PIC2_DATA, 0x01 },                 /* ICW4: 8086 mode */
		{ PIC1_DATA, 0xFF }, { PIC2_DATA, 0xFF },                 /* OCW1: mask all */
	};
	for (unsigned i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		outb(seq[i][0], seq[i][1]);
		pic_io_wait();
	}
}
