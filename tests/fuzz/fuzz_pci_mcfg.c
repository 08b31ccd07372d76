/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the ACPI MCFG parser (kernel/dev/pci_mcfg.c): tables
 * built from a model (1..10 entries, good and bad bases and bus ranges),
 * sometimes mutated, parsed from an exact-size copy; the result must match
 * the model's verdict and entries, and a refused table leaves nothing. */
#include <tests/fuzz/fuzz.h>
#include <dev/pci_mcfg.h>

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* Reference verdict for the bytes b[0..len). */
static int model_ok(const uint8_t *b, size_t len)
{
	if (len < 44 || memcmp(b, "MCFG", 4))
		return 0;
	uint64_t t = le(b + 4, 4);
	if (t < 44 || t > len || (t - 44) % 16 || (t - 44) / 16 > PCI_MCFG_MAX)
		return 0;
	for (uint64_t off = 44; off < t; off += 16) {
		uint64_t base = le(b + off, 8);
		unsigned s = b[off + 10], e = b[off + 11];
		if (!base || base % (1u << 20) || s > e || base >= (1ull << 52) ||
		    (1ull << 52) - base < ((uint64_t)e + 1) << 20)
			return 0;
	}
	return 1;
}

static void fuzz_one(struct fuzz *f)
{
	uint8_t b[256];
	int n = 1 + (int)fuzz_below(f, 10);
	size_t len = 44 + 16 * (size_t)n;
	memset(b, 0, sizeof(b));
	memcpy(b, "MCFG", 4);
	b[4] = (uint8_t)len;
	for (int i = 0; i < n; i++) {
		uint8_t *e = b + 44 + 16 * i;
		uint64_t base = fuzz_below(f, 8) ? (fuzz_below(f, 1u << 20) + 1) << 20 : fuzz_u64(f);
		for (int k = 0; k < 8; k++)
			e[k] = (uint8_t)(base >> (8 * k));
		e[8] = (uint8_t)fuzz_below(f, 3);
		e[10] = (uint8_t)fuzz_below(f, 8);
		e[11] = (uint8_t)(fuzz_below(f, 8) ? 255 - fuzz_below(f, 250) : fuzz_below(f, 256));
	}
	if (fuzz_below(f, 3) == 0)
		fuzz_mutate(f, b, &len, sizeof(b));
	uint8_t *copy = malloc(len ? len : 1);
	memcpy(copy, b, len);
	struct pci_mcfg m;
	char err[96];
	err[0] = 0;
	int r = pci_mcfg_parse(copy, len, &m, err, sizeof(err));
	int want = model_ok(b, len);
	if ((r == 0) != want)
		fuzz_fail(f, "parser %d, model %d (%s)", r, want, err);
	if (r && (m.count != 0 || !err[0]))
		fuzz_fail(f, "refused table left entries or no reason");
	for (int i = 0; r == 0 && i < m.count; i++) {
		const uint8_t *e = b + 44 + 16 * i;
		if (m.ecam[i].base != le(e, 8) || m.ecam[i].segment != le(e + 8, 2) ||
		    m.ecam[i].start_bus != e[10] || m.ecam[i].end_bus != e[11])
			fuzz_fail(f, "entry %d differs from the table", i);
	}
	free(copy);
}

FUZZ_MAIN("pci_mcfg")
