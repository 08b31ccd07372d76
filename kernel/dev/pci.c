/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pci.c — PCI configuration access and the boot-time scan.
 *
 * Configuration space is reached through the ECAM windows of the ACPI MCFG
 * table (PCI Express Base Specification, "Enhanced Configuration Access
 * Mechanism": bus << 20 | device << 15 | function << 12 | register), each
 * bus's megabyte mapped uncached when first used; without a usable MCFG
 * through the legacy ports 0xCF8/0xCFC (configuration mechanism #1, first
 * 256 bytes only). The scan starts at the first bus of segment 0 and
 * follows PCI-PCI bridges' secondary bus numbers; each bus is visited once.
 */
#include <dev/pci.h>
#include <arch/x86_64/acpi/acpi.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <arch/x86_64/spinlock.h>
#include <lib/string.h>
#include <dev/pci_mcfg.h>

#define PCI_VENDOR       0x00
#define PCI_CLASS_REV    0x08
#define PCI_HEADER_TYPE  0x0E
#define PCI_BAR0         0x10
#define PCI_SECONDARY    0x19
#define PCI_CAP_PTR      0x34
#define PCI_STATUS       0x06
#define PCI_STATUS_CAPS  0x0010
#define MSI_ADDR_BASE    0xFEE00000u

enum pci_access { PCI_NONE, PCI_ECAM, PCI_LEGACY };

static enum pci_access access;
static struct pci_ecam ecam;                 /* segment 0's window */
static volatile uint8_t *bus_map[256];       /* ECAM: each bus's 1 MiB, mapped on first use */
static struct spinlock legacy_lock = SPINLOCK_INIT("pci legacy");
static struct pci_dev devices[PCI_MAX_DEVICES];
static int device_count;
static int devices_dropped;
static uint8_t bus_seen[256 / 8];

/* Address of register off of (bus, dev, func) in the ECAM window; maps the
 * bus on first use. */
static volatile uint8_t *ecam_addr(uint8_t bus, uint8_t dev, uint8_t func, uint16_t off)
{
	if (!bus_map[bus]) {
		uint64_t flags = cpu_save_flags_cli();
		if (!bus_map[bus])
			bus_map[bus] = vmm_map_mmio(ecam.base + ((uint64_t)bus << 20), 1u << 20, 0);
		cpu_restore_flags(flags);
	}
	return bus_map[bus] + ((uint32_t)dev << 15 | (uint32_t)func << 12 | off);
}

/* Legacy mechanism #1: the dword holding off; caller holds legacy_lock. */
static void legacy_select(uint8_t bus, uint8_t dev, uint8_t func, uint16_t off)
{
	outl(0xCF8, 0x80000000u | (uint32_t)bus << 16 | (uint32_t)dev << 11 |
			    (uint32_t)func << 8 | (off & 0xFC));
}

/* One configuration read of size bytes (1, 2, 4); all ones when the
 * register cannot be reached. */
static uint32_t cfg_read(uint8_t bus, uint8_t dev, uint8_t func, uint16_t off, int size)
{
	if (access == PCI_ECAM && bus >= ecam.start_bus && bus <= ecam.end_bus && off < 4096) {
		volatile uint8_t *p = ecam_addr(bus, dev, func, off);
		return size == 4 ? *(volatile uint32_t *)p : size == 2 ? *(volatile uint16_t *)p : *p;
	}
	if (access != PCI_LEGACY || off >= 256)
		return 0xFFFFFFFFu;
	uint64_t flags = spin_lock_irqsave(&legacy_lock);
	legacy_select(bus, dev, func, off);
	uint32_t v = size == 4 ? inl(0xCFC) : size == 2 ? inw(0xCFC + (off & 2)) : inb(0xCFC + (off & 3));
	spin_unlock_irqrestore(&legacy_lock, flags);
	return v;
}

/* One configuration write; ignored when the register cannot be reached. */
static void cfg_write(uint8_t bus, uint8_t dev, uint8_t func, uint16_t off, int size, uint32_t v)
{
	if (access == PCI_ECAM && bus >= ecam.start_bus && bus <= ecam.end_bus && off < 4096) {
		volatile uint8_t *p = ecam_addr(bus, dev, func, off);
		if (size == 4)
			*(volatile uint32_t *)p = v;
		else
			*(volatile uint16_t *)p = (uint16_t)v;
		return;
	}
	if (access != PCI_LEGACY || off >= 256)
		return;
	uint64_t flags = spin_lock_irqsave(&legacy_lock);
	legacy_select(bus, dev, func, off);
	if (size == 4)
		outl(0xCFC, v);
	else
		outw(0xCFC + (off & 2), (uint16_t)v);
	spin_unlock_irqrestore(&legacy_lock, flags);
}

/* See pci.h. */
uint32_t pci_read32(const struct pci_dev *d, uint16_t off) { return cfg_read(d->bus, d->dev, d->func, off, 4); }
uint16_t pci_read16(const struct pci_dev *d, uint16_t off) { return (uint16_t)cfg_read(d->bus, d->dev, d->func, off, 2); }
uint8_t pci_read8(const struct pci_dev *d, uint16_t off) { return (uint8_t)cfg_read(d->bus, d->dev, d->func, off, 1); }
void pci_write32(const struct pci_dev *d, uint16_t off, uint32_t v) { cfg_write(d->bus, d->dev, d->func, off, 4, v); }
void pci_write16(const struct pci_dev *d, uint16_t off, uint16_t v) { cfg_write(d->bus, d->dev, d->func, off, 2, v); }

static void pci_scan_bus(uint8_t bus);

/* Record one present function; follow it if it is a bridge. */
static void pci_add_function(uint8_t bus, uint8_t dev, uint8_t func)
{
	uint32_t id = cfg_read(bus, dev, func, PCI_VENDOR, 4);
	uint32_t cls = cfg_read(bus, dev, func, PCI_CLASS_REV, 4);
	uint8_t hdr = (uint8_t)cfg_read(bus, dev, func, PCI_HEADER_TYPE, 1) & 0x7F;
	if (device_count == PCI_MAX_DEVICES) {
		devices_dropped++;
	} else {
		struct pci_dev *d = &devices[device_count++];
		*d = (struct pci_dev){ .segment = ecam.segment, .bus = bus, .dev = dev, .func = func,
				       .header_type = hdr, .vendor = (uint16_t)id,
				       .device = (uint16_t)(id >> 16), .class_code = (uint8_t)(cls >> 24),
				       .subclass = (uint8_t)(cls >> 16), .prog_if = (uint8_t)(cls >> 8) };
	}
	if (hdr == 1)   /* PCI-PCI bridge */
		pci_scan_bus((uint8_t)cfg_read(bus, dev, func, PCI_SECONDARY, 1));
}

/* Every device and function of bus; each bus once (a bridge loop or a
 * secondary number outside the window ends there). */
static void pci_scan_bus(uint8_t bus)
{
	if (bus_seen[bus / 8] & (1u << (bus % 8)))
		return;
	if (access == PCI_ECAM && (bus < ecam.start_bus || bus > ecam.end_bus))
		return;
	bus_seen[bus / 8] |= (uint8_t)(1u << (bus % 8));
	for (uint8_t dev = 0; dev < 32; dev++) {
		if ((uint16_t)cfg_read(bus, dev, 0, PCI_VENDOR, 2) == 0xFFFF)
			continue;
		int multi = cfg_read(bus, dev, 0, PCI_HEADER_TYPE, 1) & 0x80;
		for (uint8_t func = 0; func < (multi ? 8 : 1); func++)
			if ((uint16_t)cfg_read(bus, dev, func, PCI_VENDOR, 2) != 0xFFFF)
				pci_add_function(bus, dev, func);
	}
}

/* See pci.h. */
void pci_init(void)
{
	const struct acpi_sdt_header *t = acpi_find_table("MCFG", 0);
	struct pci_mcfg mcfg;
	char err[120];
	if (!t) {
		printk("pci: no ACPI MCFG table; using the legacy configuration ports\n");
		access = PCI_LEGACY;
	} else if (pci_mcfg_parse((const uint8_t *)t, t->length, &mcfg, err, sizeof(err))) {
		printk("pci: %s; using the legacy configuration ports\n", err);
		access = PCI_LEGACY;
	} else {
		access = PCI_LEGACY;
		for (int i = 0; i < mcfg.count; i++) {
			if (mcfg.ecam[i].segment == 0 && access != PCI_ECAM) {
				ecam = mcfg.ecam[i];
				access = PCI_ECAM;
			} else {
				printk("pci: MCFG segment %u (buses %u-%u) not scanned: one segment supported\n",
				       mcfg.ecam[i].segment, mcfg.ecam[i].start_bus, mcfg.ecam[i].end_bus);
			}
		}
		if (access != PCI_ECAM)
			printk("pci: MCFG has no segment 0; using the legacy configuration ports\n");
	}
	pci_scan_bus(access == PCI_ECAM ? ecam.start_bus : 0);
	if (access == PCI_ECAM)
		printk("pci: ECAM at 0x%lx (MCFG, buses %u-%u): %d functions\n", ecam.base,
		       ecam.start_bus, ecam.end_bus, device_count);
	else
		printk("pci: legacy ports: %d functions\n", device_count);
	if (devices_dropped)
		printk("pci: %d more functions not recorded (limit %d)\n", devices_dropped,
		       PCI_MAX_DEVICES);
}

/* See pci.h. */
int pci_count(void) { return device_count; }
const struct pci_dev *pci_get(int i) { return i >= 0 && i < device_count ? &devices[i] : NULL; }

/* See pci.h. */
void pci_name(const struct pci_dev *d, char *buf, size_t len)
{
	ksnprintf(buf, len, "%02x:%02x.%u", d->bus, d->dev, d->func);
}

/* See pci.h. */
uint8_t pci_find_cap(const struct pci_dev *d, uint8_t id)
{
	if (!(pci_read16(d, PCI_STATUS) & PCI_STATUS_CAPS))
		return 0;
	uint8_t off = pci_read8(d, PCI_CAP_PTR) & 0xFC;
	for (int steps = 0; off >= 0x40 && steps < 48; steps++) {
		if (pci_read8(d, off) == id)
			return off;
		off = pci_read8(d, off + 1) & 0xFC;
	}
	return 0;
}

/* See pci.h. */
uint64_t pci_bar_mem(const struct pci_dev *d, int bar, uint64_t *size)
{
	uint16_t reg = (uint16_t)(PCI_BAR0 + 4 * bar);
	uint32_t lo = pci_read32(d, reg);
	*size = 0;
	if (bar < 0 || bar > 5 || (lo & 1))
		return 0;
	int wide = ((lo >> 1) & 3) == 2;
	if (wide && bar == 5)
		return 0;
	uint32_t hi = wide ? pci_read32(d, reg + 4) : 0;
	uint16_t cmd = pci_read16(d, PCI_COMMAND);
	pci_write16(d, PCI_COMMAND, cmd & ~PCI_CMD_MEMORY);
	pci_write32(d, reg, 0xFFFFFFFFu);
	uint64_t mask = pci_read32(d, reg) & ~0xFull, hi_mask = 0;
	pci_write32(d, reg, lo);
	if (wide) {
		pci_write32(d, reg + 4, 0xFFFFFFFFu);
		hi_mask = pci_read32(d, reg + 4);
		pci_write32(d, reg + 4, hi);
	}
	pci_write16(d, PCI_COMMAND, cmd);
	uint64_t base = ((uint64_t)hi << 32 | lo) & ~0xFull;
	if (base == 0 || (mask == 0 && hi_mask == 0))
		return 0;   /* unassigned or not implemented */
	mask |= wide ? hi_mask << 32 : 0xFFFFFFFF00000000ull;
	*size = ~mask + 1;
	return base;
}

/* MSI-X entry 0 -> vector; the table lives in one of the function's BARs. */
static const char *msix_route(const struct pci_dev *d, uint8_t cap, uint8_t vector,
			      uint32_t apic_id, char *why, size_t why_len)
{
	uint32_t table = pci_read32(d, cap + 4);
	uint64_t bar_size;
	uint64_t bar = pci_bar_mem(d, (int)(table & 7), &bar_size);
	uint64_t off = table & ~7u;
	if (!bar || off + 16 > bar_size) {
		ksnprintf(why, why_len, "MSI-X table in BAR %u at 0x%lx is not in a memory BAR",
			  table & 7, off);
		return NULL;
	}
	volatile uint32_t *entry = vmm_map_mmio(bar + off, 16, 0);
	uint16_t ctl = pci_read16(d, cap + 2);
	pci_write16(d, cap + 2, ctl | 0x4000 | 0x8000);    /* function mask while programming */
	entry[0] = MSI_ADDR_BASE | apic_id << 12;
	entry[1] = 0;
	entry[2] = vector;                                  /* fixed, edge */
	entry[3] = 0;                                       /* unmasked */
	pci_write16(d, cap + 2, (uint16_t)((ctl | 0x8000) & ~0x4000));
	return "MSI-X";
}

/* See pci.h. */
const char *pci_msi_route(const struct pci_dev *d, uint8_t vector, uint32_t apic_id,
			  char *why, size_t why_len)
{
	if (apic_id > 255) {
		ksnprintf(why, why_len, "APIC id %u cannot be named in a message address "
			  "(no interrupt remapping)", apic_id);
		return NULL;
	}
	const char *how = NULL;
	uint8_t cap = pci_find_cap(d, PCI_CAP_MSIX);
	if (cap) {
		how = msix_route(d, cap, vector, apic_id, why, why_len);
	} else if ((cap = pci_find_cap(d, PCI_CAP_MSI))) {
		uint16_t ctl = pci_read16(d, cap + 2);
		pci_write32(d, cap + 4, MSI_ADDR_BASE | apic_id << 12);
		if (ctl & 0x80) {            /* 64-bit address */
			pci_write32(d, cap + 8, 0);
			pci_write16(d, cap + 12, vector);
		} else {
			pci_write16(d, cap + 8, vector);
		}
		pci_write16(d, cap + 2, (uint16_t)((ctl & ~0x70) | 1));   /* one message, enabled */
		how = "MSI";
	} else {
		ksnprintf(why, why_len, "neither MSI-X nor MSI capability");
	}
	if (how)
		pci_write16(d, PCI_COMMAND, pci_read16(d, PCI_COMMAND) | PCI_CMD_INTX_DISABLE);
	return how;
}
