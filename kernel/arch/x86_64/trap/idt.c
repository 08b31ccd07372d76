/* SPDX-License-Identifier: BSD-2-Clause */
/* idt.c — the interrupt descriptor table (the vector -> handler table is
 * vectors.c's). */
#include <arch/x86_64/trap/trap.h>
#include <stdint.h>

struct idt_entry {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t zero;
} __attribute__((packed));

struct idt_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

extern const uint64_t isr_table[256];
static struct idt_entry idt[256];

static void idt_set_gate(int vec, uint64_t addr, uint8_t ist)
{
	idt[vec].offset_low = addr & 0xFFFF;
	idt[vec].selector = 0x08;
	idt[vec].ist = ist;
	idt[vec].type_attr = 0x8E;   /* present, DPL0, 64-bit interrupt gate */
	idt[vec].offset_mid = (addr >> 16) & 0xFFFF;
	idt[vec].offset_high = addr >> 32;
	idt[vec].zero = 0;
}

/* Boot-time: fills all 256 gates. Double fault, NMI and machine check run
 * on IST stacks of their own: they can arrive while RSP is not a kernel
 * stack (an NMI or #MC in syscall_entry before its stack switch would run
 * on the user's RSP otherwise). */
void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		idt_set_gate(v, isr_table[v], 0);
	idt[8].ist = IST_DOUBLE_FAULT;
	idt[2].ist = IST_NMI;
	idt[18].ist = IST_MACHINE_CHECK;
	idt_load();
}

/* Per CPU: loads the shared IDT. */
void idt_load(void)
{
	struct idt_ptr p = { sizeof(idt) - 1, (uint64_t)idt };
	__asm__ volatile("lidt %0" :: "m"(p));
}
