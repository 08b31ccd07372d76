/* SPDX-License-Identifier: BSD-2-Clause */
/* acpi.h — finding ACPI tables from the RSDP the loader passed, and the
 * interrupt facts of the MADT. */
#ifndef MOSAIC_ARCH_ACPI_H
#define MOSAIC_ARCH_ACPI_H
#include <stddef.h>
#include <stdint.h>

struct acpi_sdt_header {
	char signature[4];
	uint32_t length;
	uint8_t revision;
	uint8_t checksum;
	char oem_id[6];
	char oem_table_id[8];
	uint32_t oem_revision;
	uint32_t creator_id;
	uint32_t creator_revision;
} __attribute__((packed));

/* Generic Address Structure (ACPI 6.5, 5.2.3.2). */
struct acpi_gas {
	uint8_t space_id;        /* ACPI_GAS_* */
	uint8_t bit_width;
	uint8_t bit_offset;
	uint8_t access_size;
	uint64_t address;
} __attribute__((packed));

#define ACPI_GAS_MEMORY 0
#define ACPI_GAS_IO     1
#define ACPI_GAS_PCI    2

/* Validate RSDP and XSDT/RSDT; tables with bad checksums are reported and
 * skipped. Also reads the MADT (see acpi_madt()). Returns 0 on success, -1
 * when no usable ACPI. Boot-time, single CPU; uses the direct map only. */
int acpi_init(uint64_t rsdp_phys);
/* The n-th table with this 4-char signature (direct-map pointer), or NULL. */
const struct acpi_sdt_header *acpi_find_table(const char *sig, int n);

/* ---- MADT ("APIC") ---- */
#define ACPI_MAX_IOAPICS   8
#define ACPI_MAX_OVERRIDES 16
#define ACPI_MAX_CPUS      256

/* MPS INTI flags of an interrupt source override. */
#define ACPI_POLARITY_MASK  0x3
#define ACPI_POLARITY_LOW   0x3
#define ACPI_TRIGGER_MASK   0xC
#define ACPI_TRIGGER_LEVEL  0xC

struct acpi_ioapic {
	uint8_t id;
	uint64_t phys;           /* register window */
	uint32_t gsi_base;       /* first global system interrupt it serves */
};

struct acpi_override {
	uint8_t isa_irq;         /* bus-relative source (bus 0 = ISA) */
	uint32_t gsi;
	uint16_t flags;          /* ACPI_POLARITY_*, ACPI_TRIGGER_* */
};

struct acpi_madt_info {
	int present;             /* 0: no (valid) MADT was found */
	uint64_t lapic_phys;     /* after the 64-bit override entry, if any */
	int has_8259;            /* PCAT_COMPAT: legacy PICs are present */
	int ioapic_count;
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	int override_count;
	struct acpi_override overrides[ACPI_MAX_OVERRIDES];
	int cpu_count;           /* enabled processors kept (at most ACPI_MAX_CPUS) */
	uint32_t cpu_apic_ids[ACPI_MAX_CPUS]; /* in MADT order; BSP not marked */
	/* What the walk saw besides, for the boot log (acpi.c prints it). */
	unsigned cpu_total;      /* enabled processors listed, also beyond the cap */
	unsigned x2apic_entries; /* enabled ones from x2APIC (type 9) entries */
	unsigned online_capable; /* not enabled now, could be hot-added: not started */
	unsigned disabled;       /* neither enabled nor online-capable: ignored */
	unsigned duplicates;     /* an APIC id listed twice (xAPIC and x2APIC): once */
	unsigned bad_ids;        /* APIC id 0xFF (xAPIC) or 0xFFFFFFFF (x2APIC) */
	unsigned short_entries;  /* known types too short for their fields: skipped */
	unsigned ioapics_dropped, overrides_dropped;  /* beyond the arrays */
	int malformed_at;        /* offset of an entry whose length ends the walk, 0 if none */
};

/* The MADT as read by acpi_init(); present == 0 when there was none.
 * Read-only after boot. */
const struct acpi_madt_info *acpi_madt(void);
/* Parse a whole MADT (tbl[0..len), header included, len checked against
 * the header's length) into *out; portable, bounded (acpi_madt.c): every
 * entry's length is checked against what is left before a field is read.
 * Returns 0, or -1 when the table is too short for its fixed fields (out
 * then has present == 0). No locks. */
int acpi_madt_parse(const uint8_t *tbl, size_t len, struct acpi_madt_info *out);
#endif
