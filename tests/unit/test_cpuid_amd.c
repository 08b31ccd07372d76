/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests for AMD's leaves in the CPUID decoder (kernel/arch/x86_64/
 * cpu/cpuid_amd.c): the three InstLatx64 dumps of AMD heterogeneous parts
 * in tests/data/cpuid/ decode to the facts read off those dumps by hand
 * (CPUID 0x80000026 core types, SMT pairs, CCX and L3 membership, cache
 * sizes from 0x8000001D), and synthetic CPUs take the fallbacks
 * (0x8000001E, 0x0B, leaf 1), read CPPC's highest performance, refuse an
 * unknown core type, and never read an extended leaf above the maximum.
 * Run from the repository root (`make test`).
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

/* Decodes every CPU of tests/data/cpuid/FILE into d (numbered 0..n-1). */
static size_t decode_dump(const char *file, struct cpu_desc *d, size_t max)
{
	char path[512], err[600];
	struct dump dump;
	snprintf(path, sizeof(path), "tests/data/cpuid/%s", file);
	if (dump_load(path, &dump, NULL, NULL, err, sizeof(err)) != 0)
		fail_msg("cannot read the CPUID dump: %s (run the tests from the repository root)", err);
	assert_int_equal(dump.skipped, 0);
	assert_true(dump.ncpus <= max);
	for (size_t i = 0; i < dump.ncpus; i++) {
		assert_non_null(dump.cpu[i]);
		const struct cpuid_source src = { dump_cpuid, dump_msr, dump.cpu[i] };
		cpuid_decode(&src, &d[i]);
	}
	size_t n = dump.ncpus;
	dump_free(&dump);
	return n;
}

/* What every CPU of the two Zen 5 dumps shares: 0x80000026 topology with
 * the heterogeneous flag, two threads per core, a private 1 MiB L2 and
 * 48 KiB L1D, one package and die, no HFI row, CPPC without its MSR. */
static void check_zen5_cpu(const struct cpu_desc *c, uint32_t fms)
{
	assert_int_equal(c->vendor, CPU_VENDOR_AMD);
	assert_int_equal(c->vendor_family_model, fms);
	assert_int_equal(c->topo_leaf, 0x80000026u);
	assert_int_equal(c->flags, CPU_DESC_F_HYBRID | CPU_DESC_F_CPPC);
	assert_int_equal(c->notes, CPU_DESC_NOTE_NO_HWP_MSR);   /* no MSRC001_02B0 in the dumps */
	assert_int_equal(c->smt_threads, 2);
	assert_int_equal(c->smt_id, c->apic_id & 1);
	assert_int_equal(c->core_id, c->apic_id >> 1);
	assert_int_equal(c->module_id, c->core_id);             /* each core its own L2 */
	assert_int_equal(c->cache_id[2], c->apic_id >> 1);
	assert_int_equal(c->cache_kb[1], 48);
	assert_int_equal(c->cache_kb[2], 1024);
	assert_int_equal(c->package_id, 0);
	assert_int_equal(c->die_id, 0);
	assert_int_equal(c->hfi_row, CPU_DESC_NO_HFI_ROW);
	assert_int_equal(c->perf_hint, 0);
	assert_int_equal(c->eff_rank, 0);   /* ranking "available", 0 for every core */
	assert_int_equal(c->native_model_id, 0);
}

/* Ryzen AI 9 HX 370 (Strix Point): CPUs 0-7 the four Zen 5 cores (x2APIC
 * 0x00-0x07) in CCX 0 with a 16 MiB L3, CPUs 8-23 the eight Zen 5c cores
 * (x2APIC 0x10-0x1F) in CCX 1 with an 8 MiB L3. */
static void test_strix_point(void **state)
{
	(void)state;
	static struct cpu_desc d[32];
	assert_int_equal(decode_dump("RyzenAI9-HX370_StrixPoint_B20F40_CPUID.txt", d, 32), 24);
	for (unsigned i = 0; i < 24; i++) {
		int classic = i < 8;
		check_zen5_cpu(&d[i], 0x1A << 16 | 0x24 << 4 | 0);
		assert_int_equal(d[i].apic_id, classic ? i : 0x10 + (i - 8));
		assert_int_equal(d[i].core_type, classic ? CPU_CORE_P : CPU_CORE_E);
		assert_int_equal(d[i].cache_id[3], classic ? 0 : 1);
		assert_int_equal(d[i].cache_kb[3], classic ? 16384 : 8192);
	}
}

/* Ryzen AI 7 PRO 350 (Krackan Point): one CCX of 16 MiB L3 in which Zen 5
 * and Zen 5c cores alternate: even cores classic, odd cores dense. */
static void test_krackan_point(void **state)
{
	(void)state;
	static struct cpu_desc d[32];
	assert_int_equal(decode_dump("RyzenAI7PRO-350_KrackanPoint_B60F00_CPUID.txt", d, 32), 16);
	for (unsigned i = 0; i < 16; i++) {
		check_zen5_cpu(&d[i], 0x1A << 16 | 0x60 << 4 | 0);
		assert_int_equal(d[i].apic_id, i);
		assert_int_equal(d[i].core_type, (i >> 1) % 2 ? CPU_CORE_E : CPU_CORE_P);
		assert_int_equal(d[i].cache_id[3], 0);
		assert_int_equal(d[i].cache_kb[3], 16384);
	}
}

/* Ryzen Z1 (Phoenix 2): six cores × 2 threads under one 16 MiB L3; its
 * 0x80000026 sets no heterogeneous flag, so its two Zen 4 and four Zen 4c
 * cores cannot be told apart: type unknown and a note saying so. */
static void test_phoenix2(void **state)
{
	(void)state;
	static struct cpu_desc d[16];
	assert_int_equal(decode_dump("RyzenZ1_Phoenix2_A70F80_CPUID.txt", d, 16), 12);
	for (unsigned i = 0; i < 12; i++) {
		assert_int_equal(d[i].apic_id, i);
		assert_int_equal(d[i].core_id, i >> 1);
		assert_int_equal(d[i].smt_threads, 2);
		assert_int_equal(d[i].core_type, CPU_CORE_UNKNOWN);
		assert_int_equal(d[i].flags, CPU_DESC_F_CPPC);
		assert_int_equal(d[i].notes, CPU_DESC_NOTE_NO_HWP_MSR | CPU_DESC_NOTE_AMD_NO_HETERO);
		assert_int_equal(d[i].cache_id[3], 0);
		assert_int_equal(d[i].cache_kb[1], 32);
		assert_int_equal(d[i].cache_kb[3], 16384);
		assert_int_equal(d[i].vendor_family_model, 0x19 << 16 | 0x78 << 4 | 0);
	}
}

/* ------------------------------------------------------------ synthetic CPUs */

#define FAKE_MAX 40
struct fake {
	struct { uint32_t leaf, sub, r[4]; } e[FAKE_MAX];
	int n;
	int asked_above_max;   /* a basic or extended leaf above its maximum was read */
	uint64_t cppc_cap1;    /* MSR 0xC00102B0; 0: unreadable */
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

/* The value set for (leaf, sub), zeros if none. */
static void fake_find(const struct fake *f, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	regs[0] = regs[1] = regs[2] = regs[3] = 0;
	for (int i = 0; i < f->n; i++)
		if (f->e[i].leaf == leaf && f->e[i].sub == sub)
			memcpy(regs, f->e[i].r, sizeof(f->e[i].r));
}

/* Records a read above the basic or extended maximum; else the value. */
static int fake_get(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	struct fake *f = ctx;
	uint32_t max[4];
	fake_find(f, leaf < 0x80000000u ? 0 : 0x80000000u, 0, max);
	if (leaf > max[0])
		f->asked_above_max = 1;
	fake_find(f, leaf, sub, regs);
	return 0;
}

static int fake_msr(void *ctx, uint32_t msr, uint64_t *value)
{
	struct fake *f = ctx;
	if (msr != 0xC00102B0u || !f->cppc_cap1)
		return -1;
	*value = f->cppc_cap1;
	return 0;
}

static void fake_decode(struct fake *f, struct cpu_desc *d)
{
	const struct cpuid_source src = { fake_get, fake_msr, f };
	cpuid_decode(&src, d);
	assert_false(f->asked_above_max);
}

/* AuthenticAMD family 0x1A with max leaves 0x10 / max_ext, TOPOEXT and
 * CPPC, and 0x8000001D caches: L2 per core, L3 shared by 16 APIC ids. */
static void fake_zen5(struct fake *f, uint32_t max_ext)
{
	memset(f, 0, sizeof(*f));
	fake_set(f, 0, 0, 0x10, 0x68747541, 0x444D4163, 0x69746E65);
	fake_set(f, 1, 0, 0x00B20F40, 0x00180800, 0, 1u << 28);
	fake_set(f, 0x80000000u, 0, max_ext, 0x68747541, 0x444D4163, 0x69746E65);
	fake_set(f, 0x80000001u, 0, 0x00B20F40, 0, 1u << 22, 0);
	fake_set(f, 0x80000008u, 0, 0x3030, 1u << 27, 0x5017, 0);
	fake_set(f, 0x8000001Du, 0, 0x4121, 0x02C0003F, 0x3F, 0);
	fake_set(f, 0x8000001Du, 1, 0x4143, 0x03C0003F, 0x3FF, 2);
	fake_set(f, 0x8000001Du, 2, 0x3C163, 0x03C0003F, 0x3FFF, 1);
}

/* A dense core through 0x80000026, with a ranking and CPPC's MSR. */
static void test_ext_topology_and_cppc(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	fake_zen5(&f, 0x80000026u);
	fake_set(&f, 0x80000026u, 0, 0x60000001, 0x1A070002, 0x100, 0x13);
	fake_set(&f, 0x80000026u, 1, 0xC0000004, 0x10, 0x201, 0x13);
	fake_set(&f, 0x80000026u, 2, 0x5, 0x18, 0x302, 0x13);
	f.cppc_cap1 = 0x86000000ull | 0x5A << 16;   /* highest 0x86, nominal 0x5A */
	fake_decode(&f, &d);
	assert_int_equal(d.topo_leaf, 0x80000026u);
	assert_int_equal(d.apic_id, 0x13);
	assert_int_equal(d.core_id, 9);
	assert_int_equal(d.smt_id, 1);
	assert_int_equal(d.package_id, 0);
	assert_int_equal(d.core_type, CPU_CORE_E);
	assert_int_equal(d.native_model_id, 0xA);
	assert_int_equal(d.eff_rank, 7);
	assert_int_equal(d.perf_hint, 0x86);
	assert_int_equal(d.cache_id[3], 1);
	assert_int_equal(d.notes, 0);

	/* Core type 5 is not defined: unknown, with a note. */
	fake_zen5(&f, 0x80000026u);
	fake_set(&f, 0x80000026u, 0, 0x40000001, 0x50000002, 0x100, 2);
	fake_set(&f, 0x80000026u, 1, 0x5, 0x18, 0x201, 2);
	fake_decode(&f, &d);
	assert_int_equal(d.core_type, CPU_CORE_UNKNOWN);
	assert_true(d.notes & CPU_DESC_NOTE_NO_TYPE_LEAF);
	assert_true(d.notes & CPU_DESC_NOTE_NO_HWP_MSR);   /* CPPC without its MSR */

	/* Levels out of order and a shrinking shift: clamped, noted. */
	fake_zen5(&f, 0x80000026u);
	fake_set(&f, 0x80000026u, 0, 0x40000003, 0x2, 0x100, 0x21);
	fake_set(&f, 0x80000026u, 1, 0x1, 0x18, 0x101, 0x21);
	fake_decode(&f, &d);
	assert_true(d.notes & CPU_DESC_NOTE_UNKNOWN_DOMAIN);
	assert_true(d.notes & CPU_DESC_NOTE_BAD_SHIFT);
	assert_int_equal(d.core_id, 0x21 >> 3);
}

/* Without 0x80000026 (a Zen 4 desktop part): 0x8000001E's extended APIC id
 * and threads per core, the package width from 0x80000008. */
static void test_fallback_8000001e(void **state)
{
	(void)state;
	struct fake f;
	struct cpu_desc d;
	fake_zen5(&f, 0x80000020u);
	fake_set(&f, 0x8000001Eu, 0, 0x2B, 0x0100, 0, 0);
	fake_decode(&f, &d);
	assert_int_equal(d.topo_leaf, 0x8000001Eu);
	assert_int_equal(d.apic_id, 0x2B);
	assert_int_equal(d.smt_threads, 2);
	assert_int_equal(d.core_id, 0x15);
	assert_int_equal(d.package_id, 1);   /* ApicIdSize 5 */
	assert_int_equal(d.core_type, CPU_CORE_UNKNOWN);
	assert_int_equal(d.notes, CPU_DESC_NOTE_NO_HWP_MSR);

	/* Without TOPOEXT: neither 0x8000001E nor 0x8000001D; leaf 0x0B. */
	fake_zen5(&f, 0x80000020u);
	f.e[3].r[2] = 0;   /* 0x80000001 ECX: TOPOEXT clear */
	fake_set(&f, 0x0B, 0, 1, 2, 0x100, 5);
	fake_set(&f, 0x0B, 1, 4, 16, 0x201, 5);
	fake_decode(&f, &d);
	assert_int_equal(d.topo_leaf, 0x0B);
	assert_int_equal(d.core_id, 2);
	assert_int_equal(d.cache_id[3], CPU_DESC_NO_CACHE);
	assert_true(d.notes & CPU_DESC_NOTE_NO_CACHE_LEAF);

	/* An extended maximum of garbage: no extended leaf is read; leaf 1. */
	fake_zen5(&f, 0xFFFFFFFFu);
	f.e[0].r[0] = 1;   /* max basic leaf 1 */
	fake_set(&f, 0x0B, 0, 1, 2, 0x100, 5);   /* above the maximum: never read */
	struct cpu_desc e;
	fake_decode(&f, &e);
	assert_int_equal(e.topo_leaf, 1);
	assert_int_equal(e.apic_id, 0);
	assert_true(e.notes & CPU_DESC_NOTE_NO_TOPO_LEAF);
	assert_int_equal(e.flags, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strix_point),
		cmocka_unit_test(test_krackan_point),
		cmocka_unit_test(test_phoenix2),
		cmocka_unit_test(test_ext_topology_and_cppc),
		cmocka_unit_test(test_fallback_8000001e),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
