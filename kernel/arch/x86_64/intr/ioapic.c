/* SPDX-License-Identifier: BSD-2-Clause */
/* ioapic.c — the I/O APICs of the MADT, used to deliver ISA interrupts
 * (82093AA datasheet register layout; every chipset IOAPIC follows it). */
#include <arch/x86_64/intr/ioapic.h>
#include <arch/x86_64/acpi/acpi.h>
#include <arch/x86_64/intr/lapic.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <kern/printk.h>

#define IOAPIC_REGSEL 0x00
#define IOAPIC_WIN    0x10
#define IOAPIC_REG_VER 0x01
#define IOAPIC_REDTBL(n) (0x10 + 2 * (n))

#define RTE_MASKED     (1u << 16)
#define RTE_LEVEL      (1u << 15)
#define RTE_ACTIVE_LOW (1u << 13)

struct ioapic {
	volatile uint32_t *regs;
	uint32_t gsi_base;
	uint32_t gsi_count;
};

static struct ioapic ioapics[ACPI_MAX_IOAPICS];
static int ioapic_count;

/* Indexed register access; the select/window pair must not be split, so
 * callers hold interrupts off. */
static uint32_t ioapic_read(struct ioapic *io, uint32_t reg)
{
	io->regs[IOAPIC_REGSEL / 4] = reg;
	return io->regs[IOAPIC_WIN / 4];
}

static void ioapic_write(struct ioapic *io, uint32_t reg, uint32_t v)
{
	io->regs[IOAPIC_REGSEL / 4] = reg;
	io->regs[IOAPIC_WIN / 4] = v;
}

/* See ioapic.h. Boot-time, single CPU, interrupts off. */
void ioapic_init(void)
{
	const struct acpi_madt_info *madt = acpi_madt();
	if (!madt->present || madt->has_8259)
		pic_disable();
	if (!madt->present || madt->ioapic_count == 0) {
		printk("ioapic: none described by ACPI; device interrupts are unavailable\n");
		return;
	}
	for (int i = 0; i < madt->ioapic_count; i++) {
		struct ioapic *io = &ioapics[ioapic_count++];
		io->regs = vmm_map_mmio(madt->ioapics[i].phys, 0x20, 0);
		io->gsi_base = madt->ioapics[i].gsi_base;
		io->gsi_count = ((ioapic_read(io, IOAPIC_REG_VER) >> 16) & 0xFF) + 1;
		for (uint32_t n = 0; n < io->gsi_count; n++) {
			ioapic_write(io, IOAPIC_REDTBL(n) + 1, 0);
			ioapic_write(io, IOAPIC_REDTBL(n), RTE_MASKED);
		}
		printk("ioapic: id %u at 0x%lx, GSI %u-%u\n", madt->ioapics[i].id,
		       madt->ioapics[i].phys, io->gsi_base, io->gsi_base + io->gsi_count - 1);
	}
}

/* See ioapic.h. Takes no lock; runs with interrupts off for the update. */
void ioapic_route_isa(uint8_t isa_irq, uint8_t vector)
{
	const struct acpi_madt_info *madt = acpi_madt();
	uint32_t gsi = isa_irq;
	uint32_t low = vector;               /* fixed delivery, physical destination */
	for (int i = 0; i < madt->override_count; i++) {
		const struct acpi_override *ov = &madt->overrides[i];
		if (ov->isa_irq != isa_irq)
			continue;
		gsi = ov->gsi;
		/* ISA default (flags 0) is active high, edge triggered. */
		if ((ov->flags & ACPI_POLARITY_MASK) == ACPI_POLARITY_LOW)
			low |= RTE_ACTIVE_LOW;
		if ((ov->flags & ACPI_TRIGGER_MASK) == ACPI_TRIGGER_LEVEL)
			low |= RTE_LEVEL;
		break;
	}
	uint32_t dest = lapic_id();
	if (dest > 0xFF) {
		printk("ioapic: boot CPU APIC id %u is not addressable; IRQ %u not routed\n", dest, isa_irq);
		return;
	}
	for (int i = 0; i < ioapic_count; i++) {
		struct ioapic *io = &ioapics[i];
		if (gsi < io->gsi_base || gsi >= io->gsi_base + io->gsi_count)
			continue;
		uint32_t pin = gsi - io->gsi_base;
		uint64_t flags = cpu_save_flags_cli();
		ioapic_write(io, IOAPIC_REDTBL(pin) + 1, dest << 24);
		ioapic_write(io, IOAPIC_REDTBL(pin), low);
		cpu_restore_flags(flags);
		printk("ioapic: ISA IRQ %u -> GSI %u -> vector 0x%x%s%s\n", isa_irq, gsi, vector,
		       low & RTE_ACTIVE_LOW ? ", active low" : "", low & RTE_LEVEL ? ", level" : "");
		return;
	}
	printk("ioapic: no IOAPIC serves GSI %u (ISA IRQ %u); not routed\n", gsi, isa_irq);
}
