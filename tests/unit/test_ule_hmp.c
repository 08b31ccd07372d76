/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of hybrid placement (kern.sched.policy=hmp; kernel/sched/
 * ule_hmp.c, ule_search.c, ule_pickcpu.c, ule_balance.c) on synthetic
 * trees shaped like the i7-1370P and the Core Ultra 7 155H: where threads
 * go as they arrive, what each of the seed report's switches (a)-(f)
 * decides that stock ULE does not, perf-0 CPUs, policy ule and
 * homogeneous machines deciding exactly as stock ULE, and 64-bit totals on
 * 256 CPUs. Up-migration has its own file, test_ule_upmigrate.c. */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_place.h>
#include <limits.h>

static void test_four_threads_on_four_p_cores(void **state)
{
	(void)state;
	for (int trial = 0; trial < 200; trial++) {
		ut_hybrid(UT_I7, 0);
		seed_all(trial);
		int cores = 0;
		for (int i = 0; i < 4; i++) {
			int cpu = place(i);
			assert_true(cpu < 12);                 /* a P-core, never an E-core */
			assert_false(cores & (1 << (cpu / 2))); /* never a second SMT thread */
			cores |= 1 << (cpu / 2);
		}
	}
}

/* Six threads fill the six P cores; the 7th and 8th go to E-cores before
 * any second SMT thread (an E-core adds 0.54 of a P thread, a second SMT
 * thread 0.39). */
static void test_e_cores_before_second_smt_threads(void **state)
{
	(void)state;
	for (int trial = 0; trial < 100; trial++) {
		ut_hybrid(UT_I7, 0);
		seed_all(trial);
		int cores = 0;
		for (int i = 0; i < 6; i++) {
			int cpu = place(i);
			assert_true(cpu < 12);
			cores |= 1 << (cpu / 2);
		}
		assert_int_equal(cores, 0x3f);
		assert_true(place(6) >= 12);
		assert_true(place(7) >= 12);
	}
}

/* Core Ultra 7 155H with its real HFI snapshot (LP-E perf 0: "do not
 * schedule here"): 4 threads on 4 P cores, and the LP-E cores (CPUs
 * 20-21) get no thread while a P or E core is idle. */
static void test_155h(void **state)
{
	(void)state;
	for (int trial = 0; trial < 50; trial++) {
		ut_hybrid(UT_155H, 0);
		seed_all(trial);
		int cores = 0;
		for (int i = 0; i < 4; i++) {
			int cpu = place(i);
			assert_true(cpu < 12);
			assert_false(cores & (1 << (cpu / 2)));
			cores |= 1 << (cpu / 2);
		}
		for (int i = 4; i < 14; i++) {   /* up to 6 P cores + 8 E cores */
			int cpu = place(i);
			if (cpu >= 20)
				fail_msg("trial %d: thread %d on LP-E CPU %d", trial, i, cpu);
		}
	}
}

/* kern.sched.hmp.perf0=strict (the report): CPUs with HFI perf 0 get no
 * thread while the thread may run elsewhere. */
static void test_perf_zero_never_chosen(void **state)
{
	(void)state;
	for (int trial = 0; trial < 50; trial++) {
		ut_hybrid(UT_I7, 0);
		hmp_perf0 = HMP_PERF0_STRICT;
		seed_all(trial);
		for (int c = 0; c < 4; c++)
			hmp_provide(HMP_PROV_MANUAL, c, HMP_PERF, 0, 0, 0);
		hmp_publish();
		for (int i = 0; i < 16; i++)
			assert_true(place(i) >= 4);
		assert_true(tdq_cpu(0)->tdq_stats.hmp_avoid_picks == 16);
		struct cpuset only01 = ut_only(0);
		cpuset_set(&only01, 1);
		int cpu = place_on(16, &only01);       /* nowhere else to go: allowed */
		assert_true(cpu == 0 || cpu == 1);
	}
}


/* Running threads leave CPUs whose HFI perf drops to 0 at their next
 * switch (the tick's slice end or the balancer's repick), counted in
 * hmp_avoid_moves, and do not come back while the row stays 0; a thread
 * allowed only there stays. */
static void test_perf_zero_running_threads_leave(void **state)
{
	(void)state;
	for (int trial = 0; trial < 5; trial++) {
		ut_hybrid(UT_I7, 0);
		seed_all(trial);
		for (int i = 0; i < 6; i++)
			assert_true(place(i) < 12);
		struct cpuset only0 = ut_only(0);
		place_on(6, &only0);
		int on_zeroed = 0;
		for (int i = 0; i < 6; i++)
			on_zeroed += th[i].ts_cpu < 4;
		for (int c = 0; c < 4; c++)
			hmp_provide(HMP_PROV_MANUAL, c, HMP_PERF, 0, 0, 0);
		hmp_publish();
		for (int r = 0; r < 300; r++)
			run_round();
		for (int i = 0; i < 6; i++)
			assert_true(th[i].ts_cpu >= 4);
		assert_int_equal(th[6].ts_cpu, 0);
		assert_true(STAT(hmp_avoid_moves) >= (uint64_t)on_zeroed);
		for (int r = 0; r < 200; r++) {
			run_round();
			for (int i = 0; i < 6; i++)
				assert_true(th[i].ts_cpu >= 4);
		}
	}
}

/* The per-type counters of sched_pickcpu: four threads on the i7 shape
 * count four P picks; with the P-cores pinned away (affinity E only) the
 * next picks count as E; on the 155H shape nothing counts as LP-E while
 * P and E CPUs are idle; every pick is counted exactly once. */
static void test_pick_counters_by_core_type(void **state)
{
	(void)state;
	ut_hybrid(UT_I7, 0);
	seed_all(1);
	for (int i = 0; i < 4; i++)
		place(i);
	assert_int_equal(STAT(pick_p), 4);
	assert_int_equal(STAT(pick_e) + STAT(pick_lpe) + STAT(pick_untyped), 0);
	struct cpuset ecores;
	cpuset_zero(&ecores);
	for (int c = 12; c < 20; c++)
		cpuset_set(&ecores, (unsigned)c);
	for (int i = 4; i < 7; i++)
		assert_true(place_on(i, &ecores) >= 12);
	assert_int_equal(STAT(pick_p), 4);
	assert_int_equal(STAT(pick_e), 3);
	ut_hybrid(UT_155H, 0);
	seed_all(2);
	for (int i = 0; i < 8; i++)
		place(i);
	assert_int_equal(STAT(pick_lpe), 0);
	assert_int_equal(STAT(pick_p) + STAT(pick_e), 8);
}

/* Eight CPU-bound threads started anywhere (here: all on the E-cores)
 * end on six P cores and two E-cores and stay there: the weighted
 * balancer and the up-migration reach a state no pass changes (no
 * ping-pong between CPUs the searches weigh differently). */
static void test_balance_reaches_a_stable_state(void **state)
{
	(void)state;
	for (int trial = 0; trial < 5; trial++) {
		ut_hybrid(UT_I7, 0);
		seed_all(trial);
		struct cpuset ecores;
		cpuset_zero(&ecores);
		for (int c = 12; c < 20; c++)
			cpuset_set(&ecores, (unsigned)c);
		for (int i = 0; i < 8; i++)
			place_on(i, &ecores);
		for (int i = 0; i < 8; i++)
			sched_set_affinity(&th[i], NULL);
		for (int r = 0; r < 600; r++)
			run_round();
		int where[NT], p_cores = 0, e = 0;
		for (int i = 0; i < 8; i++)
			where[i] = th[i].ts_cpu;
		for (int r = 0; r < 400; r++) {
			run_round();
			for (int i = 0; i < 8; i++)
				assert_int_equal(th[i].ts_cpu, where[i]);   /* no move at all */
		}
		for (int i = 0; i < 8; i++) {
			if (where[i] < 12)
				p_cores |= 1 << (where[i] / 2);
			else
				e++;
		}
		assert_int_equal(p_cores, 0x3f);
		assert_int_equal(e, 2);
	}
}

/* kern.sched.hmp.metric=ee: steered by energy efficiency, a light load
 * (two threads) runs on E-cores. */
static void test_metric_ee(void **state)
{
	(void)state;
	for (int trial = 0; trial < 50; trial++) {
		ut_hybrid(UT_I7, 0);
		hmp_metric = HMP_METRIC_EE;
		seed_all(trial);
		assert_true(place(0) >= 12);
		assert_true(place(1) >= 12);
	}
	hmp_metric = HMP_METRIC_PERF;
}

/* kern.sched.hmp.class_aware: with every P core running a batch thread,
 * an interactive thread still goes to a P-core (where it preempts); without
 * the option it takes an idle E-core. */
static void test_class_aware(void **state)
{
	(void)state;
	for (int on = 0; on <= 1; on++) {
		ut_hybrid(UT_I7, 0);
		hmp_sw_latency = 0;
		hmp_class_aware = on;
		for (int i = 0; i < 6; i++)
			place(i);
		spt.self = 0;
		sched_thread_init(&th[10], NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
		th[10].ts_slptime = 100u << SCHED_TICK_SHIFT;   /* interactive */
		sched_add(&th[10], 0);
		assert_true(th[10].ts_pri <= PRI_MAX_INTERACT);
		assert_true(on ? th[10].ts_cpu < 12 : th[10].ts_cpu >= 12);
		assert_true(tdq_cpu(0)->tdq_stats.hmp_class_picks == (uint64_t)on);
	}
	hmp_class_aware = 0;
}

/* kern.sched.primary: efficiency (the E-cores) while one is idle, then
 * overflow; a list; the counters; up-migration keeps to the domain. */
static void test_primary_domain(void **state)
{
	(void)state;
	ut_hybrid(UT_I7, 0);
	sched_primary_kind = SCHED_PRIMARY_EFFICIENCY;
	for (int i = 0; i < 8; i++)
		assert_true(place(i) >= 12);
	assert_true(place(8) < 12);                    /* E full: overflow */
	struct sched_stats *st = &tdq_cpu(0)->tdq_stats;
	assert_true(st->primary_picks == 8 && st->primary_overflows == 1);
	struct cpuset p_only = ut_only(4);
	place_on(9, &p_only);                          /* may not use the domain... */
	assert_true(st->primary_misses == 0);           /* ...but no primary CPU is idle */
	ut_hybrid(UT_I7, 0);
	sched_primary_kind = SCHED_PRIMARY_LIST;
	cpuset_zero(&sched_primary_list);
	cpuset_set(&sched_primary_list, 7);
	cpuset_set(&sched_primary_list, 16);
	int a = place(0), b = place(1);
	assert_true((a == 7 && b == 16) || (a == 16 && b == 7));
	place_on(2, &p_only);                          /* CPU 4 only: a miss */
	assert_true(tdq_cpu(0)->tdq_stats.primary_misses == 0);   /* 7 and 16 are busy now */
	ut_hybrid(UT_I7, 0);
	sched_primary_kind = SCHED_PRIMARY_LIST;
	place_on(0, &p_only);
	assert_true(tdq_cpu(0)->tdq_stats.primary_misses == 1);   /* 7 and 16 idle, not allowed */
	/* up-migration does not take a thread out of the domain */
	ut_hybrid(UT_I7, 0);
	sched_primary_kind = SCHED_PRIMARY_EFFICIENCY;
	assert_true(place(0) >= 12);
	spt.self = 4;
	sched_idle(4);                                 /* an idle P CPU does not ask */
	assert_false(th[0].ts_flags & TSF_PICKCPU);
	sched_primary_kind = SCHED_PRIMARY_PERFORMANCE;
	spt_advance((uint64_t)hmp_upmigrate_scan);
	sched_idle(4);                                 /* into the domain: asked */
	assert_true(th[0].ts_flags & TSF_PICKCPU);
	sched_primary_kind = SCHED_PRIMARY_ALL;
}

/* The CPUs the placement of n threads chose, for comparing policies. */
static void sequence(int n, int *out)
{
	for (int i = 0; i < n; i++)
		out[i] = place(i);
}

/* kern.sched.policy=ule decides exactly as stock ULE, whatever hmp knows. */
static void test_policy_ule_is_stock(void **state)
{
	(void)state;
	int with_hmp[24], stock[24];
	for (int trial = 0; trial < 50; trial++) {
		ut_hybrid(UT_I7, 0);
		sched_policy = SCHED_POLICY_ULE;
		seed_all(trial);
		sequence(24, with_hmp);
		ut_hybrid(UT_I7, 0);
		hmp_init(UT_I7_NCPU);                  /* hmp knows nothing: every CPU alike */
		sched_policy = SCHED_POLICY_ULE;
		seed_all(trial);
		sequence(24, stock);
		assert_memory_equal(with_hmp, stock, sizeof(stock));
	}
}

/* On a homogeneous machine (Xeon-like: 4 SMT cores) hmp is stock ULE. */
static void test_homogeneous_hmp_is_ule(void **state)
{
	(void)state;
	int hmp[12], ule[12];
	for (int trial = 0; trial < 50; trial++) {
		ut_machine(8, 2, 1, 8);
		sched_policy = SCHED_POLICY_HMP;
		seed_all(trial);
		sequence(12, hmp);
		ut_machine(8, 2, 1, 8);
		sched_policy = SCHED_POLICY_ULE;
		seed_all(trial);
		sequence(12, ule);
		assert_memory_equal(hmp, ule, sizeof(ule));
	}
	sched_policy = SCHED_POLICY_ULE;
}

/* Loads for the switch tests: every CPU of the i7 shape heavily loaded
 * (4 threads) except those set afterwards; the report's searches and
 * switches only (kern.sched.hmp.best and smt_steer off). */
static void loaded_i7(void)
{
	ut_hybrid(UT_I7, 0);
	hmp_sw_smt_steer = 0;
	hmp_sw_best = 0;
	for (int c = 0; c < UT_I7_NCPU; c++)
		ut_set(c, 4, 0, 150);
}

/* Where a thread not yet running anywhere would go (any priority, CPUs
 * with at most maxload threads). */
static int lowest_max(int maxload)
{
	struct search_mode mode = search_mode_now();
	struct cpuset all = ut_all();
	return sched_lowest(&mode, sched_top, &all, -1, maxload, -1, 0);
}

static int lowest(void)
{
	return lowest_max(INT_MAX);
}

/* (a) weights: P core {0,1} with 2 threads on CPU 0 against E module
 * {12-15} with one thread on 12, 13, 14. Weighed by capacity the P core is
 * less loaded (2 x 138 against 3 x 256); at 256 each it is not. */
static void test_switch_a_weight(void **state)
{
	(void)state;
	loaded_i7();
	ut_set(0, 2, 0, 150), ut_set(1, 0, 0, 255);
	ut_set(12, 1, 0, 150), ut_set(13, 1, 0, 150), ut_set(14, 1, 0, 150), ut_set(15, 0, 0, 255);
	assert_int_equal(lowest(), 1);
	hmp_sw_weight = 0;
	assert_int_equal(lowest(), 15);
}

/* (b) per-CPU comparison: P core {0,1} with one thread against E module
 * {12-15} with one thread. Per CPU the P core is less loaded (its sibling
 * idle counts double), in raw totals the E module. */
static void test_switch_b_normalize(void **state)
{
	(void)state;
	loaded_i7();
	ut_set(0, 1, 0, 150), ut_set(1, 0, 0, 255);
	ut_set(12, 1, 0, 150), ut_set(13, 0, 0, 255), ut_set(14, 0, 0, 255), ut_set(15, 0, 0, 255);
	assert_int_equal(lowest(), 1);
	hmp_sw_normalize = 0;
	int cpu = lowest();
	assert_true(cpu >= 13 && cpu <= 15);
}

/* (c) the SMT penalty: a busy P core's idle sibling against an idle E
 * module: with the penalty the E-core, without it the second SMT thread. */
static void test_switch_c_smt(void **state)
{
	(void)state;
	loaded_i7();
	ut_set(0, 1, 0, 150), ut_set(1, 0, 0, 255);
	for (int c = 12; c < 16; c++)
		ut_set(c, 0, 0, 255);
	int cpu = lowest();
	assert_true(cpu >= 12 && cpu <= 15);
	hmp_sw_smt = 0;
	assert_int_equal(lowest(), 1);
}

/* (d) steering: the same P core with one thread against an E module with
 * one thread: steered by the scores the P sibling, unsteered an E-core. */
static void test_switch_d_steer(void **state)
{
	(void)state;
	loaded_i7();
	ut_set(0, 1, 0, 150), ut_set(1, 0, 0, 255);
	ut_set(12, 1, 0, 150), ut_set(13, 0, 0, 255), ut_set(14, 0, 0, 255), ut_set(15, 0, 0, 255);
	assert_int_equal(lowest(), 1);
	hmp_sw_steer = 0;
	int cpu = lowest();
	assert_true(cpu >= 13 && cpu <= 15);
}

/* Beyond the report, smt_steer: the same P core with one thread against
 * the E module with one thread. A thread on the idle sibling gets half
 * the core, so it is steered to by half the P score: the E-core wins. */
static void test_smt_steer(void **state)
{
	(void)state;
	loaded_i7();
	ut_set(0, 1, 0, 150), ut_set(1, 0, 0, 255);
	ut_set(12, 1, 0, 150), ut_set(13, 0, 0, 255), ut_set(14, 0, 0, 255), ut_set(15, 0, 0, 255);
	assert_int_equal(lowest(), 1);
	hmp_sw_smt_steer = 1;
	int cpu = lowest();
	assert_true(cpu >= 13 && cpu <= 15);
}

/* The CPU of an idle 4-CPU E module that cpu_search_lowest picks when the
 * candidates' values are -steer - random % range, drawn from CPU 0's LCG
 * starting at seed, visiting 15, 14, 13, 12 (first strictly best wins). */
static int predict_lowest(uint32_t seed, uint32_t range)
{
	int best = -1;
	int64_t bval = INT64_MAX;
	for (int c = 15; c >= 12; c--) {
		seed = seed * 69069u + 5u;
		int64_t v = -140 - (int64_t)((seed >> 16) % range);
		if (v < bval)
			bval = v, best = c;
	}
	return best;
}

/* (e) the random tie break among equal CPUs stays below score / 4 (an
 * E-core: perf 560 / 4 = 140) instead of half a thread (128). Only the E module is idle, and only
 * idle CPUs are acceptable (so only they draw random numbers). */
static void test_switch_e_random(void **state)
{
	(void)state;
	int differs = 0;
	for (uint32_t seed = 1; seed < 200; seed++) {
		for (int on = 1; on >= 0; on--) {
			loaded_i7();
			for (int c = 12; c < 16; c++)
				ut_set(c, 0, 0, 255);
			hmp_sw_random = on;
			tdq_cpu(0)->tdq_rand = seed;
			assert_int_equal(lowest_max(0), predict_lowest(seed, on ? 560 / 4 : 256 / 2));
		}
		differs += predict_lowest(seed, 140) != predict_lowest(seed, 128);
	}
	assert_true(differs > 20);   /* the switch changes real decisions */
}

/* (f) cpu_search_highest's random range is the CPU's weight (P: 138)
 * instead of 256: two equally loaded P CPUs {0,1}, nothing else. */
static void test_switch_f_highest_random(void **state)
{
	(void)state;
	int differs = 0;
	for (uint32_t seed = 1; seed < 200; seed++) {
		int got[2];
		for (int on = 1; on >= 0; on--) {
			ut_hybrid(UT_I7, 0);
			hmp_sw_best = 0;
			ut_set(0, 3, 1, 150), ut_set(1, 3, 1, 150);
			hmp_sw_highest_random = on;
			tdq_cpu(0)->tdq_rand = seed;
			struct search_mode mode = search_mode_now();
			struct cpuset all = ut_all();
			got[on] = sched_highest(&mode, sched_top, &all, 1, 0);
			uint32_t x = seed, range = on ? 138 : 256;
			x = x * 69069u + 5u;
			int64_t v1 = 3 * 138 - (int64_t)((x >> 16) % range);   /* CPU 1 first */
			x = x * 69069u + 5u;
			int64_t v0 = 3 * 138 - (int64_t)((x >> 16) % range);
			assert_int_equal(got[on], v0 > v1 ? 0 : 1);
		}
		differs += got[0] != got[1];
	}
	assert_true(differs > 10);
}

/* (b) exactly: groups of 2, 3 and 4 CPUs under one L3 get the multipliers
 * 6, 4 and 3 (common multiple 12). With one thread each, per CPU the
 * 4-CPU group is the least loaded; in raw totals it is the most loaded
 * (its CPUs are the slowest, so its thread weighs 256 against 250). */
static void test_normalize_2_3_4(void **state)
{
	(void)state;
	static const int module_of[9] = { 0, 0, 1, 1, 1, 2, 2, 2, 2 };
	for (int n = 0; n < 9; n++) {
		ut_desc(n, 1, 1, 9);
		ut_descs[n].module_id = ut_descs[n].cache_id[2] = (uint32_t)module_of[n];
	}
	assert_int_equal(topo_build(&ut_topo, ut_descs, 9, NULL), TOPO_OK);
	struct cpu_group *root = ut_topo.root;
	assert_int_equal(root->cg_children, 3);
	assert_int_equal(root->cg_child[0].cg_norm, 6);
	assert_int_equal(root->cg_child[1].cg_norm, 4);
	assert_int_equal(root->cg_child[2].cg_norm, 3);
	spt_reset(9, root);
	hmp_init(9);
	for (int c = 0; c < 9; c++)
		hmp_provide(HMP_PROV_MACHINE, c, HMP_CAPACITY, c < 5 ? 1024 : 1000, 0, 0);
	hmp_publish();
	sched_init(root, 9);
	sched_start_smp();
	sched_policy = SCHED_POLICY_HMP;
	hmp_sw_weight = hmp_sw_normalize = 1;
	hmp_sw_steer = 0;
	hmp_sw_best = 0;
	for (int c = 0; c < 9; c++)
		ut_set(c, 0, 0, 255);
	ut_set(0, 1, 0, 150), ut_set(2, 1, 0, 150), ut_set(5, 1, 0, 150);
	for (int seed = 0; seed < 20; seed++) {
		seed_all(seed);
		int cpu = lowest();
		assert_true(cpu >= 6 && cpu <= 8);     /* per CPU: 250/2, 250/3, 256/4 */
	}
	hmp_sw_normalize = 0;
	for (int seed = 0; seed < 20; seed++) {
		seed_all(seed);
		int cpu = lowest();
		assert_true(cpu == 1 || cpu == 3 || cpu == 4);   /* raw: 250, 250, 256 */
	}
	hmp_sw_steer = 1;
}

/* (c) propagated: on the 155H shape the L3 group's total includes its
 * busy SMT groups' penalties when the root compares it with the LP-E
 * module, so a lone LP-E core wins over crowding the L3 further. */
static void test_smt_penalty_propagates(void **state)
{
	(void)state;
	ut_hybrid(UT_155H, 25);
	hmp_sw_best = 0;
	for (int c = 0; c < 12; c++)
		ut_set(c, c % 2 ? 0 : 1, 0, c % 2 ? 255 : 150);   /* one thread per P core */
	for (int c = 12; c < 20; c++)
		ut_set(c, c < 16 ? 2 : 1, c < 16 ? 1 : 0, 150);
	ut_set(20, 1, 0, 150), ut_set(21, 0, 0, 255);
	for (int seed = 0; seed < 20; seed++) {
		seed_all(seed);
		assert_int_equal(lowest(), 21);
	}
	hmp_sw_smt = 0;
	int cpu = lowest();
	assert_true(cpu < 12 && cpu % 2 == 1);   /* an idle SMT sibling */
	hmp_sw_smt = 1;
}

/* 256 CPUs in 2 packages, each 32 P cores x 2 threads + 16 E modules of
 * 4, with 10 000 threads on every CPU: totals far beyond 32 bits, both
 * searches answer, UBSan sees no overflow. */
static void test_256_cpus_10000_threads(void **state)
{
	(void)state;
	for (int n = 0; n < 256; n++) {
		struct cpu_desc *d = &ut_descs[n];
		memset(d, 0, sizeof(*d));
		d->apic_id = (uint32_t)n;
		d->source = CPU_DESC_FROM_MACHINE_FILE;
		d->hfi_row = CPU_DESC_NO_HFI_ROW;
		d->core_type = n < 128 ? CPU_CORE_P : CPU_CORE_E;
		d->smt_id = (uint32_t)(n < 128 ? n % 2 : 0);
		d->smt_threads = n < 128 ? 2 : 1;
		d->core_id = (uint32_t)(n < 128 ? n / 2 : n);
		d->module_id = (uint32_t)(n < 128 ? n / 2 : 1000 + (n - 128) / 4);
		d->package_id = (uint32_t)(n < 128 ? n / 64 : (n - 128) / 64);
		d->cache_id[0] = CPU_DESC_NO_CACHE;
		d->cache_id[1] = d->core_id;
		d->cache_id[2] = d->module_id;
		d->cache_id[3] = d->package_id;
	}
	assert_int_equal(topo_build(&ut_topo, ut_descs, 256, NULL), TOPO_OK);
	spt_reset(256, ut_topo.root);
	hmp_init(256);
	for (int c = 0; c < 256; c++)
		hmp_provide(HMP_PROV_MACHINE, c, HMP_CAPACITY | HMP_PERF | HMP_EE, c < 128 ? 1000 : 540,
			    c < 128 ? 976 : 560, 400);
	hmp_publish();
	sched_init(ut_topo.root, 256);
	sched_start_smp();
	sched_policy = SCHED_POLICY_HMP;
	for (int c = 0; c < 256; c++)
		ut_set(c, 10000, 10000, 150);
	ut_set(200, 9999, 9999, 150);
	struct search_mode mode = search_mode_now();
	struct cpuset all;
	cpuset_zero(&all);
	for (int c = 0; c < 256; c++)
		cpuset_set(&all, (unsigned)c);
	struct cpu_search s = { .cs_mode = mode, .cs_mask = &all, .cs_prefer = -1, .cs_pri = -1,
				.cs_load = 1 << 30 };
	struct cpu_search_res r;
	int64_t total = cpu_search_lowest(ut_topo.root, &s, &r);
	/* P: 10000 x 138 - 244 / 2 (steer halved: the sibling is busy) each,
	 * plus 128 per busy P core; E: 10000 x 256 - 140, CPU 200 one less */
	assert_true(total == 128 * (10000 * 138 - 122) + 64 * 128 + 128 * (10000 * 256 - 140) - 256);
	assert_true(r.csr_cpu >= 0);
	s.cs_load = 0;
	assert_true(cpu_search_highest(ut_topo.root, &s, &r) ==
		    128 * 10000 * 138 + 128 * 10000 * 256 - 256);
	assert_true(r.csr_cpu >= 128);   /* a thread weighs most on an E-core */
	sched_policy = SCHED_POLICY_ULE;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_threads_on_four_p_cores),
		cmocka_unit_test(test_e_cores_before_second_smt_threads),
		cmocka_unit_test(test_155h),
		cmocka_unit_test(test_balance_reaches_a_stable_state),
		cmocka_unit_test(test_metric_ee),
		cmocka_unit_test(test_class_aware),
		cmocka_unit_test(test_primary_domain),
		cmocka_unit_test(test_perf_zero_never_chosen),
		cmocka_unit_test(test_policy_ule_is_stock),
		cmocka_unit_test(test_homogeneous_hmp_is_ule),
		cmocka_unit_test(test_switch_a_weight),
		cmocka_unit_test(test_switch_b_normalize),
		cmocka_unit_test(test_switch_c_smt),
		cmocka_unit_test(test_switch_d_steer),
		cmocka_unit_test(test_smt_steer),
		cmocka_unit_test(test_switch_e_random),
		cmocka_unit_test(test_switch_f_highest_random),
		cmocka_unit_test(test_normalize_2_3_4),
		cmocka_unit_test(test_smt_penalty_propagates),
		cmocka_unit_test(test_256_cpus_10000_threads),
		cmocka_unit_test(test_perf_zero_running_threads_leave),
		cmocka_unit_test(test_pick_counters_by_core_type),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
