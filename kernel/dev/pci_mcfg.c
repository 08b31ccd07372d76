/* SPDX-License-Identifier: BSD-2-Clause */
/* pci_mcfg.c — the MCFG parser (see pci_mcfg.h). */
#include <dev/pci_mcfg.h>
#include <kern/printk.h>
#include <lib/string.h>

#define MCFG_HEADER 44            /* SDT header (36) + 8 reserved bytes */
#define MCFG_ENTRY  16            /* base (8), segment (2), start, end, 4 reserved */
#define ECAM_LIMIT  (1ull << 52)  /* x86-64 physical addresses */

/* Little-endian reads at a checked offset. */
static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* See pci_mcfg.h. */
int pci_mcfg_parse(const uint8_t *tbl, size_t len, struct pci_mcfg *out, char *err,
		   size_t err_len)
{
	struct pci_mcfg tmp = { 0 };
	out->count = 0;
	if (len < MCFG_HEADER) {
		ksnprintf(err, err_len, "MCFG: %zu bytes, shorter than its 44-byte header", len);
		return -1;
	}
	if (memcmp(tbl, "MCFG", 4) != 0) {
		ksnprintf(err, err_len, "MCFG: signature is not 'MCFG'");
		return -1;
	}
	uint64_t tlen = get_le(tbl + 4, 4);
	if (tlen < MCFG_HEADER || tlen > len) {
		ksnprintf(err, err_len, "MCFG: length %lu outside 44..%zu", (unsigned long)tlen, len);
		return -1;
	}
	if ((tlen - MCFG_HEADER) % MCFG_ENTRY) {
		ksnprintf(err, err_len, "MCFG: length %lu leaves a partial entry", (unsigned long)tlen);
		return -1;
	}
	uint64_t n = (tlen - MCFG_HEADER) / MCFG_ENTRY;
	if (n > PCI_MCFG_MAX) {
		ksnprintf(err, err_len, "MCFG: %lu entries, more than the %d supported",
			  (unsigned long)n, PCI_MCFG_MAX);
		return -1;
	}
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *e = tbl + MCFG_HEADER + i * MCFG_ENTRY;
		struct pci_ecam *ec = &tmp.ecam[i];
		ec->base = get_le(e, 8);
		ec->segment = (uint16_t)get_le(e + 8, 2);
		ec->start_bus = e[10];
		ec->end_bus = e[11];
		if (ec->base == 0 || ec->base & 0xFFFFF) {
			ksnprintf(err, err_len, "MCFG entry %lu: base 0x%lx is not a 1 MiB-aligned address",
				  (unsigned long)i, (unsigned long)ec->base);
			return -1;
		}
		if (ec->start_bus > ec->end_bus) {
			ksnprintf(err, err_len, "MCFG entry %lu: bus range %u-%u is empty",
				  (unsigned long)i, ec->start_bus, ec->end_bus);
			return -1;
		}
		if (ec->base >= ECAM_LIMIT || ((uint64_t)ec->end_bus + 1) << 20 > ECAM_LIMIT - ec->base) {
			ksnprintf(err, err_len, "MCFG entry %lu: window at 0x%lx ends beyond 2^52",
				  (unsigned long)i, (unsigned long)ec->base);
			return -1;
		}
	}
	tmp.count = (int)n;
	*out = tmp;
	return 0;
}
