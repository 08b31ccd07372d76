/* SPDX-License-Identifier: BSD-2-Clause */
/* acpi.c — RSDP, XSDT/RSDT and MADT parsing (ACPI 6.5, chapter 5.2).
 *
 * Every table is reached through the direct map. Tables whose checksum does
 * not add up to zero are reported once and never handed out. */
#include <arch/x86_64/acpi/acpi.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>

#define ACPI_MAX_TABLES 64
#define ACPI_MAX_TABLE_LEN (16u << 20) /* sanity bound on a header's length */

struct acpi_rsdp {
	char signature[8];       /* "RSD PTR " */
	uint8_t checksum;        /* over the first 20 bytes */
	char oem_id[6];
	uint8_t revision;        /* 0: ACPI 1.0; 2: ACPI 2.0+ */
	uint32_t rsdt_phys;
	uint32_t length;         /* revision >= 2 */
	uint64_t xsdt_phys;
	uint8_t ext_checksum;    /* over all `length` bytes */
	uint8_t reserved[3];
} __attribute__((packed));

static const struct acpi_sdt_header *tables[ACPI_MAX_TABLES];
static int table_count;
static struct acpi_madt_info madt_info;

/* Sum of len bytes modulo 256; 0 for a valid ACPI structure. */
static uint8_t acpi_sum(const void *p, uint32_t len)
{
	const uint8_t *b = p;
	uint8_t s = 0;
	for (uint32_t i = 0; i < len; i++)
		s += b[i];
	return s;
}

/* A pointer to the table at phys if its header and checksum are sane, else
 * NULL after a warning. Boot-time. */
static const struct acpi_sdt_header *acpi_map_table(uint64_t phys)
{
	if (phys == 0)
		return NULL;
	const struct acpi_sdt_header *h = phys_to_virt(phys);
	if (h->length < sizeof(*h) || h->length > ACPI_MAX_TABLE_LEN) {
		printk("acpi: table at 0x%lx has bad length %u, skipped\n", phys, h->length);
		return NULL;
	}
	if (acpi_sum(h, h->length) != 0) {
		printk("acpi: table %.4s at 0x%lx has a bad checksum, skipped\n", h->signature, phys);
		return NULL;
	}
	return h;
}

/* Record every valid table the root table lists. entry_size is 8 for the
 * XSDT and 4 for the RSDT. Boot-time. */
static void acpi_scan_root(const struct acpi_sdt_header *root, unsigned entry_size)
{
	const uint8_t *entries = (const uint8_t *)(root + 1);
	uint32_t n = (root->length - sizeof(*root)) / entry_size;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t phys = 0;
		memcpy(&phys, entries + (uint64_t)i * entry_size, entry_size);
		const struct acpi_sdt_header *h = acpi_map_table(phys);
		if (!h)
			continue;
		if (table_count == ACPI_MAX_TABLES) {
			printk("acpi: more than %d tables, ignoring the rest\n", ACPI_MAX_TABLES);
			return;
		}
		tables[table_count++] = h;
	}
}

/* Read the MADT into madt_info and log what was not taken as is. */
static void acpi_read_madt(const struct acpi_sdt_header *madt)
{
	const struct acpi_madt_info *m = &madt_info;
	if (acpi_madt_parse((const uint8_t *)madt, madt->length, &madt_info)) {
		printk("acpi: MADT too short (%u bytes)\n", madt->length);
		return;
	}
	if (m->malformed_at)
		printk("acpi: MADT entry at offset %d has a bad length; the entries after it are "
		       "ignored\n", m->malformed_at);
	if (m->x2apic_entries)
		printk("acpi: MADT: %u processors from x2APIC entries\n", m->x2apic_entries);
	if (m->online_capable)
		printk("acpi: MADT: %u online-capable processors (hot-pluggable, not present now) "
		       "are not started\n", m->online_capable);
	if (m->disabled)
		printk("acpi: MADT: %u disabled processor entries ignored\n", m->disabled);
	if (m->duplicates)
		printk("acpi: MADT: %u processors listed twice (xAPIC and x2APIC); counted once\n",
		       m->duplicates);
	if (m->bad_ids)
		printk("acpi: MADT: %u enabled processors with the invalid APIC id 0xFF/0xFFFFFFFF "
		       "ignored\n", m->bad_ids);
	if (m->short_entries)
		printk("acpi: MADT: %u entries too short for their type skipped\n", m->short_entries);
	if (m->ioapics_dropped || m->overrides_dropped)
		printk("acpi: MADT: %u IOAPICs and %u overrides beyond %d/%d ignored\n",
		       m->ioapics_dropped, m->overrides_dropped, ACPI_MAX_IOAPICS, ACPI_MAX_OVERRIDES);
}

/* See acpi.h. Boot-time, single CPU. */
int acpi_init(uint64_t rsdp_phys)
{
	if (rsdp_phys == 0) {
		printk("acpi: the loader found no RSDP; running without ACPI\n");
		return -1;
	}
	const struct acpi_rsdp *rsdp = phys_to_virt(rsdp_phys);
	if (memcmp(rsdp->signature, "RSD PTR ", 8) != 0) {
		printk("acpi: no RSDP signature at 0x%lx\n", rsdp_phys);
		return -1;
	}
	if (acpi_sum(rsdp, 20) != 0) {
		printk("acpi: RSDP checksum is bad\n");
		return -1;
	}
	int use_xsdt = 0;
	if (rsdp->revision >= 2) {
		if (rsdp->length < sizeof(*rsdp) || rsdp->length > 4096 ||
		    acpi_sum(rsdp, rsdp->length) != 0)
			printk("acpi: RSDP extended checksum is bad, ignoring the XSDT\n");
		else
			use_xsdt = rsdp->xsdt_phys != 0;
	}

	const struct acpi_sdt_header *root = NULL;
	if (use_xsdt) {
		root = acpi_map_table(rsdp->xsdt_phys);
		if (root && memcmp(root->signature, "XSDT", 4) == 0)
			acpi_scan_root(root, 8);
		else
			root = NULL;
	}
	if (!root) {
		root = acpi_map_table(rsdp->rsdt_phys);
		if (!root || memcmp(root->signature, "RSDT", 4) != 0) {
			printk("acpi: neither XSDT nor RSDT is usable\n");
			return -1;
		}
		acpi_scan_root(root, 4);
	}

	printk("acpi: revision %u, %.6s, %s with %d tables:", rsdp->revision, rsdp->oem_id,
	       root->signature[0] == 'X' ? "XSDT" : "RSDT", table_count);
	for (int i = 0; i < table_count; i++)
		printk(" %.4s", tables[i]->signature);
	printk("\n");

	const struct acpi_sdt_header *madt = acpi_find_table("APIC", 0);
	if (madt)
		acpi_read_madt(madt);
	if (madt_info.present)
		printk("acpi: MADT: LAPIC 0x%lx, %d CPUs, %d IOAPICs, %d overrides%s\n",
		       madt_info.lapic_phys, madt_info.cpu_count, madt_info.ioapic_count,
		       madt_info.override_count, madt_info.has_8259 ? ", 8259 present" : "");
	else
		printk("acpi: no MADT\n");
	return 0;
}

/* Lock-free: the table list is fixed after acpi_init(). */
const struct acpi_sdt_header *acpi_find_table(const char *sig, int n)
{
	for (int i = 0; i < table_count; i++)
		if (memcmp(tables[i]->signature, sig, 4) == 0 && n-- == 0)
			return tables[i];
	return NULL;
}

/* Lock-free: written once by acpi_init(). */
const struct acpi_madt_info *acpi_madt(void)
{
	return &madt_info;
}
