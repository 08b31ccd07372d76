/* SPDX-License-Identifier: BSD-2-Clause */
/* test_sim_policy.c — schedsim's policies (sim/sim_policy.c) and machine
 * loading (sim/sim_machine.c): the oracle's CPU order on the presets,
 * the random policy's permutation, policy specs and --sysctl settings
 * with their refusals, and the kernel variables they set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sched/ule.h>
#include <sim/sim_machine.h>
#include <sim/sim_policy.h>

static struct sim_machine sm;
static char err[600];

static void load(const char *name)
{
	if (sim_machine_load("machines", name, &sm, err, sizeof(err)))
		fail_msg("%s", err);
}

/* i7-1370P model: the six P-cores' first threads (1.0 each), then the
 * eight E-cores (0.54), then the second threads (1.39 - 1.0 = 0.39). */
static void test_oracle_i7(void **state)
{
	(void)state;
	int order[MACHINE_MAX_CPUS];
	load("i7-1370p");
	sim_oracle_order(&sm.m, order);
	static const int want[20] = { 0, 2, 4, 6, 8, 10, 12, 13, 14, 15, 16, 17, 18, 19, 1, 3, 5, 7, 9, 11 };
	assert_memory_equal(order, want, sizeof(want));
}

/* Core Ultra 7 155H model: P first threads, E-cores (0.63), LP-E (0.42)
 * before a second SMT thread (0.39): every CPU exactly once. */
static void test_oracle_155h(void **state)
{
	(void)state;
	int order[MACHINE_MAX_CPUS], seen[MACHINE_MAX_CPUS] = { 0 };
	load("core-ultra-7-155h");
	sim_oracle_order(&sm.m, order);
	for (int i = 0; i < 22; i++) {
		int c = order[i];
		seen[c]++;
		int type = sm.m.cpu[c].type, thread = sm.m.cpu[c].thread;
		if (i < 6)
			assert_true(type == CPU_CORE_P && thread == 0);
		else if (i < 14)
			assert_int_equal(type, CPU_CORE_E);
		else if (i < 16)
			assert_int_equal(type, CPU_CORE_LPE);
		else
			assert_true(type == CPU_CORE_P && thread == 1);
	}
	for (int c = 0; c < 22; c++)
		assert_int_equal(seen[c], 1);
}

/* Pinning: oracle in order (modulo the CPUs), random a permutation that
 * depends on the seed, ule and hmp none. */
static void test_pinning(void **state)
{
	(void)state;
	struct sim_policy p;
	struct cpuset buf;
	load("small-hybrid");
	assert_int_equal(sim_policy_parse("oracle", &p, err, sizeof(err)), 0);
	sim_policy_prepare(&p, &sm.m, 1);
	static const int want[] = { 0, 2, 3, 1, 0 };
	for (int k = 0; k < 5; k++) {
		const struct cpuset *m = sim_policy_pin(&p, k, &buf);
		assert_non_null(m);
		assert_int_equal(cpuset_count(m), 1);
		assert_int_equal(cpuset_first(m), want[k]);
	}
	assert_int_equal(sim_policy_parse("random", &p, err, sizeof(err)), 0);
	int a[4], b[4], same = 1, seen[4] = { 0 };
	sim_policy_prepare(&p, &sm.m, 1);
	for (int k = 0; k < 4; k++)
		seen[a[k] = cpuset_first(sim_policy_pin(&p, k, &buf))]++;
	for (int c = 0; c < 4; c++)
		assert_int_equal(seen[c], 1);
	for (uint64_t seed = 2; seed < 20 && same; seed++) {
		sim_policy_prepare(&p, &sm.m, seed);
		for (int k = 0; k < 4; k++)
			b[k] = cpuset_first(sim_policy_pin(&p, k, &buf));
		same = !memcmp(a, b, sizeof(a));
	}
	assert_false(same);
	assert_int_equal(sim_policy_parse("hmp", &p, err, sizeof(err)), 0);
	assert_null(sim_policy_pin(&p, 0, &buf));
}

/* Specs set kern.sched.policy and the switches; restore brings back the
 * defaults. */
static void test_specs(void **state)
{
	(void)state;
	struct sim_policy p;
	sim_tunables_save();
	assert_int_equal(sim_policy_parse("hmp:steer=0:metric=ee:primary=performance:class_aware=1", &p, err,
					  sizeof(err)), 0);
	assert_string_equal(p.name, "hmp:steer=0:metric=ee:primary=performance:class_aware=1");
	sim_policy_apply(&p);
	assert_int_equal(sched_policy, SCHED_POLICY_HMP);
	assert_int_equal(hmp_sw_steer, 0);
	assert_int_equal(hmp_metric, HMP_METRIC_EE);
	assert_int_equal(sched_primary_kind, SCHED_PRIMARY_PERFORMANCE);
	assert_int_equal(hmp_class_aware, 1);
	sim_tunables_restore();
	assert_int_equal(hmp_sw_steer, 1);
	assert_int_equal(hmp_metric, HMP_METRIC_PERF);
	assert_int_equal(hmp_class_aware, 0);
	struct sim_setting s;
	assert_int_equal(sim_sysctl_parse("kern.sched.balance_interval=7", &s, err, sizeof(err)), 0);
	sim_setting_apply(&s);
	assert_int_equal(balance_interval, 7);
	sim_tunables_restore();
}

/* bench's named policies: a base and their settings, options after them. */
static void test_named(void **state)
{
	(void)state;
	struct sim_policy p;
	assert_int_equal(sim_policy_parse("hmp-report:metric=ee", &p, err, sizeof(err)), 0);
	assert_int_equal(p.kind, SIM_POL_SCHED);
	assert_int_equal(p.sched, SCHED_POLICY_HMP);
	assert_string_equal(p.name, "hmp-report:metric=ee");
	assert_int_equal(p.nopts, 6);
	sim_tunables_save();
	sim_policy_apply(&p);
	assert_int_equal(hmp_upmigrate, 0);
	assert_int_equal(hmp_sw_smt_steer, 0);
	assert_int_equal(hmp_sw_best, 0);
	assert_int_equal(hmp_sw_latency, 0);
	assert_int_equal(hmp_perf0, HMP_PERF0_STRICT);
	assert_int_equal(hmp_metric, HMP_METRIC_EE);
	assert_int_equal(hmp_sw_steer, 1);
	sim_tunables_restore();
	assert_int_equal(sim_policy_parse("primary-e", &p, err, sizeof(err)), 0);
	assert_int_equal(p.kind, SIM_POL_SCHED);
	assert_int_equal(p.sched, SCHED_POLICY_ULE);
	sim_policy_apply(&p);
	assert_int_equal(sched_primary_kind, 2);
	assert_int_equal(sched_policy, SCHED_POLICY_ULE);
	sim_tunables_restore();
	assert_int_equal(sim_policy_parse("hmp:balance_stats=0", &p, err, sizeof(err)), 0);
	sim_policy_apply(&p);
	assert_int_equal(hmp_balance_stats, 0);
	sim_tunables_restore();
	assert_int_equal(hmp_balance_stats, 1);
}

static void expect_refusal(const char *spec, const char *message)
{
	struct sim_policy p;
	assert_int_equal(sim_policy_parse(spec, &p, err, sizeof(err)), -1);
	assert_string_equal(err, message);
}

static void test_refusals(void **state)
{
	(void)state;
	expect_refusal("cfs", "policy 'cfs': 'cfs' is not a policy (schedsim --list shows them)");
	expect_refusal("hmp-:steer=0", "policy 'hmp-:steer=0': 'hmp-' is not a policy (schedsim --list shows them)");
	expect_refusal("hmp-no-d:steer=1", "policy 'hmp-no-d:steer=1': option 'steer' given twice");
	expect_refusal("hmp:steer", "policy 'hmp:steer': option 'steer' is not NAME=VALUE");
	expect_refusal("hmp:steer=0:steer=1", "policy 'hmp:steer=0:steer=1': option 'steer' given twice");
	expect_refusal("hmp:colour=1", "policy 'hmp:colour=1': unknown option 'colour' (schedsim --list shows them)");
	expect_refusal("hmp:metric=speed", "policy 'hmp:metric=speed': metric: 'speed' is not one of perf|ee");
	struct sim_policy p;
	assert_int_equal(sim_policy_parse("hmp:steer=7", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "policy 'hmp:steer=7': steer"));
	assert_non_null(strstr(err, "0..1"));
	char longer[80];
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = 0;
	assert_int_equal(sim_policy_parse(longer, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "longer than 64 characters"));
	struct sim_setting s;
	assert_int_equal(sim_sysctl_parse("kern.sched.nope=1", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "--sysctl 'kern.sched.nope=1': unknown variable (schedsim --list shows them)");
	assert_int_equal(sim_sysctl_parse("kern.sched.slice", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "--sysctl 'kern.sched.slice': expected NAME=VALUE");
	assert_int_equal(sim_sysctl_parse("kern.sched.slice=0", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1..1000"));
	assert_int_equal(sim_sysctl_parse("kern.sched.policy=hmp", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "--sysctl 'kern.sched.policy=hmp': give the policy with --policy");
	assert_int_equal(sim_sysctl_parse("kern.sched.hmp.perf0=sdm", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "kern.sched.hmp.perf0: 'sdm' is not one of overflow|ee0-never|strict");
	assert_int_equal(sim_machine_load("machines", "no-such-machine", &sm, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "machines/no-such-machine.machine"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oracle_i7),
		cmocka_unit_test(test_oracle_155h),
		cmocka_unit_test(test_pinning),
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
