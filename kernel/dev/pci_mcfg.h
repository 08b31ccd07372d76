/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pci_mcfg.h — the ACPI MCFG table (PCI Firmware Specification 3.2,
 * "MCFG Table Description"): where each PCI segment's memory-mapped
 * configuration space (ECAM) lies. Portable C, no kernel dependencies, so
 * the host tests and the fuzz harness run the same parser; no locks.
 */
#ifndef MOSAIC_DEV_PCI_MCFG_H
#define MOSAIC_DEV_PCI_MCFG_H
#include <stddef.h>
#include <stdint.h>

#define PCI_MCFG_MAX 8            /* allocation entries kept */

struct pci_ecam {
	uint64_t base;            /* physical address of bus 0's space (even if start_bus > 0) */
	uint16_t segment;
	uint8_t start_bus, end_bus;
};

struct pci_mcfg {
	int count;
	struct pci_ecam ecam[PCI_MCFG_MAX];
};

/* Parse the whole table tbl[0..len) (header included; len is the bytes
 * the caller may read, which must cover the header's length). Checks the
 * signature, the length against len, that the entries fill the table
 * exactly, and each entry (base 1 MiB aligned and not 0, start <= end, the
 * window below 2^52). Returns 0 with out filled, or -1 with a one-line
 * reason in err naming the entry; out is then left empty (validate
 * everything, then apply). More than PCI_MCFG_MAX entries is refused. */
int pci_mcfg_parse(const uint8_t *tbl, size_t len, struct pci_mcfg *out, char *err,
		   size_t err_len);
#endif
