/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of hmp (kernel/sched/hmp.c): the providers' order and
 * withdrawal, capacity scaling and weights (the i7-1370P model: P 138,
 * E 256), perf-0 marks and the all-zero rule, generations; the core-type
 * and HWP providers' derivations from CPU descriptors (hmp_describe.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <sched/hmp.h>
#include <sched/hmp_describe.h>
#include <tests/unit/sched_plat_test.h>

static struct hmp_cpu rd(int cpu)
{
	struct hmp_cpu r;
	hmp_read(cpu, &r);
	return r;
}

/* ncpu CPUs with only the "all equal" provider. */
static void fresh(int ncpu)
{
	spt_reset(ncpu, NULL);
	hmp_init(ncpu);
}

static void test_all_equal_by_default(void **state)
{
	(void)state;
	fresh(4);
	for (int c = 0; c < 4; c++) {
		struct hmp_cpu r = rd(c);
		assert_int_equal(r.capacity, 1024);
		assert_int_equal(r.weight, 256);
		assert_int_equal(r.perf, 1020);
		assert_int_equal(r.ee, 1020);
		assert_int_equal(r.avoid, 0);
		assert_int_equal(r.capacity_from, HMP_PROV_DEFAULT);
		assert_int_equal(r.generation, 1);
	}
	char why[96];
	assert_int_equal(hmp_provider_status(HMP_PROV_DEFAULT, why, sizeof(why)), 1);
	assert_int_equal(hmp_provider_status(HMP_PROV_HFI, why, sizeof(why)), 0);
	assert_string_equal(why, "nothing provided yet");
}

/* CPUs 0-1 P, 2-3 E; every provider gives capacities, the highest wins. */
static void test_provider_order(void **state)
{
	(void)state;
	fresh(4);
	for (int c = 2; c < 4; c++)
		hmp_provide(HMP_PROV_CORETYPE, c, HMP_CAPACITY, 600, 0, 0);
	hmp_publish();
	assert_int_equal(rd(2).capacity, 600);
	assert_int_equal(rd(2).capacity_from, HMP_PROV_CORETYPE);
	assert_int_equal(rd(0).capacity, 1024);
	assert_int_equal(rd(0).weight, 150);              /* 256 * 600 / 1024 */
	for (int c = 0; c < 4; c++)
		hmp_provide(HMP_PROV_HWP, c, HMP_CAPACITY, c < 2 ? 1024 : 596, 0, 0);
	hmp_publish();
	assert_int_equal(rd(3).capacity, 596);
	assert_int_equal(rd(3).capacity_from, HMP_PROV_HWP);
	for (int c = 0; c < 4; c++)
		hmp_provide(HMP_PROV_MACHINE, c, HMP_CAPACITY | HMP_PERF | HMP_EE, c < 2 ? 1024 : 553,
			    c < 2 ? 976 : 560, c < 2 ? 320 : 800);
	hmp_publish();
	assert_int_equal(rd(3).capacity, 553);
	assert_int_equal(rd(3).perf, 560);
	assert_int_equal(rd(3).perf_from, HMP_PROV_MACHINE);
	hmp_provide(HMP_PROV_HFI, 3, HMP_PERF | HMP_EE, 0, 400, 900);
	hmp_publish();
	assert_int_equal(rd(3).perf, 400);
	assert_int_equal(rd(3).capacity, 553);            /* HFI gives no capacity */
	hmp_provide(HMP_PROV_MANUAL, 3, HMP_CAPACITY, 300, 0, 0);
	hmp_publish();
	assert_int_equal(rd(3).capacity, 300);
	assert_int_equal(rd(3).capacity_from, HMP_PROV_MANUAL);
	assert_int_equal(rd(3).weight, 256);
	assert_int_equal(rd(2).weight, 139);              /* 256 * 300 / 553 */
	hmp_withdraw(HMP_PROV_MANUAL, 3, HMP_CAPACITY);
	hmp_publish();
	assert_int_equal(rd(3).capacity, 553);
	hmp_withdraw(HMP_PROV_HFI, -1, HMP_PERF | HMP_EE);
	hmp_publish();
	assert_int_equal(rd(3).perf, 560);
}

/* The i7-1370P model: speeds P 1.0, E 0.54 → capacities 1024 / 553 and
 * weights 138 / 256 (the seed report's factor: 256 / (1 / 0.54)). */
static void test_weights_i7_1370p(void **state)
{
	(void)state;
	fresh(20);
	for (int c = 0; c < 20; c++)
		hmp_provide(HMP_PROV_MACHINE, c, HMP_CAPACITY, c < 12 ? 1024 : 553, 0, 0);
	assert_int_equal(hmp_publish(), 20);
	for (int c = 0; c < 20; c++) {
		assert_int_equal(rd(c).weight, c < 12 ? 138 : 256);
		assert_int_equal(hmp_weight(c), c < 12 ? 138 : 256);
	}
}

/* Provider values need not be scaled: the fastest CPU becomes 1024. */
static void test_capacity_scaling(void **state)
{
	(void)state;
	fresh(2);
	hmp_provide(HMP_PROV_MANUAL, 0, HMP_CAPACITY, 500, 0, 0);
	hmp_provide(HMP_PROV_MANUAL, 1, HMP_CAPACITY, 250, 0, 0);
	hmp_publish();
	assert_int_equal(rd(0).capacity, 1024);
	assert_int_equal(rd(1).capacity, 512);
	assert_int_equal(rd(1).weight, 256);
	assert_int_equal(rd(0).weight, 128);
	hmp_provide(HMP_PROV_MANUAL, 0, HMP_CAPACITY, 5000, 0, 0);   /* clamped to 1024 */
	hmp_publish();
	assert_int_equal(rd(0).capacity, 1024);
	assert_int_equal(rd(1).capacity, 250);
}

/* A CPU whose perf nobody but "all equal" gives (a machine without
 * HFI): its perf follows its capacity, from capacity's provider, so an
 * LP-E core does not score as high as a P core. */
static void test_unknown_perf_follows_capacity(void **state)
{
	(void)state;
	fresh(3);
	for (int c = 0; c < 3; c++)
		hmp_provide(HMP_PROV_MACHINE, c, HMP_CAPACITY, c ? 267 : 1024, 0, 0);
	hmp_publish();
	assert_int_equal(rd(0).perf, 1020);
	assert_int_equal(rd(1).perf, 266);               /* 1020 * 267 / 1024 */
	assert_int_equal(rd(1).perf_from, HMP_PROV_MACHINE);
	assert_int_equal(rd(1).ee, 1020);                /* ee stays "all equal" */
	hmp_provide(HMP_PROV_HFI, 1, HMP_PERF | HMP_EE, 0, 400, 800);
	hmp_publish();
	assert_int_equal(rd(1).perf, 400);               /* known now */
	assert_int_equal(rd(2).perf, 266);
}

static void test_perf_zero_marks(void **state)
{
	(void)state;
	fresh(3);
	hmp_provide(HMP_PROV_HFI, 1, HMP_PERF, 0, 0, 0);
	hmp_publish();
	assert_int_equal(rd(1).avoid, 1);
	assert_int_equal(hmp_avoid(1), 1);
	assert_int_equal(rd(0).avoid, 0);
	assert_int_equal(hmp_all_perf_zero(), 0);
	for (int c = 0; c < 3; c++)
		hmp_provide(HMP_PROV_HFI, c, HMP_PERF | HMP_EE, 0, 0, 0);
	hmp_publish();
	for (int c = 0; c < 3; c++)
		assert_int_equal(rd(c).avoid, 0);            /* all zero: no information */
	assert_int_equal(hmp_all_perf_zero(), 1);
	assert_int_equal(rd(0).perf, 1020);                  /* the scores follow capacity */
}

/* perf 0 with ee 0 is "never"; perf 0 alone only "avoid"; the published
 * sets say the same. */
static void test_never_marks(void **state)
{
	(void)state;
	fresh(3);
	hmp_provide(HMP_PROV_HFI, 1, HMP_PERF | HMP_EE, 0, 0, 200);
	hmp_provide(HMP_PROV_HFI, 2, HMP_PERF | HMP_EE, 0, 0, 0);
	hmp_publish();
	assert_true(rd(1).avoid && !rd(1).never);
	assert_true(rd(2).avoid && rd(2).never);
	struct cpuset a, n;
	hmp_avoid_set(&a);
	hmp_never_set(&n);
	assert_true(cpuset_isset(&a, 1) && cpuset_isset(&a, 2) && !cpuset_isset(&a, 0));
	assert_true(!cpuset_isset(&n, 1) && cpuset_isset(&n, 2));
}

/* Capacities more than 16 times below the fastest are raised to 1/16 of
 * it, so no weight is below 16; hmp_capacity_fits() tells the manual
 * sysctl which values to refuse. */
static void test_capacity_floor(void **state)
{
	(void)state;
	fresh(2);
	hmp_provide(HMP_PROV_MANUAL, 0, HMP_CAPACITY, 1024, 0, 0);
	int floor;
	assert_false(hmp_capacity_fits(1, 1, &floor));
	assert_int_equal(floor, HMP_CAPACITY_MIN);
	assert_true(hmp_capacity_fits(1, 64, &floor));
	hmp_provide(HMP_PROV_MANUAL, 1, HMP_CAPACITY, 1, 0, 0);
	hmp_publish();
	assert_int_equal(rd(1).capacity, HMP_CAPACITY_MIN);
	assert_int_equal(rd(0).weight, 16);
	assert_int_equal(rd(1).weight, 256);
}

/* The SMT share: hmp's default, a provider's, and the shared scores. */
static void test_smt_share(void **state)
{
	(void)state;
	fresh(2);
	hmp_provide(HMP_PROV_MACHINE, 0, HMP_PERF | HMP_EE, 0, 1000, 500);
	hmp_provide_smt(HMP_PROV_MACHINE, 0, 512);
	hmp_publish();
	assert_int_equal(rd(1).smt, HMP_SMT_DEFAULT);
	assert_int_equal(rd(0).smt, 512);
	assert_int_equal(rd(0).perf_shared, 500);
	assert_int_equal(hmp_score(0, 1, 1), 250);
	assert_int_equal(rd(0).smt_from, HMP_PROV_MACHINE);
}

/* Thread Director class columns: a provider's classes, class 0 where it
 * gave none, the shared scores, a manual perf override applying to every
 * class, the all-zero rule and a withdrawal. */
static void test_class_columns(void **state)
{
	(void)state;
	fresh(2);
	for (int c = 0; c < 2; c++) {
		hmp_provide(HMP_PROV_HFI, c, HMP_PERF | HMP_EE, 0, c ? 560 : 976, c ? 800 : 320);
		hmp_provide_smt(HMP_PROV_HFI, c, 512);
	}
	hmp_provide_class(HMP_PROV_HFI, 0, ITD_VECTOR, 1020, 300);
	hmp_provide_class(HMP_PROV_HFI, 1, ITD_VECTOR, 400, 600);
	hmp_provide_class(HMP_PROV_HFI, 1, ITD_CLASS_MAX, 4, 4);   /* out of range: ignored */
	uint64_t gen = hmp_generation();
	hmp_publish();
	assert_true(hmp_generation() > gen);
	assert_int_equal(hmp_score_class(0, 0, 0, ITD_SCALAR), 976);
	assert_int_equal(hmp_score_class(0, 0, 0, ITD_VECTOR), 1020);
	assert_int_equal(hmp_score_class(1, 0, 0, ITD_VECTOR), 400);
	assert_int_equal(hmp_score_class(1, 1, 0, ITD_VECTOR), 600);
	assert_int_equal(hmp_score_class(1, 0, 1, ITD_VECTOR), 200);
	assert_int_equal(hmp_score_class(1, 0, 0, ITD_VNNI), 560);   /* not given: class 0 */
	assert_int_equal(hmp_score_class(1, 1, 0, ITD_SPIN), 800);
	assert_int_equal(hmp_score_class(1, 0, 0, ITD_CLASS_MAX), 0);
	assert_int_equal(rd(1).cls_perf[ITD_VECTOR], 400);
	assert_int_equal(rd(1).cls_perf[0], 560);
	/* a class column alone changes the record */
	gen = hmp_generation();
	hmp_provide_class(HMP_PROV_HFI, 1, ITD_VECTOR, 420, 600);
	hmp_publish();
	assert_true(hmp_generation() > gen);
	assert_int_equal(hmp_score_class(1, 0, 0, ITD_VECTOR), 420);
	/* a manual perf (no columns) scores every class */
	hmp_provide(HMP_PROV_MANUAL, 1, HMP_PERF, 0, 700, 0);
	hmp_publish();
	assert_int_equal(hmp_score_class(1, 0, 0, ITD_VECTOR), 700);
	assert_int_equal(hmp_score_class(1, 1, 0, ITD_VECTOR), 600);   /* ee still HFI's */
	hmp_withdraw(HMP_PROV_MANUAL, 1, HMP_PERF);
	/* every perf 0: no information, every class follows class 0 */
	for (int c = 0; c < 2; c++)
		hmp_provide(HMP_PROV_HFI, c, HMP_PERF, 0, 0, 0);
	hmp_publish();
	assert_int_equal(hmp_score_class(0, 0, 0, ITD_VECTOR), hmp_score(0, 0, 0));
	/* withdrawn columns: class 0 again */
	hmp_provide(HMP_PROV_HFI, 1, HMP_PERF, 0, 560, 0);
	hmp_provide(HMP_PROV_HFI, 0, HMP_PERF, 0, 976, 0);
	hmp_withdraw(HMP_PROV_HFI, -1, HMP_CLASSES);
	hmp_publish();
	assert_int_equal(hmp_score_class(1, 0, 0, ITD_VECTOR), 560);
	assert_int_equal(hmp_score_class(0, 1, 1, ITD_VECTOR), hmp_score(0, 1, 1));
}

static void test_generations(void **state)
{
	(void)state;
	fresh(2);
	uint64_t g = hmp_generation();
	assert_int_equal(hmp_publish(), 0);               /* nothing changed */
	assert_true(hmp_generation() == g);
	hmp_provide(HMP_PROV_HFI, 1, HMP_PERF, 0, 700, 0);
	assert_int_equal(hmp_publish(), 1);
	assert_true(hmp_generation() == g + 1);
	assert_int_equal(rd(1).generation, 2);
	assert_int_equal(rd(0).generation, 1);
	hmp_provide(HMP_PROV_HFI, 1, HMP_PERF, 0, 700, 0);   /* same value again */
	assert_int_equal(hmp_publish(), 0);
	assert_int_equal(rd(1).generation, 2);
	assert_int_equal(spt.hmp_locked, 0);
}

/* Descriptors of the describe tests; NULL past desc_n or where desc_hole. */
static struct cpu_desc descs[8];
static unsigned desc_n;
static int desc_hole = -1;

static const struct cpu_desc *desc_of(unsigned cpu)
{
	return cpu < desc_n && (int)cpu != desc_hole ? &descs[cpu] : NULL;
}

/* n CPUs of the given core types and HWP highest performances. */
static void describe(unsigned n, const uint8_t *types, const uint16_t *hints)
{
	fresh((int)n);
	memset(descs, 0, sizeof(descs));
	desc_n = n;
	desc_hole = -1;
	for (unsigned c = 0; c < n; c++) {
		descs[c].core_type = types[c];
		descs[c].perf_hint = hints[c];
	}
}

/* Core types alone (no HWP): P 1024, E 600, LP-E 420 from the core-type
 * provider; HWP says why it does not apply, naming the CPU. */
static void test_describe_core_types(void **state)
{
	(void)state;
	static const uint8_t types[] = { CPU_CORE_P, CPU_CORE_P, CPU_CORE_E, CPU_CORE_LPE };
	static const uint16_t hints[] = { 0, 0, 0, 0 };
	describe(4, types, hints);
	hmp_describe_cpus(4, desc_of);
	hmp_publish();
	assert_int_equal(rd(0).capacity, 1024);
	assert_int_equal(rd(2).capacity, 600);
	assert_int_equal(rd(3).capacity, 420);
	assert_int_equal(rd(3).capacity_from, HMP_PROV_CORETYPE);
	char why[128];
	assert_int_equal(hmp_provider_status(HMP_PROV_CORETYPE, why, sizeof(why)), 1);
	assert_string_equal(why, "2 P, 1 E, 1 LP-E: defaults 1024 / 600 / 420");
	assert_int_equal(hmp_provider_status(HMP_PROV_HWP, why, sizeof(why)), 0);
	assert_string_equal(why, "not supported: no HWP highest performance on CPU 0 (CPUID.06H:EAX[7])");
}

/* HWP hints scale to 1024 at the highest, rounded (Raptor Lake's 68 and
 * 40: 40 × 1024 / 68 = 602.35 -> 602), and win over core types. */
static void test_describe_hwp(void **state)
{
	(void)state;
	static const uint8_t types[] = { CPU_CORE_P, CPU_CORE_P, CPU_CORE_E, CPU_CORE_E };
	static const uint16_t hints[] = { 68, 66, 40, 39 };
	describe(4, types, hints);
	hmp_describe_cpus(4, desc_of);
	hmp_publish();
	assert_int_equal(rd(0).capacity, 1024);
	assert_int_equal(rd(1).capacity, 994);    /* 66 × 1024 / 68 = 993.9 */
	assert_int_equal(rd(2).capacity, 602);
	assert_int_equal(rd(3).capacity, 587);    /* 39 × 1024 / 68 = 587.3 */
	assert_int_equal(rd(2).capacity_from, HMP_PROV_HWP);
	char why[128];
	assert_int_equal(hmp_provider_status(HMP_PROV_HWP, why, sizeof(why)), 1);
	assert_string_equal(why, "IA32_HWP_CAPABILITIES highest performance, top 68");
}

/* Neither applies on a homogeneous machine without HWP, on a machine where
 * one CPU has no core type or no hint, or where a CPU has no descriptor:
 * everything stays at the all-equal default. */
static void test_describe_refusals(void **state)
{
	(void)state;
	static const uint8_t all_p[] = { CPU_CORE_P, CPU_CORE_P, CPU_CORE_P };
	static const uint8_t one_unknown[] = { CPU_CORE_P, CPU_CORE_UNKNOWN, CPU_CORE_E };
	static const uint16_t no_hints[] = { 0, 0, 0 }, one_hint_missing[] = { 50, 0, 30 };
	char why[128];
	describe(3, all_p, no_hints);
	hmp_describe_cpus(3, desc_of);
	assert_int_equal(hmp_provider_status(HMP_PROV_CORETYPE, why, sizeof(why)), 0);
	assert_string_equal(why, "one core type only: nothing to tell apart");
	describe(3, one_unknown, one_hint_missing);
	hmp_describe_cpus(3, desc_of);
	hmp_publish();
	assert_int_equal(hmp_provider_status(HMP_PROV_CORETYPE, why, sizeof(why)), 0);
	assert_string_equal(why, "not hybrid: no core types (CPUID 0x1A)");
	assert_int_equal(hmp_provider_status(HMP_PROV_HWP, why, sizeof(why)), 0);
	assert_string_equal(why, "not supported: no HWP highest performance on CPU 1 (CPUID.06H:EAX[7])");
	for (int c = 0; c < 3; c++)
		assert_int_equal(rd(c).capacity_from, HMP_PROV_DEFAULT);
	static const uint8_t mixed[] = { CPU_CORE_P, CPU_CORE_E, CPU_CORE_E };
	static const uint16_t hints[] = { 50, 30, 30 };
	describe(3, mixed, hints);
	desc_hole = 1;
	hmp_describe_cpus(3, desc_of);
	hmp_publish();
	assert_int_equal(hmp_provider_status(HMP_PROV_CORETYPE, why, sizeof(why)), 0);
	assert_int_equal(hmp_provider_status(HMP_PROV_HWP, why, sizeof(why)), 0);
	assert_int_equal(rd(0).capacity_from, HMP_PROV_DEFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_equal_by_default),
		cmocka_unit_test(test_provider_order),
		cmocka_unit_test(test_weights_i7_1370p),
		cmocka_unit_test(test_capacity_scaling),
		cmocka_unit_test(test_unknown_perf_follows_capacity),
		cmocka_unit_test(test_perf_zero_marks),
		cmocka_unit_test(test_never_marks),
		cmocka_unit_test(test_capacity_floor),
		cmocka_unit_test(test_smt_share),
		cmocka_unit_test(test_class_columns),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_describe_core_types),
		cmocka_unit_test(test_describe_hwp),
		cmocka_unit_test(test_describe_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
