/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi_madt.c — the MADT's entries (ACPI 6.5, 5.2.12): processors (local
 * APIC type 0, local x2APIC type 9), I/O APICs, interrupt source
 * overrides, the 64-bit local APIC address. Portable C, no kernel calls:
 * the kernel (acpi.c) logs what it found, the host tests
 * (tests/unit/test_acpi_madt.c) and the fuzz harness run it on synthetic
 * tables. Processor flags: bit 0 enabled, bit 1 online-capable (present
 * from MADT revision 5: the CPU can be brought online later, so it is
 * not started at boot). APIC ids need not be dense nor start at 0 (a
 * Meteor Lake boot CPU is 0x20); the same id listed twice counts once.
 */
#include <arch/x86_64/acpi/acpi.h>
#include <lib/string.h>

#define MADT_FIXED 44              /* header, local APIC address, flags */
#define CPU_ENABLED        0x1u
#define CPU_ONLINE_CAPABLE 0x2u

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One processor entry: enabled ones are kept once each. */
static void add_cpu(struct acpi_madt_info *m, uint32_t apic_id, uint32_t flags, int x2, int bad)
{
	if (!(flags & CPU_ENABLED)) {
		if (flags & CPU_ONLINE_CAPABLE)
			m->online_capable++;
		else
			m->disabled++;
		return;
	}
	if (bad) {
		m->bad_ids++;
		return;
	}
	for (int i = 0; i < m->cpu_count; i++) {
		if (m->cpu_apic_ids[i] == apic_id) {
			m->duplicates++;
			return;
		}
	}
	m->cpu_total++;
	m->x2apic_entries += x2 != 0;
	if (m->cpu_count < ACPI_MAX_CPUS)
		m->cpu_apic_ids[m->cpu_count++] = apic_id;
}

/* See acpi.h. */
int acpi_madt_parse(const uint8_t *b, size_t len, struct acpi_madt_info *out)
{
	memset(out, 0, sizeof(*out));
	if (len < MADT_FIXED || get32(b + 4) < MADT_FIXED)
		return -1;
	size_t tlen = get32(b + 4) < len ? get32(b + 4) : len;
	out->present = 1;
	out->lapic_phys = get32(b + 36);
	out->has_8259 = get32(b + 40) & 1;
	for (size_t off = MADT_FIXED; off < tlen;) {
		if (tlen - off < 2 || b[off + 1] < 2 || b[off + 1] > tlen - off) {
			out->malformed_at = (int)off;
			break;
		}
		const uint8_t *e = b + off;
		uint8_t type = e[0], elen = e[1];
		off += elen;
		switch (type) {
		case 0:   /* processor local APIC */
			if (elen < 8)
				out->short_entries++;
			else
				add_cpu(out, e[3], get32(e + 4), 0, e[3] == 0xFF);
			break;
		case 1:   /* I/O APIC */
			if (elen < 12) {
				out->short_entries++;
			} else if (out->ioapic_count == ACPI_MAX_IOAPICS) {
				out->ioapics_dropped++;
			} else {
				struct acpi_ioapic *io = &out->ioapics[out->ioapic_count++];
				io->id = e[2];
				io->phys = get32(e + 4);
				io->gsi_base = get32(e + 8);
			}
			break;
		case 2:   /* interrupt source override (bus 0: ISA) */
			if (elen < 10) {
				out->short_entries++;
			} else if (e[2] == 0) {
				if (out->override_count == ACPI_MAX_OVERRIDES) {
					out->overrides_dropped++;
				} else {
					struct acpi_override *ov = &out->overrides[out->override_count++];
					ov->isa_irq = e[3];
					ov->gsi = get32(e + 4);
					ov->flags = (uint16_t)(e[8] | e[9] << 8);
				}
			}
			break;
		case 5:   /* local APIC address override */
			if (elen < 12)
				out->short_entries++;
			else
				out->lapic_phys = get32(e + 4) | (uint64_t)get32(e + 8) << 32;
			break;
		case 9:   /* processor local x2APIC */
			if (elen < 16)
				out->short_entries++;
			else
				add_cpu(out, get32(e + 4), get32(e + 8), 1, get32(e + 4) == 0xFFFFFFFFu);
			break;
		default:
			break;
		}
	}
	return 0;
}
