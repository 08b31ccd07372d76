/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the cpu_group tree builder and printers (kernel/sched/topo_*.c),
 * on synthetic descriptor sets shaped like real and emulated machines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <sched/topo.h>

static struct topo topo;
static struct cpu_desc descs[TOPO_MAXCPU + 1];
static unsigned ndesc;

/* ---- descriptor sets: ids derived from APIC ids as CPUID would ---- */

/* Appends a CPU whose ids come from its APIC id: SMT shift 1, L2 shared by
 * the APIC ids equal above l2_shift, L3 by those equal above pkg_shift
 * (no_l3: none), package above pkg_shift. */
static void add_cpu(uint32_t apic, int type, int threads, unsigned l2_shift, unsigned pkg_shift,
		    int no_l3)
{
	struct cpu_desc *d = &descs[ndesc++];
	memset(d, 0, sizeof(*d));
	d->apic_id = apic;
	d->smt_id = apic & 1;
	d->core_id = apic >> 1;
	d->module_id = (apic >> l2_shift) << (l2_shift - 1);
	d->package_id = apic >> pkg_shift;
	d->die_id = d->package_id;
	d->cache_id[0] = CPU_DESC_NO_CACHE;
	d->cache_id[1] = apic >> 1;
	d->cache_id[2] = apic >> l2_shift;
	d->cache_id[3] = no_l3 ? CPU_DESC_NO_CACHE : apic >> pkg_shift;
	d->core_type = (uint8_t)type;
	d->smt_threads = (uint8_t)threads;
	d->source = CPU_DESC_FROM_DUMP;
	d->hfi_row = CPU_DESC_NO_HFI_ROW;
}

/* i7-1370P: 6 P-cores x 2 threads (APIC 0x00, 0x08, ... own L2), then
 * 8 E-cores at 0x30..0x3E sharing an L2 per 4; one L3. */
static void make_1370p(void)
{
	ndesc = 0;
	for (uint32_t core = 0; core < 6; core++)
		for (uint32_t t = 0; t < 2; t++)
			add_cpu(core * 8 + t, CPU_CORE_P, 2, 3, 7, 0);
	for (uint32_t e = 0; e < 8; e++)
		add_cpu(0x30 + 2 * e, CPU_CORE_E, 1, 3, 7, 0);
}

/* Core Ultra 7 155H in the real logical order (its dump in tests/data/cpuid/):
 * P 0x20, 8 E at 0x00..0x0E, P 0x10.., and 2 LP-E at 0x40/0x42 with their
 * own L2, no L3. */
static void make_155h(void)
{
	static const uint32_t p_first[] = { 0x20 };
	static const uint32_t p_rest[] = { 0x10, 0x18, 0x28, 0x30, 0x38 };
	ndesc = 0;
	for (uint32_t t = 0; t < 2; t++)
		add_cpu(p_first[0] + t, CPU_CORE_P, 2, 3, 7, 0);
	for (uint32_t e = 0; e < 8; e++)
		add_cpu(2 * e, CPU_CORE_E, 1, 3, 7, 0);
	for (int c = 0; c < 5; c++)
		for (uint32_t t = 0; t < 2; t++)
			add_cpu(p_rest[c] + t, CPU_CORE_P, 2, 3, 7, 0);
	add_cpu(0x40, CPU_CORE_LPE, 1, 3, 7, 1);
	add_cpu(0x42, CPU_CORE_LPE, 1, 3, 7, 1);
}

/* pkgs packages of cores cores with threads threads, own L2 per core, one
 * L3 per package. */
static void make_homogeneous(unsigned pkgs, unsigned cores, unsigned threads)
{
	ndesc = 0;
	for (uint32_t p = 0; p < pkgs; p++)
		for (uint32_t c = 0; c < cores; c++)
			for (uint32_t t = 0; t < threads; t++)
				add_cpu(p << 7 | c << 1 | t, CPU_CORE_UNKNOWN, (int)threads, 1, 7, 0);
}

/* ---- invariants every tree must satisfy ---- */

static void check_group(const struct cpu_group *cg, int *leaf_of)
{
	assert_int_equal(cg->cg_count, cpuset_count(&cg->cg_mask));
	assert_true(cg->cg_count >= 1);
	assert_int_equal(cg->cg_first, cpuset_first(&cg->cg_mask));
	assert_int_equal(cg->cg_last, cpuset_last(&cg->cg_mask));
	if (cg->cg_children == 0) {
		assert_null(cg->cg_child);
		for (int c = cg->cg_first; c >= 0; c = cpuset_next(&cg->cg_mask, c)) {
			assert_int_equal(leaf_of[c], -1);   /* in exactly one leaf */
			leaf_of[c] = c;
			assert_ptr_equal(topo_find(topo.root, c), cg);
		}
		return;
	}
	assert_true(cg->cg_children >= 2);              /* single-child levels collapsed */
	struct cpuset u;
	int sum = 0;
	cpuset_zero(&u);
	for (int i = 0; i < cg->cg_children; i++) {
		const struct cpu_group *ch = &cg->cg_child[i];
		assert_ptr_equal(ch->cg_parent, cg);
		assert_false(cpuset_overlap(&u, &ch->cg_mask));
		assert_true(ch->cg_level <= cg->cg_level || cg->cg_level == CG_SHARE_NONE);
		cpuset_or(&u, &ch->cg_mask);
		sum += ch->cg_count;
		check_group(ch, leaf_of);
	}
	assert_int_equal(sum, cg->cg_count);            /* counts conserved */
	assert_true(cpuset_equal(&u, &cg->cg_mask));
}

static void check_tree(int ncpus)
{
	int leaf_of[TOPO_MAXCPU];
	for (int i = 0; i < TOPO_MAXCPU; i++)
		leaf_of[i] = -1;
	assert_non_null(topo.root);
	assert_null(topo.root->cg_parent);
	assert_int_equal(topo.root->cg_count, ncpus);
	assert_int_equal(topo.ncpus, ncpus);
	assert_true(topo.ngroups <= TOPO_MAX_GROUPS);
	check_group(topo.root, leaf_of);
	for (int c = 0; c < TOPO_MAXCPU; c++)
		assert_int_equal(leaf_of[c] >= 0, cpuset_isset(&topo.present, (unsigned)c));
}

/* Asserts a group's shape: CPUs first..last contiguous, share, flags, children. */
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

/* ---- output capture ---- */

static char out[128 * 1024];
static size_t out_len;

static void capture(void *ctx, const char *fmt, ...)
{
	(void)ctx;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && out_len + (size_t)n < sizeof(out));
	out_len += (size_t)n;
}

static void reset_out(void)
{
	out_len = 0;
	out[0] = 0;
}

/* ---- tests ---- */

static void test_1370p(void **state)
{
	(void)state;
	make_1370p();
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	check_tree(20);
	struct cpu_group *r = topo.root;
	check_shape(r, 0, 19, CG_SHARE_L3, 0, 8);
	for (int i = 0; i < 6; i++) {
		check_shape(&r->cg_child[i], 2 * i, 2 * i + 1, CG_SHARE_L2, CG_FLAG_SMT, 0);
		assert_true(cpuset_isset(&r->cg_child[i].cg_mask, 2 * i));
	}
	check_shape(&r->cg_child[6], 12, 15, CG_SHARE_L2, 0, 0);
	check_shape(&r->cg_child[7], 16, 19, CG_SHARE_L2, 0, 0);
	assert_int_equal(topo.ngroups, 9);
	assert_ptr_equal(topo_find(r, 13), &r->cg_child[6]);
	assert_null(topo_find(r, 20));
	assert_null(topo_find(&r->cg_child[0], 5));
}

static void test_1370p_printed(void **state)
{
	(void)state;
	make_1370p();
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	reset_out();
	topo_print(&topo, capture, NULL);
	assert_non_null(strstr(out, "topology: 20 CPUs in 9 groups (8 leaves); descriptors from CPUID dump\n"));
	assert_non_null(strstr(out, "level 1: share L3, cpus 0-19 (20): "
				    "6 P-core SMT groups, 2 E-core modules\n"));
	assert_non_null(strstr(out, "\n  level 2: share L2, cpus 0-1 (2), SMT: P-core SMT group\n"));
	assert_non_null(strstr(out, "\n  level 2: share L2, cpus 16-19 (4): E-core module\n"));
}

static void test_1370p_spec(void **state)
{
	(void)state;
	make_1370p();
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	reset_out();
	topo_print_spec(&topo, capture, NULL);
	const char *head =
		"<groups>\n"
		" <group level=\"1\" cache-level=\"3\">\n"
		"  <cpu count=\"20\" mask=\"fffff,0,0,0\">0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, "
		"14, 15, 16, 17, 18, 19</cpu>\n"
		"  <children>\n"
		"   <group level=\"2\" cache-level=\"2\">\n"
		"    <cpu count=\"2\" mask=\"3,0,0,0\">0, 1</cpu>\n"
		"    <flags><flag name=\"THREAD\">THREAD group</flag><flag name=\"SMT\">SMT group</flag>"
		"</flags>\n"
		"   </group>\n";
	assert_memory_equal(out, head, strlen(head));
	const char *module =
		"   <group level=\"2\" cache-level=\"2\">\n"
		"    <cpu count=\"4\" mask=\"f000,0,0,0\">12, 13, 14, 15</cpu>\n"
		"   </group>\n";
	assert_non_null(strstr(out, module));
	const char *tail = "  </children>\n </group>\n</groups>\n";
	assert_string_equal(out + out_len - strlen(tail), tail);
}

static void test_155h(void **state)
{
	(void)state;
	make_155h();
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	check_tree(22);
	struct cpu_group *r = topo.root;
	check_shape(r, 0, 21, CG_SHARE_NONE, 0, 2);
	struct cpu_group *llc = &r->cg_child[0], *lpe = &r->cg_child[1];
	check_shape(llc, 0, 19, CG_SHARE_L3, 0, 8);
	check_shape(lpe, 20, 21, CG_SHARE_L2, 0, 0);
	/* Children in the order of their first CPU: P 0-1, E 2-5, E 6-9, P 10-11 ... */
	check_shape(&llc->cg_child[0], 0, 1, CG_SHARE_L2, CG_FLAG_SMT, 0);
	check_shape(&llc->cg_child[1], 2, 5, CG_SHARE_L2, 0, 0);
	check_shape(&llc->cg_child[2], 6, 9, CG_SHARE_L2, 0, 0);
	for (int i = 3; i < 8; i++)
		check_shape(&llc->cg_child[i], 10 + 2 * (i - 3), 11 + 2 * (i - 3), CG_SHARE_L2,
			    CG_FLAG_SMT, 0);
	reset_out();
	topo_print(&topo, capture, NULL);
	assert_non_null(strstr(out, "level 1: share none, cpus 0-21 (22): 1 L3 group, 1 LP-E-core module\n"));
	assert_non_null(strstr(out, "level 2: share L3, cpus 0-19 (20): 6 P-core SMT groups, 2 E-core modules\n"));
}

static void test_one_cpu(void **state)
{
	(void)state;
	ndesc = 0;
	add_cpu(0, CPU_CORE_UNKNOWN, 1, 1, 7, 0);
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	check_tree(1);
	check_shape(topo.root, 0, 0, CG_SHARE_L3, 0, 0);
	assert_int_equal(topo.ngroups, 1);
	assert_ptr_equal(topo_find(topo.root, 0), topo.root);
	reset_out();
	topo_print(&topo, capture, NULL);
	assert_non_null(strstr(out, "topology: 1 CPU in 1 group (1 leaf); "));
	assert_non_null(strstr(out, "level 1: share L3, cpus 0 (1): CPU\n"));
}

static void test_256_cpus(void **state)
{
	(void)state;
	make_homogeneous(2, 64, 2);
	assert_int_equal(ndesc, 256);
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	check_tree(256);
	struct cpu_group *r = topo.root;
	check_shape(r, 0, 255, CG_SHARE_NONE, 0, 2);
	check_shape(&r->cg_child[0], 0, 127, CG_SHARE_L3, 0, 64);
	check_shape(&r->cg_child[1], 128, 255, CG_SHARE_L3, 0, 64);
	check_shape(&r->cg_child[1].cg_child[63], 254, 255, CG_SHARE_L2, CG_FLAG_SMT, 0);
	assert_int_equal(topo.ngroups, 1 + 2 + 128);
	reset_out();
	topo_print_spec(&topo, capture, NULL);
	assert_non_null(strstr(out, "<cpu count=\"256\" mask=\"ffffffffffffffff,ffffffffffffffff,"
				    "ffffffffffffffff,ffffffffffffffff\">0, 1, "));
	assert_true(out_len < 64 * 1024);   /* fits the sysctl's buffer (cmd_topo.c) */
	reset_out();
	topo_print(&topo, capture, NULL);
	assert_non_null(strstr(out, "level 1: share none, cpus 0-255 (256): 2 L3 groups\n"));
	assert_non_null(strstr(out, "level 2: share L3, cpus 128-255 (128): 64 SMT groups\n"));
}

/* xeon-4p-ht: four packages of one core with two threads, LLC per package. */
static void test_xeon_4p_ht(void **state)
{
	(void)state;
	make_homogeneous(4, 1, 2);
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	check_tree(8);
	check_shape(topo.root, 0, 7, CG_SHARE_NONE, 0, 4);
	for (int i = 0; i < 4; i++)
		check_shape(&topo.root->cg_child[i], 2 * i, 2 * i + 1, CG_SHARE_L3, CG_FLAG_SMT, 0);
}

/* opteron-2s: two sockets of two cores, own L2, LLC per socket. */
static void test_opteron_2s(void **state)
{
	(void)state;
	make_homogeneous(2, 2, 1);
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	check_tree(4);
	check_shape(topo.root, 0, 3, CG_SHARE_NONE, 0, 2);
	check_shape(&topo.root->cg_child[0], 0, 1, CG_SHARE_L3, 0, 0);
	check_shape(&topo.root->cg_child[1], 2, 3, CG_SHARE_L3, 0, 0);
	reset_out();
	topo_print(&topo, capture, NULL);
	assert_non_null(strstr(out, "level 1: share none, cpus 0-3 (4): 2 L3 groups\n"));
}

/* Offline CPUs are left out: a P-core with one thread is a 1-CPU leaf. */
static void test_present_subset(void **state)
{
	(void)state;
	make_1370p();
	struct cpuset present;
	cpuset_zero(&present);
	for (unsigned c = 0; c < 20; c++)
		if (c != 3 && c != 12)
			cpuset_set(&present, c);
	assert_int_equal(topo_build(&topo, descs, ndesc, &present), TOPO_OK);
	check_tree(18);
	struct cpu_group *r = topo.root;
	check_shape(r->cg_child + 1, 2, 2, CG_SHARE_L2, 0, 0);
	check_shape(r->cg_child + 6, 13, 15, CG_SHARE_L2, 0, 0);
	assert_null(topo_find(r, 3));
	reset_out();
	topo_print(&topo, capture, NULL);
	assert_non_null(strstr(out, "5 P-core SMT groups, 1 P-core, 2 E-core modules\n"));
}

/* Cores without cache information still form SMT leaves (share L1 or none). */
static void test_no_cache_info(void **state)
{
	(void)state;
	make_homogeneous(1, 2, 2);
	for (unsigned i = 0; i < ndesc; i++)
		for (int l = 1; l <= 3; l++)
			descs[i].cache_id[l] = CPU_DESC_NO_CACHE;
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	check_tree(4);
	check_shape(topo.root, 0, 3, CG_SHARE_NONE, 0, 2);
	check_shape(&topo.root->cg_child[0], 0, 1, CG_SHARE_NONE, CG_FLAG_SMT, 0);
}

/* QEMU's default CPUID: every CPU a package of its own, no cache leaf. One
 * flat leaf. */
static void test_flat(void **state)
{
	(void)state;
	make_homogeneous(4, 1, 1);
	for (unsigned i = 0; i < ndesc; i++) {
		for (int l = 1; l <= 3; l++)
			descs[i].cache_id[l] = CPU_DESC_NO_CACHE;
		descs[i].source = CPU_DESC_FROM_CPUID;
	}
	descs[3].source = CPU_DESC_FROM_MACHINE_FILE;
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	check_tree(4);
	check_shape(topo.root, 0, 3, CG_SHARE_NONE, 0, 0);
	reset_out();
	topo_print(&topo, capture, NULL);
	assert_string_equal(out, "topology: 4 CPUs in 1 group (1 leaf); descriptors from CPUID and others\n"
				 "tree: mosaic, from every CPU's descriptor\n"
				 "level 1: share none, cpus 0-3 (4): CPU group\n");
}

static void test_errors(void **state)
{
	(void)state;
	make_1370p();
	assert_int_equal(topo_build(&topo, descs, 0, NULL), TOPO_ERR_NO_CPUS);
	assert_null(topo.root);
	assert_non_null(strstr(topo.error, "no CPUs"));
	struct cpuset none;
	cpuset_zero(&none);
	assert_int_equal(topo_build(&topo, descs, ndesc, &none), TOPO_ERR_NO_CPUS);

	assert_int_equal(topo_build(&topo, descs, TOPO_MAXCPU + 1, NULL), TOPO_ERR_TOO_MANY);
	assert_string_equal(topo.error, "257 CPUs exceed MAXCPU (256)");

	descs[17].apic_id = descs[4].apic_id;
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_ERR_DUP_APIC);
	assert_string_equal(topo.error, "CPUs 4 and 17 have the same APIC id");
	assert_null(topo.root);

	make_1370p();
	descs[1].cache_id[2] = 99;
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_ERR_INCONSISTENT);
	assert_non_null(strstr(topo.error, "CPUs 0 and 1 are threads of one core"));

	make_1370p();
	descs[13].cache_id[3] = 5;
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_ERR_INCONSISTENT);
	assert_non_null(strstr(topo.error, "CPUs 12 and 13 share an L2"));

	reset_out();
	topo_print(&topo, capture, NULL);
	assert_non_null(strstr(out, "topology: none (CPUs 12 and 13 share an L2"));
	reset_out();
	topo_print_spec(&topo, capture, NULL);
	assert_string_equal(out, "<groups>\n</groups>\n");

	/* A CPU whose package id is off (a CPUID line missing from a dump) but
	 * whose caches are the others': caught whatever its package. */
	make_1370p();
	descs[13].package_id = 25;
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_ERR_INCONSISTENT);
	assert_string_equal(topo.error, "CPUs 0 and 13 share an L3 but are in different packages (0 and 25)");
	assert_int_equal(topo.error_cpu[0], 0);
	assert_int_equal(topo.error_cpu[1], 13);
	descs[13].cache_id[3] = 9;
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_ERR_INCONSISTENT);
	assert_string_equal(topo.error, "CPUs 12 and 13 share an L2 but are in different packages (0 and 25)");

	/* Two sockets claiming one L3. */
	make_homogeneous(2, 2, 1);
	descs[2].cache_id[3] = descs[3].cache_id[3] = descs[0].cache_id[3];
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_ERR_INCONSISTENT);
	assert_string_equal(topo.error, "CPUs 0 and 2 share an L3 but are in different packages (0 and 1)");

	/* A failed build leaves t reusable. */
	make_1370p();
	assert_int_equal(topo_build(&topo, descs, ndesc, NULL), TOPO_OK);
	assert_string_equal(topo.error, "");
	check_tree(20);
}

/* The kernel's fallback: contradicting descriptors give one flat leaf of
 * all present CPUs, with the reason kept. */
static void test_flat_fallback(void **state)
{
	(void)state;
	make_1370p();
	descs[13].package_id = 25;
	struct cpuset present;
	cpuset_zero(&present);
	for (unsigned c = 0; c < 20; c++)
		if (c != 5)
			cpuset_set(&present, c);
	assert_int_equal(topo_build_or_flat(&topo, TOPO_MOSAIC, descs, ndesc, &present), TOPO_ERR_INCONSISTENT);
	assert_non_null(topo.root);
	assert_int_equal(topo.flat, 1);
	assert_non_null(strstr(topo.error, "CPUs 0 and 13 share an L3 but are in different packages"));
	check_tree(19);
	assert_int_equal(topo.root->cg_first, 0);
	assert_int_equal(topo.root->cg_last, 19);
	assert_int_equal(topo.root->cg_level, CG_SHARE_NONE);
	assert_int_equal(topo.root->cg_flags, 0);
	assert_int_equal(topo.root->cg_children, 0);
	assert_int_equal(topo.ngroups, 1);
	assert_ptr_equal(topo_find(topo.root, 13), topo.root);
	assert_null(topo_find(topo.root, 5));

	/* A good set builds the real tree; no CPUs at all gives no tree. */
	make_1370p();
	assert_int_equal(topo_build_or_flat(&topo, TOPO_MOSAIC, descs, ndesc, NULL), TOPO_OK);
	assert_int_equal(topo.flat, 0);
	check_tree(20);
	assert_int_equal(topo_build_or_flat(&topo, TOPO_MOSAIC, descs, 0, NULL), TOPO_ERR_NO_CPUS);
	assert_null(topo.root);
}

static void test_cpulist(void **state)
{
	(void)state;
	struct cpuset s;
	char buf[64];
	cpuset_zero(&s);
	topo_cpulist(&s, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	for (unsigned c = 0; c < 12; c++)
		cpuset_set(&s, c);
	cpuset_set(&s, 14);
	cpuset_set(&s, 63);
	cpuset_set(&s, 64);
	cpuset_set(&s, 255);
	topo_cpulist(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-11,14,63-64,255");
	char small[8];
	topo_cpulist(&s, small, sizeof(small));
	assert_string_equal(small, "0-11...");
	assert_int_equal(cpuset_next(&s, 14), 63);
	assert_int_equal(cpuset_next(&s, 255), -1);
	assert_int_equal(cpuset_count(&s), 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_1370p),
		cmocka_unit_test(test_1370p_printed),
		cmocka_unit_test(test_1370p_spec),
		cmocka_unit_test(test_155h),
		cmocka_unit_test(test_one_cpu),
		cmocka_unit_test(test_256_cpus),
		cmocka_unit_test(test_xeon_4p_ht),
		cmocka_unit_test(test_opteron_2s),
		cmocka_unit_test(test_present_subset),
		cmocka_unit_test(test_no_cache_info),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_flat_fallback),
		cmocka_unit_test(test_cpulist),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
