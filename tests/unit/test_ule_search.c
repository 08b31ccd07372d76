/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of cpu_search_lowest / cpu_search_highest (kernel/sched/
 * ule_search.c) on synthetic trees built by topo_build(): the two worked
 * examples of docs/sched.md (a wake-up and a balancing search), group
 * totals winning over single CPUs, the prefer bonus, priority / load /
 * mask eligibility, the SMT adjustment while balancing, and group totals
 * beyond 32 bits. Random terms stay below half a thread, so
 * every expectation holds for any seed. */
#include <tests/unit/ule_test_util.h>

/* root (L3) → SMT groups {0,1}, {2,3} */
static void two_smt_cores(void)
{
	ut_machine(4, 2, 1, 2);
	assert_int_equal(ut_topo.root->cg_children, 2);
	assert_true(ut_topo.root->cg_child[0].cg_flags & CG_FLAG_THREAD);
}

static void test_example_wakeup(void **state)
{
	(void)state;
	two_smt_cores();
	struct cpuset all = ut_all();
	for (int seed = 0; seed < 4; seed++) {
		spt.self = seed;                 /* different LCG streams */
		ut_set(0, 1, 0, 150), ut_set(1, 0, 0, PRI_MAX_IDLE);
		ut_set(2, 1, 0, 150), ut_set(3, 0, 0, PRI_MAX_IDLE);
		struct cpu_search s = { .cs_mask = &all, .cs_prefer = 0, .cs_running = 0,
					.cs_pri = -1, .cs_load = 1 << 30 };
		struct cpu_search_res r;
		struct cpu_search_res lr;
		assert_int_equal(cpu_search_lowest(&ut_topo.root->cg_child[0], &s, &lr), 128);
		assert_int_equal(lr.csr_cpu, 1);
		assert_int_equal(cpu_search_lowest(&ut_topo.root->cg_child[1], &s, &lr), 256);
		assert_int_equal(lr.csr_cpu, 3);
		assert_int_equal(cpu_search_lowest(ut_topo.root, &s, &r), 384);
		assert_int_equal(r.csr_cpu, 1);  /* the prefer bonus tips it to {0,1} */
		/* without the bonus (prefer elsewhere) both groups total 256: either idle CPU */
		int cpu = sched_lowest(&ut_stock, ut_topo.root, &all, -1, 1 << 30, -1, 0);
		assert_true(cpu == 1 || cpu == 3);
	}
}

static void test_example_balancing(void **state)
{
	(void)state;
	two_smt_cores();
	struct cpuset lmask = ut_all();
	cpuset_clr_cpu(&lmask, 0);
	for (int seed = 0; seed < 4; seed++) {
		spt.self = seed;
		ut_set(0, 2, 1, 150), ut_set(1, 1, 0, 150);
		ut_set(2, 0, 0, PRI_MAX_IDLE), ut_set(3, 0, 0, PRI_MAX_IDLE);
		struct cpu_search s = { .cs_mask = &lmask, .cs_prefer = 0, .cs_running = 1,
					.cs_pri = -1, .cs_load = 1 };
		struct cpu_search_res lr;
		/* cpu1 256 + cpu0 (2 - 1) * 256 - 128 = 384; SMT adjustment → 512 */
		assert_int_equal(cpu_search_lowest(&ut_topo.root->cg_child[0], &s, &lr), 384);
		int cpu = sched_lowest(&ut_stock, ut_topo.root, &lmask, -1, 1, 0, 1);
		assert_true(cpu == 2 || cpu == 3);
	}
	/* maxload 0: only the idle pair qualifies */
	spt.self = 0;
	assert_true(sched_lowest(&ut_stock, ut_topo.root, &lmask, -1, 0, 0, 1) >= 2);
}

static void test_smt_adjustment(void **state)
{
	(void)state;
	two_smt_cores();
	struct cpuset lmask = ut_all();
	cpuset_clr_cpu(&lmask, 0);
	/* donor cpu0 load 2 with an idle sibling, cpu3 busy: {0,1} totals
	 * 128 (would always win on the half-thread bonus) but is compared as
	 * 256 = {2,3}; the random tie break then spreads over cpu1 and cpu2 */
	int seen[4] = { 0 };
	for (int round = 0; round < 64; round++) {
		spt.self = round % 4;
		ut_set(0, 2, 1, 150), ut_set(1, 0, 0, PRI_MAX_IDLE);
		ut_set(2, 0, 0, PRI_MAX_IDLE), ut_set(3, 1, 0, 150);
		int cpu = sched_lowest(&ut_stock, ut_topo.root, &lmask, -1, 1, 0, 1);
		assert_true(cpu == 1 || cpu == 2);
		seen[cpu]++;
	}
	assert_true(seen[1] > 0 && seen[2] > 0);
	/* a wake-up placement (running 0) with the same group shape: the
	 * preferred CPU's group (128) beats {2,3} (256) every time */
	for (int round = 0; round < 16; round++) {
		spt.self = round % 4;
		ut_set(0, 1, 0, 150);
		assert_int_equal(sched_lowest(&ut_stock, ut_topo.root, &lmask, -1, 1, 0, 0), 1);
	}
}

static void test_lowest_eligibility(void **state)
{
	(void)state;
	two_smt_cores();
	struct cpuset all = ut_all();
	ut_set(0, 2, 0, 100), ut_set(1, 2, 0, 100);
	ut_set(2, 1, 0, 60), ut_set(3, 3, 0, 200);
	/* pri 150: only CPUs whose lowpri is worse (cpu3) qualify */
	assert_int_equal(sched_lowest(&ut_stock, ut_topo.root, &all, 150, 1 << 30, -1, 0), 3);
	/* pri 250: none */
	assert_int_equal(sched_lowest(&ut_stock, ut_topo.root, &all, 250, 1 << 30, -1, 0), -1);
	/* maxload 1: cpu2 only */
	assert_int_equal(sched_lowest(&ut_stock, ut_topo.root, &all, -1, 1, -1, 0), 2);
	/* mask {0}: cpu0 even though it is loaded */
	struct cpuset m0 = ut_only(0);
	assert_int_equal(sched_lowest(&ut_stock, ut_topo.root, &m0, -1, 1 << 30, -1, 0), 0);
	/* group totals: {0,1} = 4 threads, {2,3} = 4 threads; tie broken on the
	 * best CPU: cpu2 (load 1) */
	assert_int_equal(sched_lowest(&ut_stock, ut_topo.root, &all, -1, 1 << 30, -1, 0), 2);
}

/* 8 CPUs: root (none) → two L3 packages → two SMT cores each. */
static void two_packages(void)
{
	ut_machine(8, 2, 1, 2);
	assert_int_equal(ut_topo.root->cg_children, 2);
	assert_int_equal(ut_topo.root->cg_child[0].cg_level, CG_SHARE_L3);
}

static void test_least_loaded_path(void **state)
{
	(void)state;
	two_packages();
	struct cpuset all = ut_all();
	/* package 0: 0,0,3,3 (total 6); package 1: 1,1,1,1 (total 4). The least
	 * loaded single CPU is in package 0, but the least loaded path is package 1. */
	int loads[8] = { 0, 0, 3, 3, 1, 1, 1, 1 };
	for (int c = 0; c < 8; c++)
		ut_set(c, loads[c], 0, loads[c] ? 150 : PRI_MAX_IDLE);
	int cpu = sched_lowest(&ut_stock, ut_topo.root, &all, -1, 1 << 30, -1, 0);
	assert_true(cpu >= 4);
}

static void test_highest(void **state)
{
	(void)state;
	two_smt_cores();
	struct cpuset all = ut_all();
	ut_set(0, 3, 0, 100), ut_set(1, 1, 1, 100);
	ut_set(2, 0, 0, 255), ut_set(3, 2, 1, 120);
	/* {0,1} total 4 beats {2,3} total 2: its best acceptable CPU is cpu1,
	 * although cpu3 carries more load (cpu0 has nothing transferable) */
	assert_int_equal(sched_highest(&ut_stock, ut_topo.root, &all, 1, 1), 1);
	/* minload 2 rules out cpu1 → cpu3 */
	assert_int_equal(sched_highest(&ut_stock, ut_topo.root, &all, 2, 1), 3);
	/* mintrans 0: cpu0, the most loaded on the most loaded path */
	assert_int_equal(sched_highest(&ut_stock, ut_topo.root, &all, 1, 0), 0);
	/* nothing with load >= 4 */
	assert_int_equal(sched_highest(&ut_stock, ut_topo.root, &all, 4, 0), -1);
}

static void test_random_lcg(void **state)
{
	(void)state;
	two_smt_cores();
	spt.self = 2;
	uint32_t x = 2u * 69069u + 5u;
	for (int i = 0; i < 5; i++) {
		x = x * 69069u + 5u;
		assert_int_equal(sched_random(), x >> 16);
	}
}

/* 64 CPUs with 10 million threads each: group totals of 1.6e11 load
 * units, far beyond 32 bits, stay exact and the search still works. */
static void test_totals_are_64_bit(void **state)
{
	(void)state;
	ut_machine(64, 2, 4, 64);
	struct cpuset all = ut_all();
	const int64_t big = 10 * 1000 * 1000;
	for (int c = 0; c < 64; c++)
		ut_set(c, (int)big, (int)big, 150);
	ut_set(37, (int)big - 1, (int)big - 1, 150);
	struct cpu_search s = { .cs_mask = &all, .cs_prefer = -1, .cs_pri = -1, .cs_load = 1 << 30 };
	struct cpu_search_res r;
	int64_t total = cpu_search_lowest(ut_topo.root, &s, &r);
	assert_true(total == (64 * big - 1) * SEARCH_LOAD_ONE);
	assert_int_equal(r.csr_cpu, 37);
	s.cs_load = 0;
	assert_true(cpu_search_highest(ut_topo.root, &s, &r) == total);
	assert_true(r.csr_cpu != 37);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_wakeup),
		cmocka_unit_test(test_example_balancing),
		cmocka_unit_test(test_smt_adjustment),
		cmocka_unit_test(test_lowest_eligibility),
		cmocka_unit_test(test_least_loaded_path),
		cmocka_unit_test(test_highest),
		cmocka_unit_test(test_random_lcg),
		cmocka_unit_test(test_totals_are_64_bit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
