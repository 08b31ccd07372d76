/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests for the CPUID decoder (kernel/arch/x86_64/cpu/cpuid_decode.c), fed
 * by the dump reader of the replay tool (tools/cpuid-replay/dump.c; its own
 * tests are in test_cpuid_replay.c): the three InstLatx64 dumps in
 * tests/data/cpuid/ must decode to the per-CPU facts read off those dumps
 * (x2APIC id, core type, CPUID.6:EDX HFI row, HWP highest performance), the
 * replay tool must print tests/replay/DUMP.expected, and odd synthetic
 * CPUID values must take their fallbacks without crashing. The tests run
 * from the repository root (`make test`).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lib/cpu_desc.h>
#include <arch/x86_64/cpu/cpuid_decode.h>
#include <tools/cpuid-replay/dump.h>

/* ------------------------------------------------------------ dumps */

#define DUMP_DIR "tests/data/cpuid"

static void dump_path(char *buf, size_t len, const char *file)
{
	snprintf(buf, len, DUMP_DIR "/%s", file);
}

/* Decode every CPU of a shipped dump into descs; returns the CPU count. */
static size_t decode_dump(const char *file, struct cpu_desc *descs, size_t max)
{
	char path[512], err[600];
	struct dump d;
	dump_path(path, sizeof(path), file);
	if (dump_load(path, &d, NULL, NULL, err, sizeof(err)) != 0)
		fail_msg("cannot read the CPUID dump: %s (run the tests from the repository root)",
			 err);
	assert_int_equal(d.skipped, 0);
	assert_true(d.ncpus <= max);
	for (size_t i = 0; i < d.ncpus; i++) {   /* numbered 0..ncpus-1 */
		assert_non_null(d.cpu[i]);
		const struct cpuid_source src = { dump_cpuid, dump_msr, d.cpu[i] };
		cpuid_decode(&src, &descs[i]);
	}
	size_t n = d.ncpus;
	dump_free(&d);
	return n;
}

/* What one CPU of a dump must decode to (read off the dump by hand). */
struct expect {
	uint32_t apic;
	uint8_t type;
	int32_t row;
	uint16_t perf;
};

#define P CPU_CORE_P
#define E CPU_CORE_E
#define LPE CPU_CORE_LPE

static const struct expect rpl[] = {
	{ 0x00, P, 0, 64 }, { 0x01, P, 0, 64 }, { 0x08, P, 1, 64 }, { 0x09, P, 1, 64 },
	{ 0x10, P, 2, 67 }, { 0x11, P, 2, 67 }, { 0x18, P, 3, 67 }, { 0x19, P, 3, 67 },
	{ 0x20, P, 4, 64 }, { 0x21, P, 4, 64 }, { 0x28, P, 5, 64 }, { 0x29, P, 5, 64 },
	{ 0x30, E, 6, 39 }, { 0x32, E, 6, 39 }, { 0x34, E, 6, 39 }, { 0x36, E, 6, 39 },
	{ 0x38, E, 7, 39 }, { 0x3A, E, 7, 39 }, { 0x3C, E, 7, 39 }, { 0x3E, E, 7, 39 },
};
static const struct expect adl[] = {
	{ 0x00, P, 0, 65 }, { 0x01, P, 0, 65 }, { 0x08, P, 1, 65 }, { 0x09, P, 1, 65 },
	{ 0x10, P, 2, 67 }, { 0x11, P, 2, 67 }, { 0x18, P, 3, 67 }, { 0x19, P, 3, 67 },
	{ 0x20, P, 4, 65 }, { 0x21, P, 4, 65 }, { 0x28, P, 5, 65 }, { 0x29, P, 5, 65 },
	{ 0x30, P, 6, 65 }, { 0x31, P, 6, 65 }, { 0x38, P, 7, 65 }, { 0x39, P, 7, 65 },
	{ 0x40, E, 8, 39 }, { 0x42, E, 8, 39 }, { 0x44, E, 8, 39 }, { 0x46, E, 8, 39 },
	{ 0x48, E, 9, 39 }, { 0x4A, E, 9, 39 }, { 0x4C, E, 9, 39 }, { 0x4E, E, 9, 39 },
};
static const struct expect mtl[] = {
	{ 0x20, P, 4, 57 }, { 0x21, P, 5, 57 },
	{ 0x00, E, 12, 38 }, { 0x02, E, 13, 38 }, { 0x04, E, 14, 38 }, { 0x06, E, 15, 38 },
	{ 0x08, E, 16, 38 }, { 0x0A, E, 17, 38 }, { 0x0C, E, 18, 38 }, { 0x0E, E, 19, 38 },
	{ 0x10, P, 0, 60 }, { 0x11, P, 1, 60 }, { 0x18, P, 2, 60 }, { 0x19, P, 3, 60 },
	{ 0x28, P, 6, 57 }, { 0x29, P, 7, 57 }, { 0x30, P, 8, 57 }, { 0x31, P, 9, 57 },
	{ 0x38, P, 10, 57 }, { 0x39, P, 11, 57 },
	{ 0x40, LPE, 20, 25 }, { 0x42, LPE, 21, 25 },
};

/* Checks every per-CPU fact above plus the grouping rules: SMT pairs share
 * a core, E-cores are single-threaded and share an L2 module by fours, LP-E
 * cores have no L3, and the counts per type. */
static void check_part(const char *file, const struct expect *exp, size_t n, uint32_t fms,
		       unsigned np, unsigned ne, unsigned nlpe, uint32_t l3_kb, uint32_t p_l2_kb)
{
	static struct cpu_desc d[64];
	assert_int_equal(decode_dump(file, d, 64), n);
	unsigned count[4] = { 0, 0, 0, 0 };
	for (size_t i = 0; i < n; i++) {
		const struct cpu_desc *c = &d[i];
		if (c->apic_id != exp[i].apic || c->core_type != exp[i].type ||
		    c->hfi_row != exp[i].row || c->perf_hint != exp[i].perf)
			fail_msg("%s cpu %zu: apic 0x%x type %u row %d perf %u, want 0x%x %u %d %u", file,
				 i, c->apic_id, c->core_type, c->hfi_row, c->perf_hint, exp[i].apic,
				 exp[i].type, exp[i].row, exp[i].perf);
		count[c->core_type]++;
		assert_int_equal(c->notes, 0);
		assert_int_equal(c->topo_leaf, 0x1F);
		assert_int_equal(c->vendor, CPU_VENDOR_INTEL);
		assert_int_equal(c->vendor_family_model, fms);
		assert_int_equal(c->flags, CPU_DESC_F_HYBRID | CPU_DESC_F_HFI | CPU_DESC_F_ITD | CPU_DESC_F_HWP);
		assert_int_equal(c->hfi_classes, 4);
		assert_int_equal(c->hfi_caps, 3);
		assert_int_equal(c->hfi_pages, 1);
		assert_int_equal(c->package_id, 0);
		assert_int_equal(c->die_id, 0);
		assert_int_equal(c->cache_id[2], c->apic_id >> 3);   /* L2 shared by 8 APIC ids */
		assert_int_equal(c->core_id, c->apic_id >> 1);
		if (c->core_type == CPU_CORE_P) {
			assert_int_equal(c->smt_threads, 2);
			assert_int_equal(c->smt_id, c->apic_id & 1);
			assert_int_equal(c->module_id, c->core_id);   /* a P-core is its own module */
			assert_int_equal(c->cache_kb[1], 48);
			assert_int_equal(c->cache_kb[2], p_l2_kb);
			assert_int_equal(c->native_model, exp == mtl ? 2 : 1);
		} else {
			assert_int_equal(c->smt_threads, 1);
			assert_int_equal(c->smt_id, 0);
			assert_int_equal(c->module_id, (c->apic_id >> 3) << 2);
			assert_int_equal(c->cache_kb[1], 32);
			assert_int_equal(c->cache_kb[2], 2048);
		}
		if (c->core_type == CPU_CORE_LPE) {
			assert_int_equal(c->cache_id[3], CPU_DESC_NO_CACHE);
			assert_int_equal(c->cache_kb[3], 0);
		} else {
			assert_int_equal(c->cache_id[3], 0);
			assert_int_equal(c->cache_kb[3], l3_kb);
		}
		/* SMT pairs: the thread next to a P thread 0 is its sibling. */
		if (c->core_type == CPU_CORE_P && c->smt_id == 0) {
			assert_true(i + 1 < n);
			assert_int_equal(d[i + 1].core_id, c->core_id);
			assert_int_equal(d[i + 1].smt_id, 1);
		}
		/* Module membership: exactly four E-cores (two LP-E) per module. */
		if (c->core_type != CPU_CORE_P) {
			unsigned members = 0;
			for (size_t j = 0; j < n; j++)
				members += d[j].module_id == c->module_id && d[j].core_type != CPU_CORE_P;
			assert_int_equal(members, c->core_type == CPU_CORE_E ? 4 : 2);
		}
	}
	assert_int_equal(count[CPU_CORE_P], np);
	assert_int_equal(count[CPU_CORE_E], ne);
	assert_int_equal(count[CPU_CORE_LPE], nlpe);
	assert_int_equal(count[CPU_CORE_UNKNOWN], 0);
}

static void test_dump_i7_1370p(void **state)
{
	(void)state;
	check_part("i7-1370P_RaptorLakeP_B06A2_CPUID.txt", rpl, 20, 6 << 16 | 0xBA << 4 | 2,
		   12, 8, 0, 24576, 1280);
}

static void test_dump_i9_12900k(void **state)
{
	(void)state;
	check_part("i9-12900K_AlderLakeS_90672_CPUID.txt", adl, 24, 6 << 16 | 0x97 << 4 | 2,
		   16, 8, 0, 30720, 1280);
}

static void test_dump_core_ultra_155h(void **state)
{
	(void)state;
	check_part("CoreUltra7-155H_MeteorLake_A06A4_CPUID.txt", mtl, 22, 6 << 16 | 0xAA << 4 | 4,
		   12, 8, 2, 24576, 2048);
}

/* The replay tool's full output for each shipped dump equals the reviewed
 * tests/replay/<dump>.expected (cpus table and topology tree). */
static void test_replay_output(void **state)
{
	(void)state;
	static const char *const dumps[] = {
		"i7-1370P_RaptorLakeP_B06A2_CPUID",
		"i9-12900K_AlderLakeS_90672_CPUID",
		"CoreUltra7-155H_MeteorLake_A06A4_CPUID",
		"RyzenAI9-HX370_StrixPoint_B20F40_CPUID",
		"RyzenAI7PRO-350_KrackanPoint_B60F00_CPUID",
		"RyzenZ1_Phoenix2_A70F80_CPUID",
	};
	const char *tool = getenv("MOSAIC_CPUID_REPLAY");
	if (!tool || !*tool)
		tool = "build/cpuid-replay";
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		char path[512], cmd[1200], exp_path[256];
		static char got[65536], want[65536];
		dump_path(path, sizeof(path), dumps[i]);
		strcat(path, ".txt");
		snprintf(cmd, sizeof(cmd), "%s '%s'", tool, path);
		snprintf(exp_path, sizeof(exp_path), "tests/replay/%s.expected", dumps[i]);
		FILE *p = popen(cmd, "r");
		assert_non_null(p);
		size_t ng = fread(got, 1, sizeof(got) - 1, p);
		got[ng] = 0;
		int status = pclose(p);
		if (status != 0)
			fail_msg("'%s' failed (status %d); run from the repository root after `make`", cmd,
				 status);
		FILE *f = fopen(exp_path, "r");
		if (!f)
			fail_msg("missing %s (run the tests from the repository root)", exp_path);
		size_t nw = fread(want, 1, sizeof(want) - 1, f);
		want[nw] = 0;
		fclose(f);
		if (strcmp(got, want) != 0)
			fail_msg("%s differs from %s; output was:\n%s", cmd, exp_path, got);
	}
}

/* ------------------------------------------------------------ synthetic CPUs */

#define FAKE_MAX 48
struct fake {
	struct { uint32_t leaf, sub, r[4]; } e[FAKE_MAX];
	int n;
	int asked_above_max;     /* the decoder read a leaf above CPUID.0:EAX */
	int leaf4_forever;       /* leaf 4 never terminates (garbage) */
	int msr_ok;
	uint64_t msr_value;
};

static void fake_set(struct fake *f, uint32_t leaf, uint32_t sub, uint32_t a, uint32_t b,
		     uint32_t c, uint32_t d)
{
	assert_true(f->n < FAKE_MAX);
	f->e[f->n].leaf = leaf;
	f->e[f->n].sub = sub;
	f->e[f->n].r[0] = a;
	f->e[f->n].r[1] = b;
	f->e[f->n].r[2] = c;
	f->e[f->n].r[3] = d;
	f->n++;
}

/* Like hardware: a leaf above the maximum returns the highest leaf's data;
 * unset (leaf, sub) pairs read as zero. */
static int fake_get(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	struct fake *f = ctx;
	uint32_t max = 0;
	for (int i = 0; i < f->n; i++)
		if (f->e[i].leaf == 0)
			max = f->e[i].r[0];
	if (leaf > max && leaf < 0x80000000u) {
		f->asked_above_max = 1;
		leaf = max;
	}
	regs[0] = regs[1] = regs[2] = regs[3] = 0;
	if (leaf == 4 && f->leaf4_forever) {
		regs[0] = 0x121;
		return 0;
	}
	for (int i = 0; i < f->n; i++)
		if (f->e[i].leaf == leaf && f->e[i].sub == sub)
			memcpy(regs, f->e[i].r, sizeof(f->e[i].r));
	return 0;
}

static int fake_msr(void *ctx, uint32_t msr, uint64_t *value)
{
	struct fake *f = ctx;
	if (!f->msr_ok || msr != 0x771)
		return -1;
	*value = f->msr_value;
	return 0;
}

static void fake_decode(struct fake *f, struct cpu_desc *d)
{
	const struct cpuid_source src = { fake_get, fake_msr, f };
	cpuid_decode(&src, d);
	assert_false(f->asked_above_max);
}

/* GenuineIntel with the given max leaf, family 6 model 0xBA. */
static void fake_intel(struct fake *f, uint32_t max)
{
	memset(f, 0, sizeof(*f));
	fake_set(f, 0, 0, max, 0x756E6547, 0x6C65746E, 0x49656E69);
	fake_set(f, 1, 0, 0x000B06A2, 0x00800800, 0, 0);
}

/* Leaf 4 of an E-core: L1D private, L2 shared by 8 APIC ids, optional L3. */
static void fake_atom_caches(struct fake *f, int with_l3)
{
	fake_set(f, 4, 0, 0xFC000121, 0x01C0003F, 0x3F, 0);
	fake_set(f, 4, 1, 0xFC01C143, 0x03C0003F, 0x7FF, 0);
	if (with_l3)
		fake_set(f, 4, 2, 0xFC1FC163, 0x02C0003F, 0x7FFF, 4);
}

static void test_max_leaf_below_1a(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	fake_intel(&f, 0x16);
	fake_set(&f, 7, 0, 0, 0, 0, 1u << 15);     /* hybrid flag, but no leaf 0x1A */
	fake_set(&f, 0x0B, 0, 1, 2, 0x100, 0x21);
	fake_set(&f, 0x0B, 1, 7, 20, 0x201, 0x21);
	fake_set(&f, 0x16, 0, 0x40000001, 0, 0, 0); /* would look like a P-core if misread */
	fake_decode(&f, &d);
	assert_int_equal(d.core_type, CPU_CORE_UNKNOWN);
	assert_true(d.flags & CPU_DESC_F_HYBRID);
	assert_true(d.notes & CPU_DESC_NOTE_NO_TYPE_LEAF);
	assert_int_equal(d.native_model_id, 0);
	assert_int_equal(d.apic_id, 0x21);
}

static void test_leaf_0b_only(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	fake_intel(&f, 0x0D);
	fake_set(&f, 0x0B, 0, 1, 2, 0x100, 0x15);
	fake_set(&f, 0x0B, 1, 4, 8, 0x201, 0x15);
	fake_set(&f, 0x1F, 0, 9, 9, 0x109, 9);      /* above the max: must be ignored */
	fake_decode(&f, &d);
	assert_int_equal(d.topo_leaf, 0x0B);
	assert_int_equal(d.apic_id, 0x15);
	assert_int_equal(d.smt_id, 1);
	assert_int_equal(d.core_id, 0x0A);
	assert_int_equal(d.package_id, 1);
	assert_int_equal(d.die_id, 1);
	assert_int_equal(d.smt_threads, 2);
	assert_int_equal(d.hfi_row, CPU_DESC_NO_HFI_ROW);
	assert_true(d.notes & CPU_DESC_NOTE_NO_CACHE_LEAF);
	assert_int_equal(d.module_id, d.core_id);
	for (int i = 1; i < 4; i++)
		assert_int_equal(d.cache_id[i], CPU_DESC_NO_CACHE);
}

static void test_zero_shift_with_siblings(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	fake_intel(&f, 0x0B);
	fake_set(&f, 0x0B, 0, 0, 2, 0x100, 3);      /* shift 0 but 2 threads */
	fake_set(&f, 0x0B, 1, 0, 4, 0x201, 3);      /* and a core shift below it */
	fake_decode(&f, &d);
	assert_true(d.notes & CPU_DESC_NOTE_ZERO_SHIFT);
	assert_true(d.notes & CPU_DESC_NOTE_BAD_SHIFT);
	assert_int_equal(d.smt_id, 1);
	assert_int_equal(d.core_id, 1);
	assert_int_equal(d.package_id, 1);
}

/* QEMU TCG `-cpu max` with one CPU per socket: AuthenticAMD, max leaf 0xD,
 * 0x0B with zero shifts, leaf 4 empty: each CPU its own core and package,
 * nothing hybrid. */
static void test_qemu_tcg_max(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	memset(&f, 0, sizeof(f));
	fake_set(&f, 0, 0, 0x0D, 0x68747541, 0x444D4163, 0x69746E65);
	fake_set(&f, 1, 0, 0x00000F61, 0x03000800, 0, 0);
	fake_set(&f, 6, 0, 4, 0, 0, 0);
	fake_set(&f, 0x0B, 0, 0, 1, 0x100, 3);
	fake_set(&f, 0x0B, 1, 0, 1, 0x201, 3);
	fake_decode(&f, &d);
	assert_int_equal(d.vendor, CPU_VENDOR_AMD);
	assert_int_equal(d.apic_id, 3);
	assert_int_equal(d.core_id, 3);
	assert_int_equal(d.module_id, 3);
	assert_int_equal(d.package_id, 3);
	assert_int_equal(d.smt_threads, 1);
	assert_int_equal(d.core_type, CPU_CORE_UNKNOWN);
	assert_int_equal(d.flags, 0);
	assert_int_equal(d.hfi_row, CPU_DESC_NO_HFI_ROW);
	assert_int_equal(d.notes, CPU_DESC_NOTE_NO_CACHE_LEAF);
	assert_int_equal(d.vendor_family_model, 0xF << 16 | 6 << 4 | 1);
}

static void fake_hybrid_atom(struct fake *f, uint32_t apic)
{
	fake_intel(f, 0x1F);
	fake_set(f, 7, 0, 0, 0, 0, 1u << 15);
	fake_set(f, 0x1A, 0, 0x20000002, 0, 0, 0);
	fake_set(f, 0x1F, 0, 1, 1, 0x100, apic);
	fake_set(f, 0x1F, 1, 3, 2, 0x201, apic);
	fake_set(f, 0x1F, 2, 7, 0x16, 0x302, apic);
}

static void test_atom_without_l3_is_lpe(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	fake_hybrid_atom(&f, 0x42);
	fake_atom_caches(&f, 0);
	fake_decode(&f, &d);
	assert_int_equal(d.core_type, CPU_CORE_LPE);
	assert_int_equal(d.cache_id[3], CPU_DESC_NO_CACHE);
	assert_int_equal(d.cache_id[2], 8);
	assert_int_equal(d.module_id, 0x20);      /* 0x1F module level: core id of 0x40 */
	assert_int_equal(d.native_model_id, 2);
	assert_int_equal(d.notes, 0);

	fake_hybrid_atom(&f, 0x42);
	fake_atom_caches(&f, 1);
	fake_decode(&f, &d);
	assert_int_equal(d.core_type, CPU_CORE_E);

	/* No leaf 4 at all: nothing says "no L3", so it stays an E-core. */
	fake_hybrid_atom(&f, 0x42);
	fake_decode(&f, &d);
	assert_int_equal(d.core_type, CPU_CORE_E);
	assert_true(d.notes & CPU_DESC_NOTE_NO_CACHE_LEAF);
}

static void test_garbage_values(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	fake_intel(&f, 0x1F);
	fake_set(&f, 0x1F, 0, 1, 0xFFFF, 0x100, 0x77); /* 65535 threads in a 2-thread core */
	fake_set(&f, 0x1F, 1, 6, 4, 0x209, 0x77);      /* unknown domain type 9 */
	fake_set(&f, 0x1F, 2, 2, 4, 0x202, 0x77);      /* a core above it, shift shrinking */
	for (uint32_t sl = 3; sl < 12; sl++)            /* and far too many levels */
		fake_set(&f, 0x1F, sl, 31, 1, 0x205 | sl, 0x77);
	f.leaf4_forever = 1;
	fake_set(&f, 6, 0, 1u << 7, 0, 0, 0);          /* HWP, MSR unreadable */
	fake_decode(&f, &d);
	assert_true(d.notes & CPU_DESC_NOTE_UNKNOWN_DOMAIN);
	assert_true(d.notes & CPU_DESC_NOTE_BAD_SHIFT);
	assert_true(d.notes & CPU_DESC_NOTE_BAD_CACHE);
	assert_true(d.notes & CPU_DESC_NOTE_NO_HWP_MSR);
	assert_int_equal(d.smt_threads, 2);
	assert_int_equal(d.apic_id, 0x77);
	assert_int_equal(d.core_id, 0x77 >> 1);
	assert_int_equal(d.package_id, 0);             /* shift 31 */
	for (unsigned i = 0; i < CPU_DESC_NOTE_COUNT; i++)
		assert_string_not_equal(cpuid_decode_note_text((uint16_t)(1u << i)), "?");

	f.msr_ok = 1;
	f.msr_value = 0x01110B27;
	fake_decode(&f, &d);
	assert_int_equal(d.perf_hint, 0x27);
	assert_false(d.notes & CPU_DESC_NOTE_NO_HWP_MSR);
}

static void test_no_topology_leaf(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	memset(&f, 0, sizeof(f));
	fake_set(&f, 0, 0, 4, 0x756E6547, 0x6C65746E, 0x49656E69);
	fake_set(&f, 1, 0, 0x00000F29, 0x05020800, 0, 1u << 28);  /* APIC 5, 2 LPs, HTT */
	fake_decode(&f, &d);
	assert_true(d.notes & CPU_DESC_NOTE_NO_TOPO_LEAF);
	assert_int_equal(d.topo_leaf, 1);
	assert_int_equal(d.apic_id, 5);
	assert_int_equal(d.core_id, 5);
	assert_int_equal(d.package_id, 2);

	/* Nothing at all: max leaf 0. */
	memset(&f, 0, sizeof(f));
	fake_set(&f, 0, 0, 0, 0, 0, 0);
	fake_decode(&f, &d);
	assert_int_equal(d.apic_id, 0);
	assert_int_equal(d.smt_threads, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_i7_1370p),
		cmocka_unit_test(test_dump_i9_12900k),
		cmocka_unit_test(test_dump_core_ultra_155h),
		cmocka_unit_test(test_replay_output),
		cmocka_unit_test(test_max_leaf_below_1a),
		cmocka_unit_test(test_leaf_0b_only),
		cmocka_unit_test(test_zero_shift_with_siblings),
		cmocka_unit_test(test_qemu_tcg_max),
		cmocka_unit_test(test_atom_without_l3_is_lpe),
		cmocka_unit_test(test_garbage_values),
		cmocka_unit_test(test_no_topology_leaf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
