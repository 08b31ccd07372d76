/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pci.h — PCI configuration space (ECAM from the ACPI MCFG table, or the
 * legacy 0xCF8/0xCFC ports when there is none), the functions found at
 * boot, their BARs and capabilities, and MSI / MSI-X set-up.
 */
#ifndef MOSAIC_PCI_H
#define MOSAIC_PCI_H
#include <stddef.h>
#include <stdint.h>

#define PCI_MAX_DEVICES 128

struct pci_dev {
	uint16_t segment;
	uint8_t bus, dev, func;
	uint8_t header_type;     /* bits 6:0 of the header type register */
	uint16_t vendor, device;
	uint8_t class_code, subclass, prog_if;
};

/* Standard configuration registers used outside pci.c. */
#define PCI_COMMAND          0x04
#define PCI_CMD_MEMORY       0x0002
#define PCI_CMD_BUS_MASTER   0x0004
#define PCI_CMD_INTX_DISABLE 0x0400
#define PCI_CAP_MSI          0x05
#define PCI_CAP_MSIX         0x11

/* Find the configuration mechanism and list every function reachable from
 * the first bus of segment 0 (through PCI-PCI bridges). Logs the source
 * and the count; a refused MCFG is logged and the legacy ports used.
 * Boot-time, after acpi_init() and heap_init(), one CPU. */
void pci_init(void);
/* Functions found by pci_init(); read-only afterwards (no lock). */
int pci_count(void);
const struct pci_dev *pci_get(int i);

/* Configuration reads and writes; off must be aligned to the size.
 * Any context (the legacy ports are serialized by a spinlock). */
uint32_t pci_read32(const struct pci_dev *d, uint16_t off);
uint16_t pci_read16(const struct pci_dev *d, uint16_t off);
uint8_t pci_read8(const struct pci_dev *d, uint16_t off);
void pci_write32(const struct pci_dev *d, uint16_t off, uint32_t v);
void pci_write16(const struct pci_dev *d, uint16_t off, uint16_t v);

/* Offset of the first capability with this id, 0 if none (the list is
 * walked at most 48 steps, so a looping list ends). */
uint8_t pci_find_cap(const struct pci_dev *d, uint8_t id);
/* A memory BAR's physical address and size (sized with decoding off);
 * 0 when the BAR is absent, an I/O BAR, or unassigned. Boot or driver
 * set-up, before the driver turns decoding on. */
uint64_t pci_bar_mem(const struct pci_dev *d, int bar, uint64_t *size);
/* Route the function's interrupts to vector on the CPU with APIC id
 * apic_id: MSI-X entry 0 if it has MSI-X, else MSI; INTx is disabled.
 * Returns "MSI-X" or "MSI", or NULL with a reason in why (no capability,
 * APIC id not reachable by a message address, table BAR unusable). */
const char *pci_msi_route(const struct pci_dev *d, uint8_t vector, uint32_t apic_id,
			  char *why, size_t why_len);
/* "bus:dev.func" for messages. */
void pci_name(const struct pci_dev *d, char *buf, size_t len);
#endif
