/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the FADT's PM timer fields
 * (kernel/arch/x86_64/clock/pmtimer_fadt.c): tables of every length
 * around the field offsets, with PM_TMR_BLK, PM_TMR_LEN, the flags and
 * X_PM_TMR_BLK drawn from good and bad values, sometimes mutated, parsed
 * from an exact-size copy (so a read past the table stops AddressSanitizer).
 * The verdict and the place found must match a model of the rules written
 * from the ACPI field layout, and a refusal must say why. */
#include <tests/fuzz/fuzz.h>
#include <arch/x86_64/clock/pmtimer.h>

#define TABLE_MAX 280

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The model: 0 and *want, or -1. Flags at 112 (bit 20 hardware-reduced,
 * bit 8 a 32-bit counter); the 12-byte address structure at 208 (space id,
 * then the address at +4) wins when the table holds it and its address is
 * not 0; else the 32-bit port at 76 with the length byte at 91. Ports must
 * leave room for a 4-byte read below 0x10000. */
static int model(const uint8_t *b, size_t len, struct pmtimer_loc *want)
{
	if (len < 116)
		return -1;
	uint64_t flags = le(b + 112, 4);
	if (flags & (1u << 20))
		return -1;
	want->mask = flags & (1u << 8) ? 0xFFFFFFFFu : 0x00FFFFFFu;
	if (len >= 220 && le(b + 212, 8)) {
		uint64_t addr = le(b + 212, 8);
		if ((b[208] == 1 && addr <= 0xFFFC) || b[208] == 0) {
			want->io = b[208] == 1;
			want->address = addr;
			return 0;
		}
		return -1;
	}
	uint64_t port = le(b + 76, 4);
	if (!port || b[91] < 4 || port > 0xFFFC)
		return -1;
	want->io = 1;
	want->address = port;
	return 0;
}

static uint64_t random_port(struct fuzz *f)
{
	static const uint64_t edge[] = { 0, 1, 0x408, 0x608, 0xFFFC, 0xFFFD, 0xFFFF, 0x10000, 0xFFFFFFFF };
	return fuzz_below(f, 3) ? edge[fuzz_below(f, sizeof(edge) / sizeof(edge[0]))] : fuzz_u64(f) >> 32;
}

static void fuzz_one(struct fuzz *f)
{
	static const size_t lengths[] = { 0, 4, 36, 92, 115, 116, 129, 208, 219, 220, 244, 268, 276 };
	uint8_t b[TABLE_MAX];
	size_t len = fuzz_below(f, 4) ? lengths[fuzz_below(f, sizeof(lengths) / sizeof(lengths[0]))]
				      : fuzz_below(f, TABLE_MAX + 1);
	memset(b, 0, sizeof(b));
	memcpy(b, "FACP", 4);
	put_le(b + 4, len, 4);
	put_le(b + 76, random_port(f), 4);
	b[91] = (uint8_t)(fuzz_below(f, 3) ? 4 : fuzz_below(f, 8));
	uint32_t flags = (uint32_t)(fuzz_below(f, 2) ? 0 : fuzz_u64(f));
	flags &= fuzz_below(f, 4) ? ~(1u << 20) : ~0u;
	put_le(b + 112, flags, 4);
	if (fuzz_below(f, 2)) {
		b[208] = (uint8_t)(fuzz_below(f, 4) ? fuzz_below(f, 2) : fuzz_below(f, 256));
		b[209] = 32;
		b[211] = 3;
		uint64_t addr = fuzz_below(f, 2) ? random_port(f) : fuzz_u64(f) >> fuzz_below(f, 64);
		put_le(b + 212, addr, 8);
	}
	if (fuzz_below(f, 4) == 0)
		fuzz_mutate(f, b, &len, sizeof(b));

	uint8_t *copy = malloc(len ? len : 1);
	memcpy(copy, b, len);
	struct pmtimer_loc got = { .io = 7, .address = 7, .mask = 7 }, want;
	const char *why = NULL;
	int r = pmtimer_fadt_locate(copy, len, &got, &why), m = model(b, len, &want);
	free(copy);
	if (r != m)
		fuzz_fail(f, "parser %d, model %d (length %zu, why %s)", r, m, len, why ? why : "-");
	if (r && !why)
		fuzz_fail(f, "a refused table without a reason");
	if (r == 0 && (got.io != want.io || got.address != want.address || got.mask != want.mask))
		fuzz_fail(f, "found io %d address %#llx mask %#x, model io %d address %#llx mask %#x", got.io,
			  (unsigned long long)got.address, got.mask, want.io, (unsigned long long)want.address,
			  want.mask);
}

FUZZ_MAIN("pmtimer_fadt")
