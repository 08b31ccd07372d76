/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the registered placement policies (kernel/sched/
 * sched_policy.h, policy_*.c) on the synthetic i7-1370P and Core Ultra 7
 * 155H trees (ut_hybrid.h): the registry and kern.sched.policy's words,
 * the fill order each peer's rule promises — mic (SCHED_MIC's class
 * weights), linux (asym packing, whole idle cores first, misfit pull),
 * bpfland (primary domain until saturated) — and the example `fastest`;
 * each against stock ULE on the same seeds, so a test fails without the
 * policy's rule. */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_place.h>
#include <sched/sched_policy.h>
#include <sched/sched_vars.h>

#define SEEDS 8

/* A fresh shape kind under policy pol (an index of sched_policy_list.def)
 * with every CPU's random stream from seed. */
static void fresh(int kind, int pol, int seed)
{
	ut_hybrid(kind, 20);
	sched_policy = pol;
	mic_eff_weight = 64;
	mic_smt_busy_penalty = 192;
	mic_lp_weight = 512;
	sched_primary_kind = SCHED_PRIMARY_ALL;
	seed_all(seed);
}

/* Places n CPU-bound threads one after another into cpu[]. */
static void fill(int n, int *cpu)
{
	for (int i = 0; i < n; i++)
		cpu[i] = place(i);
}

static int is_p(int cpu) { return cpu < 12; }
static int is_e(int cpu) { return cpu >= 12 && cpu < 20; }

/* 1 if the n CPUs are on n different P cores. */
static int distinct_p_cores(const int *cpu, int n)
{
	int seen[6] = { 0 };
	for (int i = 0; i < n; i++) {
		if (!is_p(cpu[i]) || seen[cpu[i] / 2])
			return 0;
		seen[cpu[i] / 2] = 1;
	}
	return 1;
}

/* The registry: names unique and found, kern.sched.policy's words are the
 * names in the list's order, ule and hmp first, sched_policy_name() follows
 * the variable, and a value out of range means ULE. */
static void test_registry(void **state)
{
	(void)state;
	const struct sched_var *v = sched_var_find("kern.sched.policy");
	assert_int_equal(sched_npolicies, SCHED_POLICY_COUNT);
	assert_int_equal(v->max, SCHED_POLICY_COUNT - 1);
	assert_string_equal(sched_policies[SCHED_POLICY_ULE]->name, "ule");
	assert_string_equal(sched_policies[SCHED_POLICY_HMP]->name, "hmp");
	for (unsigned i = 0; i < sched_npolicies; i++) {
		const struct sched_policy *p = sched_policies[i];
		assert_ptr_equal(sched_policy_find(p->name), p);
		assert_int_equal(sched_policy_index(p), (int)i);
		assert_int_equal(sched_var_word_value(v, p->name), (int64_t)i);
		assert_true(p->descr && p->descr[0]);
		sched_policy = (int64_t)i;
		assert_string_equal(sched_policy_name(), p->name);
	}
	assert_null(sched_policy_find("nosuch"));
	assert_int_equal(sched_var_word_value(v, "nosuch"), -1);
	sched_policy = SCHED_POLICY_COUNT;
	assert_string_equal(sched_policy_name(), "ule");
	sched_policy = SCHED_POLICY_HMP;
}

/* mic: an idle P core before an idle E-core before the second thread of a
 * busy P core — the first six threads take six P cores and the seventh an
 * E-core, on every seed; stock ULE's random tie break puts one of the first
 * six on an E-core on some seed. With the three weights 0 mic places as
 * ULE, thread for thread. */
static void test_mic(void **state)
{
	(void)state;
	int ule_off_p = 0;
	for (int seed = 1; seed <= SEEDS; seed++) {
		int cpu[7], ref[7];
		fresh(UT_I7, SCHED_POLICY_INDEX_mic, seed);
		fill(7, cpu);
		assert_true(distinct_p_cores(cpu, 6));
		assert_true(is_e(cpu[6]));
		fresh(UT_I7, SCHED_POLICY_ULE, seed);
		fill(6, ref);
		ule_off_p += !distinct_p_cores(ref, 6);
		fresh(UT_I7, SCHED_POLICY_INDEX_mic, seed);
		mic_eff_weight = mic_smt_busy_penalty = mic_lp_weight = 0;
		fill(7, cpu);
		fresh(UT_I7, SCHED_POLICY_ULE, seed);
		fill(7, ref);
		assert_memory_equal(cpu, ref, sizeof(cpu));
	}
	assert_true(ule_off_p > 0);
}

/* mic on the 155H: the LP-E CPUs (512) come after an idle P core. */
static void test_mic_lpe(void **state)
{
	(void)state;
	for (int seed = 1; seed <= SEEDS; seed++) {
		int cpu[2];
		fresh(UT_155H, SCHED_POLICY_INDEX_mic, seed);
		fill(2, cpu);
		assert_true(is_p(cpu[0]) && is_p(cpu[1]));
	}
}

/* linux: whole idle cores by priority (capacity) — six P cores, then the
 * eight E-cores (each a whole idle core) before any P sibling: the 15th
 * thread is the first on a busy P core. */
static void test_linux_fill(void **state)
{
	(void)state;
	for (int seed = 1; seed <= SEEDS; seed++) {
		int cpu[15];
		fresh(UT_I7, SCHED_POLICY_INDEX_linux, seed);
		fill(15, cpu);
		assert_true(distinct_p_cores(cpu, 6));
		for (int i = 6; i < 14; i++)
			assert_true(is_e(cpu[i]));
		assert_true(is_p(cpu[14]));
	}
}

/* linux misfit: a CPU-bound thread on an E-core (it does not fit 540 with
 * the 1280/1024 margin) is asked to repick by an idle P CPU going idle;
 * under stock ULE the idle CPU asks nothing, and a thread that fits (a
 * fresh one, no CPU use yet) is not asked either. */
static void test_linux_misfit(void **state)
{
	(void)state;
	for (int pol = 0; pol < 2; pol++) {
		fresh(UT_I7, pol ? SCHED_POLICY_INDEX_linux : SCHED_POLICY_ULE, 1);
		struct cpuset e = ut_only(12);
		place_on(0, &e);
		assert_int_equal(th[0].ts_cpu, 12);
		for (int i = 0; i < 300; i++)
			run_round();
		assert_true(sched_thread_pctcpu(&th[0]) > 9000);
		sched_set_affinity(&th[0], NULL);
		spt.self = 4;
		sched_idle(4);
		spt.self = 0;
		assert_int_equal((th[0].ts_flags & TSF_PICKCPU) != 0, pol);
		assert_int_equal(spt.ipis[12] != 0, pol);
		if (!pol)
			continue;
		spt.ipis[12] = 0;
		spt.self = 12;
		assert_int_equal(sched_ipi(12, &th[0]), 1);
		assert_null(sched_switch(&th[0], SCHED_SW_PREEMPT));
		spt.self = 0;
		assert_true(is_p(th[0].ts_cpu));   /* up to an idle P core */
	}
	fresh(UT_I7, SCHED_POLICY_INDEX_linux, 1);
	struct cpuset e = ut_only(13);
	place_on(1, &e);
	sched_set_affinity(&th[1], NULL);
	spt_advance(1);
	spt.self = 4;
	sched_idle(4);
	spt.self = 0;
	assert_false(th[1].ts_flags & TSF_PICKCPU);
}

/* bpfland: the primary domain (the P CPUs, highest capacity) until none of
 * it is idle — whole idle cores first, then the siblings — then overflow
 * to the E-cores; counted in primary_picks / primary_overflows. With
 * kern.sched.primary=efficiency the domain is the E-cores. */
static void test_bpfland(void **state)
{
	(void)state;
	for (int seed = 1; seed <= SEEDS; seed++) {
		int cpu[13];
		fresh(UT_I7, SCHED_POLICY_INDEX_bpfland, seed);
		fill(13, cpu);
		assert_true(distinct_p_cores(cpu, 6));
		for (int i = 6; i < 12; i++)
			assert_true(is_p(cpu[i]));
		assert_true(is_e(cpu[12]));
		assert_int_equal(STAT(primary_picks), 12);
		assert_int_equal(STAT(primary_overflows), 1);
	}
	fresh(UT_I7, SCHED_POLICY_INDEX_bpfland, 1);
	sched_primary_kind = SCHED_PRIMARY_EFFICIENCY;
	assert_true(is_e(place(0)));
}

/* fastest, the example: every P CPU (capacity 1000) before any E-core
 * (540), siblings included. */
static void test_fastest(void **state)
{
	(void)state;
	for (int seed = 1; seed <= SEEDS; seed++) {
		int cpu[13];
		fresh(UT_I7, SCHED_POLICY_INDEX_fastest, seed);
		fill(13, cpu);
		for (int i = 0; i < 12; i++)
			assert_true(is_p(cpu[i]));
		assert_true(is_e(cpu[12]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),   cmocka_unit_test(test_mic),
		cmocka_unit_test(test_mic_lpe),    cmocka_unit_test(test_linux_fill),
		cmocka_unit_test(test_linux_misfit), cmocka_unit_test(test_bpfland),
		cmocka_unit_test(test_fastest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
