/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the MADT parser (kernel/arch/x86_64/acpi/acpi_madt.c):
 * tables of random processor (xAPIC, x2APIC; enabled, online-capable,
 * disabled; repeated and invalid ids), IOAPIC, override and address
 * entries, sometimes mutated, parsed from an exact-size copy and compared
 * with a reference walk written here. */
#include <tests/fuzz/fuzz.h>
#include <arch/x86_64/acpi/acpi.h>

static uint32_t g32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reference: CPUs kept, and the counters that matter. */
struct ref {
	unsigned cpus, total, online_capable, disabled, dups, bad, ioapics;
	uint32_t ids[ACPI_MAX_CPUS];
	int malformed_at;
};

static void ref_cpu(struct ref *r, uint32_t id, uint32_t flags, int bad)
{
	if (!(flags & 1)) {
		if (flags & 2)
			r->online_capable++;
		else
			r->disabled++;
		return;
	}
	if (bad) {
		r->bad++;
		return;
	}
	for (unsigned i = 0; i < r->cpus; i++)
		if (r->ids[i] == id) {
			r->dups++;
			return;
		}
	r->total++;
	if (r->cpus < ACPI_MAX_CPUS)
		r->ids[r->cpus++] = id;
}

static void ref_walk(const uint8_t *b, size_t len, struct ref *r)
{
	size_t t = g32(b + 4) < len ? g32(b + 4) : len;
	for (size_t off = 44; off < t;) {
		if (t - off < 2 || b[off + 1] < 2 || off + b[off + 1] > t) {
			r->malformed_at = (int)off;
			return;
		}
		const uint8_t *e = b + off;
		if (e[0] == 0 && e[1] >= 8)
			ref_cpu(r, e[3], g32(e + 4), e[3] == 0xFF);
		else if (e[0] == 9 && e[1] >= 16)
			ref_cpu(r, g32(e + 4), g32(e + 8), g32(e + 4) == 0xFFFFFFFFu);
		else if (e[0] == 1 && e[1] >= 12 && r->ioapics < ACPI_MAX_IOAPICS)
			r->ioapics++;
		off += e[1];
	}
}

static void fuzz_one(struct fuzz *f)
{
	uint8_t b[2048];
	size_t n = 44;
	memset(b, 0, 44);
	memcpy(b, "APIC", 4);
	b[40] = (uint8_t)fuzz_below(f, 2);
	int entries = (int)fuzz_below(f, 40);
	for (int i = 0; i < entries && n + 16 <= 1800; i++) {
		uint8_t *e = b + n;
		uint32_t id = fuzz_below(f, 4) ? (uint32_t)fuzz_below(f, 64) : (uint32_t)fuzz_u64(f);
		uint32_t flags = fuzz_below(f, 4) ? 1 : (uint32_t)fuzz_below(f, 4);
		memset(e, 0, 16);
		switch (fuzz_below(f, 5)) {
		case 0: e[0] = 0; e[1] = 8; e[3] = fuzz_below(f, 10) ? (uint8_t)id : 0xFF; break;
		case 1: e[0] = 9; e[1] = 16; break;
		case 2: e[0] = 1; e[1] = 12; break;
		case 3: e[0] = 2; e[1] = 10; break;
		default: e[0] = (uint8_t)fuzz_below(f, 20); e[1] = (uint8_t)(2 + fuzz_below(f, 14)); break;
		}
		if (e[0] == 0)
			memcpy(e + 4, &flags, 4);
		if (e[0] == 9) {
			memcpy(e + 4, &id, 4);
			memcpy(e + 8, &flags, 4);
		}
		n += e[1];
	}
	b[4] = (uint8_t)n;
	b[5] = (uint8_t)(n >> 8);
	if (fuzz_below(f, 3) == 0)
		fuzz_mutate(f, b, &n, sizeof(b));
	uint8_t *copy = malloc(n ? n : 1);
	memcpy(copy, b, n);
	struct acpi_madt_info m;
	int r = acpi_madt_parse(copy, n, &m);
	free(copy);
	if (n < 44 || g32(b + 4) < 44) {
		if (r != -1 || m.present)
			fuzz_fail(f, "a table without its fixed fields was accepted");
		return;
	}
	struct ref ref = { 0 };
	ref_walk(b, n, &ref);
	if (r || (unsigned)m.cpu_count != ref.cpus || m.cpu_total != ref.total ||
	    m.online_capable != ref.online_capable || m.disabled != ref.disabled ||
	    m.duplicates != ref.dups || m.bad_ids != ref.bad || (unsigned)m.ioapic_count != ref.ioapics ||
	    m.malformed_at != ref.malformed_at)
		fuzz_fail(f, "cpus %d/%u total %u/%u dups %u/%u malformed %d/%d", m.cpu_count, ref.cpus,
			  m.cpu_total, ref.total, m.duplicates, ref.dups, m.malformed_at, ref.malformed_at);
	if (memcmp(m.cpu_apic_ids, ref.ids, ref.cpus * sizeof(uint32_t)))
		fuzz_fail(f, "APIC ids differ");
}

FUZZ_MAIN("acpi_madt")
