/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the FreeBSD-compatible cpu_group tree
 * (kernel/sched/topo_freebsd*.c): from the real CPUID dumps of
 * tests/data/cpuid/ (decoded by the kernel's decoder), from machine
 * descriptions (machines/, through machine_apply's layout), from
 * hand-made layouts with odd values, and over generated machines
 * (sim/sim_gen.c). Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <arch/x86_64/cpu/cpuid_decode.h>
#include <tools/cpuid-replay/replay.h>
#include <sim/sim_gen.h>
#include <sim/sim_machine.h>

#define DUMP_155H "tests/data/cpuid/CoreUltra7-155H_MeteorLake_A06A4_CPUID.txt"
#define DUMP_1370P "tests/data/cpuid/i7-1370P_RaptorLakeP_B06A2_CPUID.txt"
#define DUMP_12900K "tests/data/cpuid/i9-12900K_AlderLakeS_90672_CPUID.txt"

static struct replay rep;
static struct sim_machine sm;
static struct topo tree;
static struct cpu_desc descs[TOPO_MAXCPU];

/* ---- checks ---- */

/* Two trees with the same groups: CPUs, share levels, flags, children. */
static int tree_equal(const struct cpu_group *a, const struct cpu_group *b)
{
	if (!cpuset_equal(&a->cg_mask, &b->cg_mask) || a->cg_count != b->cg_count ||
	    a->cg_level != b->cg_level || a->cg_flags != b->cg_flags || a->cg_children != b->cg_children)
		return 0;
	for (int i = 0; i < a->cg_children; i++)
		if (!tree_equal(&a->cg_child[i], &b->cg_child[i]))
			return 0;
	return 1;
}

/* The invariants of any tree: counts, first/last, parents, children
 * disjoint and covering their parent, at least two of them, share levels
 * not growing downwards below a group that shares a cache; every CPU of
 * the group in exactly one leaf (leaf_of). */
static void check_group(const struct topo *t, const struct cpu_group *cg, int *leaf_of)
{
	assert_int_equal(cg->cg_count, cpuset_count(&cg->cg_mask));
	assert_true(cg->cg_count >= 1);
	assert_int_equal(cg->cg_first, cpuset_first(&cg->cg_mask));
	assert_int_equal(cg->cg_last, cpuset_last(&cg->cg_mask));
	if (cg->cg_children == 0) {
		for (int c = cg->cg_first; c >= 0; c = cpuset_next(&cg->cg_mask, c)) {
			assert_int_equal(leaf_of[c], -1);
			leaf_of[c] = c;
			assert_ptr_equal(topo_find(t->root, c), cg);
		}
		return;
	}
	assert_true(cg->cg_children >= 2);
	struct cpuset u;
	cpuset_zero(&u);
	for (int i = 0; i < cg->cg_children; i++) {
		const struct cpu_group *ch = &cg->cg_child[i];
		assert_ptr_equal(ch->cg_parent, cg);
		assert_false(cpuset_overlap(&u, &ch->cg_mask));
		if (cg->cg_level != CG_SHARE_NONE)
			assert_true(ch->cg_level <= cg->cg_level);
		if (i > 0)
			assert_true(ch->cg_first > cg->cg_child[i - 1].cg_first);
		cpuset_or(&u, &ch->cg_mask);
		check_group(t, ch, leaf_of);
	}
	assert_true(cpuset_equal(&u, &cg->cg_mask));
}

static void check_tree(const struct topo *t)
{
	int leaf_of[TOPO_MAXCPU];
	for (int i = 0; i < TOPO_MAXCPU; i++)
		leaf_of[i] = -1;
	assert_non_null(t->root);
	assert_null(t->root->cg_parent);
	assert_int_equal(t->kind, TOPO_FREEBSD);
	assert_true(cpuset_equal(&t->root->cg_mask, &t->present));
	check_group(t, t->root, leaf_of);
	for (int c = 0; c < TOPO_MAXCPU; c++)
		assert_int_equal(leaf_of[c] >= 0, cpuset_isset(&t->present, (unsigned)c));
}

/* A group's shape: CPUs first..last, share, flags, children. */
static void check_shape(const struct cpu_group *cg, int first, int last, int level, int flags,
			int children)
{
	assert_int_equal(cg->cg_first, first);
	assert_int_equal(cg->cg_last, last);
	assert_int_equal(cg->cg_count, last - first + 1);
	assert_int_equal(cg->cg_level, level);
	assert_int_equal(cg->cg_flags, flags);
	assert_int_equal(cg->cg_children, children);
}

/* ---- sources ---- */

/* Replays a dump of tests/data/cpuid/ into rep (both trees). */
static void replay_dump(const char *path)
{
	struct dump d;
	char err[512];
	assert_int_equal(dump_load(path, &d, NULL, NULL, err, sizeof(err)), 0);
	assert_int_equal(replay_run(&d, &rep, err, sizeof(err)), 0);
	dump_free(&d);
	check_tree(&rep.fbsd_tree);
}

/* A dump CPU with one leaf answering zeros, as a part without it would. */
struct hidden {
	struct dump_cpu *cpu;
	uint32_t leaf;
};

static int hidden_get(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	const struct hidden *h = ctx;
	if (leaf == h->leaf) {
		regs[0] = regs[1] = regs[2] = regs[3] = 0;
		return 0;
	}
	return dump_cpuid(h->cpu, leaf, sub, regs);
}

static int hidden_msr(void *ctx, uint32_t msr, uint64_t *value)
{
	const struct hidden *h = ctx;
	return dump_msr(h->cpu, msr, value);
}

/* Decodes every CPU of a dump into descs with leaf `hide` zeroed; the
 * number of CPUs. */
static unsigned decode_hiding(const char *path, uint32_t hide)
{
	struct dump d;
	char err[512];
	unsigned n = 0;
	assert_int_equal(dump_load(path, &d, NULL, NULL, err, sizeof(err)), 0);
	for (unsigned i = 0; i < DUMP_MAX_CPUS && d.cpu[i]; i++, n++) {
		struct hidden h = { d.cpu[i], hide };
		const struct cpuid_source src = { hidden_get, hidden_msr, &h };
		cpuid_decode(&src, &descs[i]);
	}
	dump_free(&d);
	return n;
}

/* A preset of machines/ into sm, tree of kind. */
static void load_preset(const char *name, int kind)
{
	char err[600];
	assert_int_equal(sim_machine_load("machines", name, &sm, err, sizeof(err)), 0);
	assert_int_equal(sim_machine_topology(&sm, 0, kind, err, sizeof(err)), 0);
}

/* n Intel CPUs of one layout (leaf 0x1F with SMT shift smt and core
 * shift core, leaf 4 sharing counts l1/l2/l3, 0 = none), APIC ids 0..n-1
 * unless set later. */
static void make_layout(unsigned n, unsigned smt, unsigned core, unsigned l1, unsigned l2,
			unsigned l3)
{
	for (unsigned i = 0; i < n; i++) {
		memset(&descs[i], 0, sizeof(descs[i]));
		descs[i].layout = (struct cpu_layout){ .apic = i, .vendor = CPU_VENDOR_INTEL, .max_leaf = 0x1F,
						       .topo_leaf = 0x1F, .smt_shift = (uint8_t)smt,
						       .core_shift = (uint8_t)core, .htt_lps = 1,
						       .leaf4_cores = 1 };
		descs[i].layout.cache_share[1] = (uint16_t)l1;
		descs[i].layout.cache_share[2] = (uint16_t)l2;
		descs[i].layout.cache_share[3] = (uint16_t)l3;
	}
}

/* ---- the measured machines ---- */

/* Meteor Lake: the core level's shift (3) is the package, so every
 * module (a P-core, four E-cores, the two LP-E cores) is a "package" of
 * its own, its L3 capped to it: a root sharing nothing over 9 leaves. */
static void test_155h_dump(void **state)
{
	(void)state;
	replay_dump(DUMP_155H);
	const struct topo_fbsd *p = &rep.fbsd_tree.fbsd;
	assert_int_equal(p->boot_cpu, 0);
	assert_int_equal(p->path, TOPO_FBSD_LEAF);
	assert_int_equal(p->leaf, 0x1F);
	assert_int_equal(p->core_shift, 1);
	assert_int_equal(p->pkg_shift, 3);
	assert_int_equal(p->caches, 0xE);
	assert_int_equal(p->cache_share[1], 2);
	assert_int_equal(p->cache_shift[1], 1);
	assert_int_equal(p->cache_share[2], 8);
	assert_int_equal(p->cache_shift[2], 3);
	assert_int_equal(p->cache_share[3], 64);
	assert_int_equal(p->cache_shift[3], 3);
	assert_int_equal(p->capped, 1u << 3);
	const struct cpu_group *r = rep.fbsd_tree.root;
	check_shape(r, 0, 21, CG_SHARE_NONE, 0, 9);
	check_shape(&r->cg_child[0], 0, 1, CG_SHARE_L3, CG_FLAG_SMT, 0);
	check_shape(&r->cg_child[1], 2, 5, CG_SHARE_L3, 0, 0);
	check_shape(&r->cg_child[2], 6, 9, CG_SHARE_L3, 0, 0);
	for (int i = 0; i < 5; i++)
		check_shape(&r->cg_child[3 + i], 10 + 2 * i, 11 + 2 * i, CG_SHARE_L3, CG_FLAG_SMT, 0);
	check_shape(&r->cg_child[8], 20, 21, CG_SHARE_L3, 0, 0);
	assert_int_equal(rep.fbsd_tree.ngroups, 10);
	/* ours: root {L3 group of 20, LP-E pair} */
	check_shape(rep.tree.root, 0, 21, CG_SHARE_NONE, 0, 2);
	check_shape(&rep.tree.root->cg_child[0], 0, 19, CG_SHARE_L3, 0, 8);
	check_shape(&rep.tree.root->cg_child[1], 20, 21, CG_SHARE_L2, 0, 0);
}

/* The machine description says the same (cpuid-levels smt,core,module):
 * its layout gives the dump's APIC ids and values, so the same tree. */
static void test_155h_machine(void **state)
{
	(void)state;
	replay_dump(DUMP_155H);
	load_preset("core-ultra-7-155h", TOPO_FREEBSD);
	check_tree(&sm.topo);
	assert_true(tree_equal(sm.topo.root, rep.fbsd_tree.root));
	for (unsigned c = 0; c < sm.m.cpu_count; c++)
		assert_int_equal(sm.desc[c].layout.apic, rep.descs[c].apic_id);
	assert_int_equal(sm.topo.fbsd.pkg_shift, 3);
	assert_int_equal(sm.topo.fbsd.cache_share[3], 64);
}

/* Raptor Lake-P: the core level spans the package (shift 7) and the boot
 * P-core's L2 counts 8 ids, the E modules' blocks: exactly our tree. */
static void test_1370p(void **state)
{
	(void)state;
	replay_dump(DUMP_1370P);
	const struct topo_fbsd *p = &rep.fbsd_tree.fbsd;
	assert_int_equal(p->pkg_shift, 7);
	assert_int_equal(p->core_shift, 1);
	assert_int_equal(p->cache_share[2], 8);
	assert_int_equal(p->cache_share[3], 128);
	assert_int_equal(p->capped, 0);
	assert_true(tree_equal(rep.fbsd_tree.root, rep.tree.root));
	check_shape(rep.fbsd_tree.root, 0, 19, CG_SHARE_L3, 0, 8);
	check_shape(&rep.fbsd_tree.root->cg_child[0], 0, 1, CG_SHARE_L2, CG_FLAG_SMT, 0);
	check_shape(&rep.fbsd_tree.root->cg_child[6], 12, 15, CG_SHARE_L2, 0, 0);
	replay_dump(DUMP_12900K);
	assert_true(tree_equal(rep.fbsd_tree.root, rep.tree.root));
	static const char *const same[] = { "i7-1370p", "i7-13800h", "small-hybrid", "xeon-4p-ht",
					    "opteron-2s" };
	for (unsigned i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		static struct topo ours;
		load_preset(same[i], TOPO_MOSAIC);
		ours = sm.topo;
		load_preset(same[i], TOPO_FREEBSD);
		check_tree(&sm.topo);
		assert_true(tree_equal(sm.topo.root, ours.root));
	}
}

/* A homogeneous SMT part, two packages of four 2-thread cores (leaf 0x0B
 * shifts 1 and 3, L2 per core, L3 per package): packages under a root
 * sharing nothing, SMT pairs under each. */
static void test_homogeneous_smt(void **state)
{
	(void)state;
	make_layout(16, 1, 3, 2, 2, 16);
	for (unsigned i = 0; i < 16; i++)
		descs[i].layout.topo_leaf = 0x0B;
	assert_int_equal(topo_build_freebsd(&tree, descs, 16, NULL), TOPO_OK);
	check_tree(&tree);
	assert_int_equal(tree.fbsd.leaf, 0x0B);
	assert_int_equal(tree.fbsd.capped, 1u << 3);
	check_shape(tree.root, 0, 15, CG_SHARE_NONE, 0, 2);
	for (int p = 0; p < 2; p++) {
		const struct cpu_group *pkg = &tree.root->cg_child[p];
		check_shape(pkg, 8 * p, 8 * p + 7, CG_SHARE_L3, 0, 4);
		for (int c = 0; c < 4; c++)
			check_shape(&pkg->cg_child[c], 8 * p + 2 * c, 8 * p + 2 * c + 1, CG_SHARE_L2,
				    CG_FLAG_SMT, 0);
	}
}

/* ---- odd input ---- */

/* Leaf 0x1F absent: the 0x0B levels count. On Meteor Lake they have no
 * module level, so the core level spans the package again and the tree
 * is ours but for the LP-E pair, which FreeBSD gives the boot CPU's L3. */
static void test_no_leaf_1f(void **state)
{
	(void)state;
	unsigned n = decode_hiding(DUMP_155H, 0x1F);
	assert_int_equal(n, 22);
	assert_int_equal(descs[0].layout.topo_leaf, 0x0B);
	assert_int_equal(topo_build_freebsd(&tree, descs, n, NULL), TOPO_OK);
	check_tree(&tree);
	assert_int_equal(tree.fbsd.leaf, 0x0B);
	assert_int_equal(tree.fbsd.pkg_shift, 7);
	assert_int_equal(tree.fbsd.cache_shift[3], 6);
	check_shape(tree.root, 0, 21, CG_SHARE_NONE, 0, 2);
	check_shape(&tree.root->cg_child[0], 0, 19, CG_SHARE_L3, 0, 8);
	check_shape(&tree.root->cg_child[1], 20, 21, CG_SHARE_L3, 0, 0);
	n = decode_hiding(DUMP_1370P, 0x1F);
	assert_int_equal(topo_build_freebsd(&tree, descs, n, NULL), TOPO_OK);
	replay_dump(DUMP_1370P);
	assert_true(tree_equal(tree.root, rep.fbsd_tree.root));
}

/* Zero shifts (a topology leaf that says nothing, as QEMU's with an Intel
 * vendor could): every CPU a package of its own, caches capped to one
 * CPU: one leaf of every CPU sharing nothing. */
static void test_zero_shifts(void **state)
{
	(void)state;
	make_layout(6, 0, 0, 2, 8, 64);
	assert_int_equal(topo_build_freebsd(&tree, descs, 6, NULL), TOPO_OK);
	check_tree(&tree);
	assert_int_equal(tree.fbsd.pkg_shift, 0);
	assert_int_equal(tree.fbsd.capped, 0xE);
	check_shape(tree.root, 0, 5, CG_SHARE_NONE, 0, 0);
}

/* Leaf 4 empty: no cache layers, one leaf. Below leaf 4 (max leaf 2, no
 * topology leaf): leaf 1's 4 logical CPUs per package, L1 and L2 assumed
 * per package: two SMT-flagged leaves (FreeBSD sees no core layer). */
static void test_missing_leaf_4(void **state)
{
	(void)state;
	make_layout(8, 1, 3, 0, 0, 0);
	assert_int_equal(topo_build_freebsd(&tree, descs, 8, NULL), TOPO_OK);
	check_tree(&tree);
	assert_int_equal(tree.fbsd.caches, 0);
	check_shape(tree.root, 0, 7, CG_SHARE_NONE, 0, 0);

	for (unsigned i = 0; i < 8; i++)
		descs[i].layout = (struct cpu_layout){ .apic = i, .vendor = CPU_VENDOR_INTEL, .max_leaf = 2,
						       .htt_lps = 4, .leaf4_cores = 1 };
	assert_int_equal(topo_build_freebsd(&tree, descs, 8, NULL), TOPO_OK);
	check_tree(&tree);
	assert_int_equal(tree.fbsd.path, TOPO_FBSD_LEGACY);
	assert_int_equal(tree.fbsd.core_shift, 2);
	assert_int_equal(tree.fbsd.pkg_shift, 2);
	check_shape(tree.root, 0, 7, CG_SHARE_NONE, 0, 2);
	check_shape(&tree.root->cg_child[0], 0, 3, CG_SHARE_L2, CG_FLAG_SMT, 0);
	check_shape(&tree.root->cg_child[1], 4, 7, CG_SHARE_L2, CG_FLAG_SMT, 0);
}

/* Values FreeBSD's probe asserts against give no FreeBSD tree: a clear
 * reason, and for a running system ours. Equal APIC ids: refused. */
static void test_refusals(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 4; i++)
		descs[i].layout = (struct cpu_layout){ .apic = i, .vendor = CPU_VENDOR_INTEL, .max_leaf = 4,
						       .htt_lps = 2, .leaf4_cores = 4 };
	for (unsigned i = 0; i < 4; i++) {
		descs[i].cache_id[1] = descs[i].cache_id[2] = descs[i].cache_id[3] = CPU_DESC_NO_CACHE;
		descs[i].core_id = descs[i].apic_id = i;
	}
	assert_int_equal(topo_build_freebsd(&tree, descs, 4, NULL), TOPO_ERR_UNMODELLED);
	assert_null(tree.root);
	assert_non_null(strstr(tree.error, "topo_probe_intel_0x4"));
	assert_int_equal(topo_build_or_flat(&tree, TOPO_FREEBSD, descs, 4, NULL), TOPO_ERR_UNMODELLED);
	assert_non_null(tree.root);
	assert_int_equal(tree.kind, TOPO_MOSAIC);
	assert_non_null(strstr(tree.error, "topo_probe_intel_0x4"));

	/* AMD: more nodes than the package has APIC id bits */
	descs[0].layout = (struct cpu_layout){ .apic = 0, .vendor = CPU_VENDOR_AMD,
					       .amd_flags = CPU_LAYOUT_AMD_CMP | CPU_LAYOUT_AMD_TOPOEXT,
					       .amd_size = 1u << 12, .amd_nodes_m1 = 3 };
	assert_int_equal(topo_build_freebsd(&tree, descs, 4, NULL), TOPO_ERR_UNMODELLED);
	assert_non_null(strstr(tree.error, "topo_probe_amd"));

	make_layout(4, 1, 2, 2, 2, 4);
	descs[3].layout.apic = 1;
	assert_int_equal(topo_build_freebsd(&tree, descs, 4, NULL), TOPO_ERR_DUP_APIC);
	assert_int_equal(tree.error_cpu[0], 1);
	assert_int_equal(tree.error_cpu[1], 3);
}

/* One CPU: FreeBSD probes nothing (smp_topo_none): a leaf sharing
 * nothing. AMD as QEMU's TCG CPU reports it with -smp 4 (CmpLegacy,
 * 0x80000008 ECX 0x2003, L1/L2/L3 sizes, no TOPOEXT): one leaf sharing the
 * L3, unlike ours (no leaf 4: nothing shared). */
static void test_one_cpu_and_qemu_amd(void **state)
{
	(void)state;
	make_layout(1, 1, 7, 2, 8, 128);
	assert_int_equal(topo_build_freebsd(&tree, descs, 1, NULL), TOPO_OK);
	check_tree(&tree);
	assert_int_equal(tree.fbsd.path, TOPO_FBSD_NONE);
	check_shape(tree.root, 0, 0, CG_SHARE_NONE, 0, 0);

	for (unsigned i = 0; i < 4; i++)
		descs[i].layout = (struct cpu_layout){ .apic = i, .vendor = CPU_VENDOR_AMD, .max_leaf = 0xD,
						       .amd_flags = CPU_LAYOUT_AMD_CMP | CPU_LAYOUT_AMD_L1 |
								    CPU_LAYOUT_AMD_L2 | CPU_LAYOUT_AMD_L3,
						       .amd_size = 0x2003, .htt_lps = 1, .leaf4_cores = 1 };
	assert_int_equal(topo_build_freebsd(&tree, descs, 4, NULL), TOPO_OK);
	check_tree(&tree);
	assert_int_equal(tree.fbsd.path, TOPO_FBSD_AMD);
	assert_int_equal(tree.fbsd.pkg_shift, 2);
	assert_int_equal(tree.fbsd.cache_shift[3], 2);
	check_shape(tree.root, 0, 3, CG_SHARE_L3, 0, 0);
}

/* A present subset: CPUs left out are in no group; the boot CPU is the
 * lowest present one. */
static void test_present_subset(void **state)
{
	(void)state;
	replay_dump(DUMP_155H);
	struct cpuset present;
	cpuset_zero(&present);
	for (unsigned c = 1; c < 22; c += 2)
		cpuset_set(&present, c);
	assert_int_equal(topo_build_freebsd(&tree, rep.descs, 22, &present), TOPO_OK);
	check_tree(&tree);
	assert_int_equal(tree.fbsd.boot_cpu, 1);
	assert_int_equal(tree.ncpus, 11);
}

/* ---- generated machines ---- */

/* Seeds 1..300 of sim/sim_gen.c (permuted numbering, CPU 0 an E or LP-E
 * core, Meteor Lake's levels, no SMT, ...): the FreeBSD tree always
 * builds and covers every CPU exactly once, in groups that nest; both
 * kinds of 0x1F levels occur, and so do trees flat at the root. */
static void test_generated_machines(void **state)
{
	(void)state;
	static char text[SIM_GEN_TEXT_MAX];
	char err[600];
	int with_module = 0, flat_root = 0, differ = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		assert_int_equal(sim_gen_load(seed, &sm, text, err, sizeof(err)), 0);
		static struct topo ours;
		ours = sm.topo;
		assert_int_equal(topo_build_freebsd(&tree, sm.desc, sm.m.cpu_count, NULL), TOPO_OK);
		check_tree(&tree);
		assert_int_equal(tree.ncpus, (int)sm.m.cpu_count);
		with_module += sm.m.cpuid_module;
		flat_root += tree.root->cg_level == CG_SHARE_NONE;
		differ += !tree_equal(tree.root, ours.root);
	}
	assert_true(with_module > 0 && with_module < 300);
	assert_true(flat_root > 0);
	assert_true(differ > 0 && differ < 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_155h_dump),
		cmocka_unit_test(test_155h_machine),
		cmocka_unit_test(test_1370p),
		cmocka_unit_test(test_homogeneous_smt),
		cmocka_unit_test(test_no_leaf_1f),
		cmocka_unit_test(test_zero_shifts),
		cmocka_unit_test(test_missing_leaf_4),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_one_cpu_and_qemu_amd),
		cmocka_unit_test(test_present_subset),
		cmocka_unit_test(test_generated_machines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
