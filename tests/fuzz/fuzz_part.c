/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the partition table reader (kernel/fs/part.c). Each
 * input is an MBR or a GPT (with its CRC-32s; the backup GPT too) of up to
 * six random partitions on a device of random size and block size,
 * written by tests/unit/part_build.h, then often mutated in block 0, the
 * GPT headers or the entry array. Whatever the bytes, part_scan() must
 * stay within the device (ASan), return 0 or an FS_E* code with a reason,
 * and keep only entries inside the device, not overlapping, at most
 * PART_MAX; an unmutated table must come back exactly. */
#include <tests/fuzz/fuzz.h>
#include <fs/part.h>
#include <tests/unit/blk_ram.h>
#include <tests/unit/part_build.h>

static const uint8_t *const types[] = { pb_guid_esp, pb_guid_basic, pb_guid_linux };
static const uint8_t mbr_types[] = { 0x0C, 0x0B, 0x06, 0x0E, 0xEF, 0x83, 0x05, 0x07 };

/* Flips, sets or copies a few bytes of blocks the tables live in. */
static void mutate(struct fuzz *f, uint8_t *img, uint32_t bs, uint64_t blocks)
{
	int n = 1 + (int)fuzz_below(f, 8);
	for (int i = 0; i < n; i++) {
		uint64_t block;
		switch (fuzz_below(f, 4)) {
		case 0: block = 0; break;
		case 1: block = 1; break;
		case 2: block = blocks - 1; break;
		default: block = 2 + fuzz_below(f, 32); break;
		}
		uint8_t *p = img + block * bs + fuzz_below(f, bs);
		*p = fuzz_below(f, 2) ? (uint8_t)fuzz_u64(f) : (uint8_t)(*p ^ (1u << fuzz_below(f, 8)));
	}
}

static void fuzz_one(struct fuzz *f)
{
	uint32_t bs = fuzz_below(f, 8) ? 512 : 4096;
	uint64_t blocks = bs == 512 ? 96 + fuzz_below(f, 400) : 48 + fuzz_below(f, 64);
	static uint8_t store[(48 + 400) * 4096];   /* the device reads only through blk_ram's bounds */
	uint8_t *img = store;
	memset(img, 0, blocks * bs);
	struct blk_ram ram;
	blk_ram_init(&ram, img, blocks * bs, bs, "da0");
	struct pb_part p[6];
	int n = (int)fuzz_below(f, 7), gpt = (int)fuzz_below(f, 2);
	uint64_t lo = gpt ? PB_FIRST_USABLE(bs) : 1, hi = gpt ? PB_LAST_USABLE(bs, blocks) : blocks;
	for (int i = 0; i < n; i++) {
		uint64_t a = lo + fuzz_below(f, hi - lo), len = 1 + fuzz_below(f, hi - a + 8);
		p[i] = (struct pb_part){ types[fuzz_below(f, 3)], mbr_types[fuzz_below(f, 8)], a, len,
					 fuzz_below(f, 2) ? "RESULTS" : "" };
	}
	if (gpt)
		pb_gpt(img, bs, blocks, p, n);
	else if (n)
		pb_mbr(img, p, n < 4 ? n : 4);
	int mutated = fuzz_below(f, 3) != 0;
	if (mutated)
		mutate(f, img, bs, blocks);
	struct part_table t;
	char err[128] = "";
	int rc = part_scan(&ram.dev, &t, err, sizeof(err));
	if (rc) {
		if (rc > 0 || !err[0])
			fuzz_fail(f, "refused (%d) without a reason", rc);
	} else {
		if (t.count > PART_MAX || t.scheme > PART_SCHEME_GPT)
			fuzz_fail(f, "%u entries, scheme %u", t.count, t.scheme);
		for (uint32_t i = 0; i < t.count; i++) {
			const struct part_entry *e = &t.e[i];
			if (e->count == 0 || e->start >= blocks || e->count > blocks - e->start)
				fuzz_fail(f, "entry %u (%llu+%llu) outside %llu blocks", e->index,
					  (unsigned long long)e->start, (unsigned long long)e->count,
					  (unsigned long long)blocks);
			if (memchr(e->label, 0, sizeof(e->label)) == NULL)
				fuzz_fail(f, "label not terminated");
			for (uint32_t k = 0; k < i; k++)
				if (e->start < t.e[k].start + t.e[k].count && t.e[k].start < e->start + e->count &&
				    t.scheme != PART_SCHEME_NONE)
					fuzz_fail(f, "entries %u and %u overlap", t.e[k].index, e->index);
			char name[24];
			part_name(&ram.dev, &t, e, name, sizeof(name));
		}
		if (memchr(t.note, 0, sizeof(t.note)) == NULL)
			fuzz_fail(f, "note not terminated");
	}
	/* An intact GPT of well-placed, disjoint entries comes back whole. */
	if (!mutated && gpt && t.scheme == PART_SCHEME_GPT && rc == 0) {
		int good = 1;
		for (int i = 0; i < n; i++) {
			good &= p[i].start + p[i].count <= PB_LAST_USABLE(bs, blocks) + 1;
			for (int k = 0; k < i; k++)
				good &= !(p[i].start < p[k].start + p[k].count && p[k].start < p[i].start + p[i].count);
		}
		if (good && t.count != (uint32_t)n)
			fuzz_fail(f, "an intact GPT of %d entries read as %u (%s)", n, t.count, t.note);
	}
}

FUZZ_MAIN("part")
