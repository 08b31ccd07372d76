/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of hybrid placement in the regimes a review found it failing
 * (docs/hmp.md, "What was fixed"), each on a synthetic tree: B1 a group's
 * total hiding an idle fast CPU, B2 up-migration that never migrates, B3
 * every HFI perf 0, B4 the balancer stopping at a donor it cannot use, B5
 * the random term outweighing cache affinity, B6 weights rounding to 0,
 * B7 perf 0 as absolute; latency-sensitive threads; and what the
 * property run over generated machines found after. Where the seed
 * report's searches still exist (kern.sched.hmp.best=0), a companion test
 * shows the defect is there, so each test would fail on the old rule. */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_shape.h>
#include <tests/unit/ut_place.h>

/* 2 P cores x 2, two 3-core E modules, one LP-E outside the L3: the
 * i7-1370P model's speeds and scores, LP-E 0.42 (perf 110). CPUs 0-3 P,
 * 4-9 E, 10 LP-E. */
static const struct ut_shape b1_shape = {
	.p_cores = 2, .p_threads = 2, .e_modules = { 3, 3 }, .lpe = 1,
	.cap = { 1000, 540, 420 }, .perf = { 244, 140, 110 }, .ee = { 80, 200, 230 },
};

/* The type the k-th CPU-bound thread should get on b1_shape, best first:
 * a P core (1.0), an E-core (0.54), the LP-E core (0.42), a second SMT
 * thread (0.39: hmp's default SMT share). */
static int b1_expected(int k)
{
	return k < 2 ? 0 : k < 8 ? 1 : k < 9 ? 2 : 3;
}

/* 0 P alone, 1 E, 2 LP-E, 3 a P CPU whose sibling is busy, for cpu. */
static int b1_kind(int cpu)
{
	if (cpu >= 10)
		return 2;
	if (cpu >= 4)
		return 1;
	return tdq_load_of(cpu ^ 1) ? 3 : 0;
}

/* Places 11 threads on b1_shape; the first k whose CPU kind was not the
 * expected one, or -1. */
static int b1_first_misplaced(int seed)
{
	ut_shape_boot(&b1_shape);
	seed_all(seed);
	for (int k = 0; k < 11; k++) {
		int cpu = place(k);
		if (b1_kind(cpu) != b1_expected(k))
			return k;
	}
	return -1;
}

/* B1: threads fill P cores, then every E-core, then the LP-E core, then
 * second SMT threads — whatever the group totals. */
static void test_b1_idle_fast_cpu_is_never_hidden(void **state)
{
	(void)state;
	for (int seed = 0; seed < 100; seed++) {
		int k = b1_first_misplaced(seed);
		if (k >= 0)
			fail_msg("seed %d: thread %d misplaced", seed, k);
	}
}

/* B1 under the report's searches: comparing group totals sends some
 * thread to the LP-E core or a second SMT thread while E-cores idle. */
static void test_b1_report_searches_hide_it(void **state)
{
	(void)state;
	int misplaced = 0;
	for (int seed = 0; seed < 100; seed++) {
		ut_shape_boot(&b1_shape);
		hmp_sw_best = 0;
		seed_all(seed);
		for (int k = 0; k < 11; k++)
			if (b1_kind(place(k)) != b1_expected(k)) {
				misplaced++;
				break;
			}
	}
	assert_true(misplaced > 0);
}

/* Searches (sched_pickcpu calls that did not just stay) so far. */
static uint64_t picks(void)
{
	return STAT(pick_idle_affinity) + STAT(pick_llc_idle) + STAT(pick_preempt) +
	       STAT(pick_lowest) + STAT(pick_local);
}

/* B2: 7 CPU-bound threads on b1_shape for 4 s: once placed, a thread is
 * asked to move at most once a balance interval, and each ask moves it to
 * the idle CPU that asked or leaves it alone — no repick search. */
static void test_b2_upmigration_moves_or_does_nothing(void **state)
{
	(void)state;
	for (int seed = 0; seed < 5; seed++) {
		ut_shape_boot(&b1_shape);
		seed_all(seed);
		for (int k = 0; k < 7; k++)
			place(k);
		uint64_t before = picks();
		for (int r = 0; r < 400; r++)
			run_round();
		uint64_t asks = STAT(upmigrate_asks), moved = STAT(upmigrations);
		uint64_t bound = 7 * (400 / (uint64_t)balance_interval + 1);
		assert_true(asks <= bound);
		assert_true(STAT(upmigrations) + STAT(upmigrate_stale) <= asks);
		assert_true(picks() - before <= moved + bound);
	}
}

/* B3: every HFI perf 0 ("no information", seen on real firmware): the
 * scores follow capacity, so the first threads take P cores. */
static void test_b3_all_zero_perf_follows_capacity(void **state)
{
	(void)state;
	for (int seed = 0; seed < 100; seed++) {
		ut_hybrid(UT_I7, 0);
		for (int c = 0; c < UT_I7_NCPU; c++)
			hmp_provide(HMP_PROV_HFI, c, HMP_PERF, 0, 0, 0);
		hmp_publish();
		assert_true(hmp_all_perf_zero());
		assert_false(hmp_avoid(0));
		seed_all(seed);
		int a = place(0), b = place(1);
		assert_true(a < 12 && b < 12 && a / 2 != b / 2);
	}
}

/* The B4 state on the 155H shape (LP-E perf 25, so usable): a lone thread
 * on LP-E CPU 20, three on CPU 0 (two queued, free to move), every other
 * CPU idle; one balancer pass from CPU 0; the threads it moved. */
static uint64_t b4_pass(int best)
{
	ut_hybrid(UT_155H, 25);
	hmp_sw_best = best;
	struct cpuset lpe = ut_only(20), cpu0 = ut_only(0);
	place_on(0, &lpe);
	for (int k = 1; k < 4; k++)
		place_on(k, &cpu0);
	for (int k = 0; k < 4; k++)
		sched_set_affinity(&th[k], NULL);
	assert_int_equal(tdq_load_of(0), 3);
	spt.self = 0;
	sched_balance();
	return STAT(balance_moves);
}

/* B4: the balancer goes on to the donor that has threads to give. */
static void test_b4_balancer_passes_a_donor_it_cannot_use(void **state)
{
	(void)state;
	for (int seed = 0; seed < 20; seed++) {
		seed_all(seed);
		assert_true(b4_pass(1) >= 1);
	}
	assert_int_equal(b4_pass(0), 0);   /* the report's balancer stops at the LP-E donor */
}

/* Where a thread that last ran on CPU 8 (a P core, perf 244) goes when it
 * wakes with a cold cache and every CPU idle. */
static int b5_wake(int seed)
{
	ut_hybrid(UT_I7, 0);
	seed_all(seed);
	struct cpuset eight = ut_only(8);
	place_on(0, &eight);
	sched_set_affinity(&th[0], NULL);
	spt.self = 8;
	sched_sleep(&th[0]);
	assert_null(sched_switch(&th[0], SCHED_SW_SLEEP));
	spt_advance(1000);   /* the cache is cold */
	spt.self = 0;
	sched_wakeup(&th[0]);
	return th[0].ts_cpu;
}

/* B5: the preferred CPU keeps its thread against equal and slightly
 * better idle CPUs (the favoured cores, perf 255): the random draw breaks
 * exact ties only. */
static void test_b5_random_term_below_the_prefer_bonus(void **state)
{
	(void)state;
	for (int seed = 0; seed < 100; seed++)
		assert_int_equal(b5_wake(seed), 8);
}

/* B6: a capacity 1000 times below the fastest is raised to 1/16 of it,
 * every weight stays at least 16, and the weighted balancer still gives
 * the slow CPU work. */
static void test_b6_weights_never_zero(void **state)
{
	(void)state;
	ut_machine(2, 1, 1, 2);
	hmp_provide(HMP_PROV_MANUAL, 1, HMP_CAPACITY | HMP_PERF, 1, 4, 0);
	hmp_publish();
	ut_hmp_defaults();
	assert_int_equal(hmp_capacity(1), HMP_CAPACITY_MIN);
	assert_true(hmp_weight(0) >= 16 && hmp_weight(1) == HMP_WEIGHT_SLOWEST);
	struct cpuset zero = ut_only(0);
	for (int k = 0; k < 40; k++)
		place_on(k, &zero);
	for (int k = 0; k < 40; k++)
		sched_set_affinity(&th[k], NULL);
	for (int r = 0; r < 600; r++)
		run_round();
	assert_true(tdq_load_of(1) >= 1);
	assert_true(tdq_load_of(0) > tdq_load_of(1));   /* the fast CPU keeps more */
}

/* The 155H with its LP-E cores at perf 0 and ee lpe_ee: 22 threads. */
static void b7_place(int lpe_ee, int n)
{
	struct ut_shape sh = {
		.p_cores = 6, .p_threads = 2, .e_modules = { 4, 4 }, .lpe = 2,
		.cap = { 1000, 630, 420 }, .perf = { 65, 41, 0 }, .ee = { 47, 148, lpe_ee },
	};
	ut_shape_boot(&sh);
	for (int k = 0; k < n; k++)
		place(k);
}

/* B7 (and DESIGN decision 7 as revised): perf 0 is overflow whatever
 * ee says (perf0=overflow, the default): the LP-E cores get the 21st and
 * 22nd threads, once every scored CPU has one, and a thread there leaves
 * when a scored CPU comes free — with ee > 0 and with ee 0, the 155H's
 * rows. The readings kept for comparison: perf0=ee0-never never uses ee 0
 * rows (but does use ee > 0 ones), perf0=strict never uses either. */
static void test_b7_perf_zero_is_overflow(void **state)
{
	(void)state;
	for (int lpe_ee = 60; lpe_ee >= 0; lpe_ee -= 60) {
		b7_place(lpe_ee, 20);
		assert_int_equal(tdq_load_of(20) + tdq_load_of(21), 0);
		place(20);
		place(21);
		assert_int_equal(tdq_load_of(20), 1);
		assert_int_equal(tdq_load_of(21), 1);
		int k = 0;
		while (th[k].ts_cpu != 4)
			k++;
		spt.self = 4;
		sched_switch(&th[k], SCHED_SW_EXIT);   /* a P CPU comes free */
		for (int r = 0; r < 50; r++)
			run_round();
		assert_int_equal(tdq_load_of(20) + tdq_load_of(21), 1);
	}
	for (int lpe_ee = 60; lpe_ee >= 0; lpe_ee -= 60) {
		b7_place(lpe_ee, 0);
		hmp_perf0 = HMP_PERF0_EE0;
		for (int i = 0; i < 22; i++)
			place(i);
		assert_int_equal(tdq_load_of(20) + tdq_load_of(21), lpe_ee ? 2 : 0);
	}
	b7_place(60, 0);
	hmp_perf0 = HMP_PERF0_STRICT;
	for (int i = 0; i < 22; i++)
		place(i);
	assert_int_equal(tdq_load_of(20) + tdq_load_of(21), 0);
}

/* A new interactive thread i (it has only slept), added from CPU 0. */
static void add_interactive(int i)
{
	spt.self = 0;
	sched_thread_init(&th[i], NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	th[i].ts_slptime = 100u << SCHED_TICK_SHIFT;
	sched_add(&th[i], 0);
	assert_true(th[i].ts_pri <= PRI_MAX_INTERACT);
}

/* Latency: with a batch thread on every P core, an interactive thread
 * goes to a P core, where it runs at once; with kern.sched.hmp.latency=0
 * to an idle E-core. */
static void test_latency_sensitive_thread_gets_the_fastest_cpu(void **state)
{
	(void)state;
	for (int on = 0; on <= 1; on++)
		for (int seed = 0; seed < 20; seed++) {
			ut_hybrid(UT_I7, 0);
			hmp_sw_latency = on;
			seed_all(seed);
			for (int k = 0; k < 6; k++)
				assert_true(place(k) < 12);
			add_interactive(10);
			int cpu = th[10].ts_cpu;
			assert_true(on ? cpu < 12 && tdq_load_of(cpu) == 2 : cpu >= 12);
		}
}

/* Sweeps (frames on the Core Ultra 7 155H model, 7 and 8 threads: hmp
 * 0.92 x ULE): an interactive thread waking on its own idle E-core, every
 * P core running a batch hog, went back to that E-core, by step 4 (its
 * idle, warm last CPU) or the local preference (the idle waking CPU); it
 * now goes to a P CPU whose hog it preempts. */
static void test_latency_sensitive_thread_leaves_an_idle_e_core(void **state)
{
	(void)state;
	for (int on = 0; on <= 1; on++) {
		ut_hybrid(UT_I7, 0);
		hmp_sw_latency = on;
		for (int k = 0; k < 6; k++)
			assert_true(place(k) < 12);
		struct cpuset e = ut_only(12);
		place_on(10, &e);                              /* runs on E CPU 12 */
		spt.self = 12;
		assert_null(sched_switch(&th[10], SCHED_SW_SLEEP));   /* and sleeps there */
		sched_set_affinity(&th[10], NULL);
		th[10].ts_runtime = 1u << SCHED_TICK_SHIFT;
		th[10].ts_slptime = 100u << SCHED_TICK_SHIFT;  /* interactive */
		sched_priority(&th[10]);
		assert_true(th[10].ts_pri <= PRI_MAX_INTERACT);
		spt_advance(1);
		sched_wakeup(&th[10]);                         /* woken on CPU 12, idle */
		int cpu = th[10].ts_cpu;
		if (on)
			assert_true(cpu < 12 && tdq_load_of(cpu) == 2);
		else
			assert_int_equal(cpu, 12);
		spt.self = 0;
	}
	hmp_sw_latency = 1;
}

/* Sweeps (schbench on the i7-1370P model at 36-40 threads: 0.97 x ULE):
 * with most threads interactive, each counted any CPU running a worse
 * priority as free and they crowded the P-cores preempting each other.
 * Only a CPU running nothing but batch threads counts as free: with every
 * P CPU running an interactive thread, the next goes to an idle E-core. */
static void test_latency_frees_only_batch_cpus(void **state)
{
	(void)state;
	ut_hybrid(UT_I7, 0);
	for (int k = 0; k < 12; k++) {
		struct cpuset one = ut_only(k);
		place_on(k, &one);
		int old = th[k].ts_pri;
		th[k].ts_runtime = 10u << SCHED_TICK_SHIFT;
		th[k].ts_slptime = 20u << SCHED_TICK_SHIFT;   /* interactive, score 25 */
		sched_priority(&th[k]);
		assert_true(th[k].ts_pri <= PRI_MAX_INTERACT);
		tdq_running_prichange(tdq_cpu(k), &th[k], old);
	}
	spt.self = 0;
	sched_thread_init(&th[30], NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
	th[30].ts_slptime = 100u << SCHED_TICK_SHIFT;       /* more interactive: score 0 */
	sched_add(&th[30], 0);
	assert_true(th[30].ts_pri < th[0].ts_pri);
	assert_true(th[30].ts_cpu >= 12);
}

/* Sweeps (frames on the i7-1370P model at 21..40 threads: 0.37 x ULE
 * once the local preference no longer kept the renderer where it woke):
 * every CPU running a batch hog, the search valued what each CPU adds, so
 * an interactive thread went to an E-core (0.54 of a P thread) before a
 * P CPU beside a busy sibling (adds 0.39), ran slowly, turned batch and
 * waited behind the hogs; to a latency-sensitive thread a CPU is worth its
 * own speed there (0.70 beside a busy sibling). */
static void test_latency_sensitive_thread_values_its_own_speed(void **state)
{
	(void)state;
	for (int seed = 0; seed < 20; seed++) {
		ut_hybrid(UT_I7, 0);
		seed_all(seed);
		for (int k = 0; k < 20; k++)                   /* a batch hog on every CPU */
			place(k);
		for (int c = 0; c < 20; c++)
			assert_int_equal(tdq_load_of(c), 1);
		add_interactive(30);
		if (th[30].ts_cpu >= 12)
			fail_msg("seed %d: the interactive thread went to E CPU %d", seed, th[30].ts_cpu);
	}
}

/* Five P cores run a hog each; an interactive thread (a third of a CPU if
 * busy, else a poller's share) has just slept from CPU 4; a batch thread
 * that may not use CPU 4 is placed — a hog, or (hog 0) one whose last
 * stretch on a CPU was short (hmp_hog): returns its CPU. */
static int batch_beside_a_sleeper(int latency, int busy, int hog)
{
	ut_hybrid(UT_I7, 0);
	hmp_sw_latency = latency;
	for (int c = 0; c < 12; c += 2)
		if (c != 4) {
			struct cpuset one = ut_only(c);
			place_on(c / 2, &one);
		}
	struct cpuset p4 = ut_only(4);
	place_on(10, &p4);
	spt.self = 4;
	th[10].ts_runtime = 1u << SCHED_TICK_SHIFT;
	th[10].ts_slptime = 100u << SCHED_TICK_SHIFT;
	th[10].ts_ftick = spt.ticks;
	spt_advance(300);
	th[10].ts_ltick = spt.ticks;
	th[10].ts_ticks = (busy ? 100u : 3u) << SCHED_TICK_SHIFT;   /* 33 % or 1 % of 300 ticks */
	sched_priority(&th[10]);
	assert_true(th[10].ts_pri <= PRI_MAX_INTERACT);
	assert_true((sched_thread_pctcpu(&th[10]) >= HMP_RESERVE_PCTCPU) == busy);
	assert_null(sched_switch(&th[10], SCHED_SW_SLEEP));   /* it sleeps from CPU 4 */
	spt.self = 0;
	struct cpuset not4;
	cpuset_zero(&not4);
	for (unsigned c = 0; c < 20; c++)
		if (c != 4)
			cpuset_set(&not4, c);
	sched_thread_init(&th[11], NULL, SCHED_CLASS_TIMESHARE, 0, &not4);
	th[11].ts_runtime = 500u << SCHED_TICK_SHIFT;
	if (!hog)
		th[11].ts_flags &= (uint16_t)~TSF_HOGRUN;
	sched_priority(&th[11]);
	assert_true(th[11].ts_pri > PRI_MAX_INTERACT);
	sched_add(&th[11], 0);
	return th[11].ts_cpu;
}

static int hog_beside_a_sleeper(int latency, int busy)
{
	return batch_beside_a_sleeper(latency, busy, 1);
}

/* Sweeps (frames on the i7-1370P model at 7-8 threads, the barrier start:
 * 0.94 x ULE): while the renderer waited for its next frame its P core
 * looked idle, and a hog was placed, stolen or pulled up to the other SMT
 * thread; the renderer then ran at the shared speed. Within a slice of an
 * interactive thread sleeping from a CPU, that CPU's siblings count as
 * shared for batch threads and do not pull threads up — if it uses a
 * tenth of a CPU or more (a shell waking to poll keeps nothing). */
static void test_core_of_a_returning_interactive_thread_is_kept(void **state)
{
	(void)state;
	assert_int_equal(hog_beside_a_sleeper(0, 1), 5);       /* latency off: the idle sibling */
	assert_int_equal(hog_beside_a_sleeper(1, 0), 5);       /* a poller keeps nothing */
	int cpu = hog_beside_a_sleeper(1, 1);
	assert_true(cpu >= 12);                                /* an idle E-core, not CPU 5 */
	spt.self = 5;
	sched_idle(5);                                         /* idle CPU 5 does not pull it up */
	assert_false(th[11].ts_flags & TSF_PICKCPU);
	spt.self = 0;
	hmp_sw_latency = 1;
}

/* Sweeps (pgbench on the i7-1370P model, 8 clients over 10 s: 0.91 x
 * ULE): a backend answering in 40 us is batch by priority but no hog;
 * clients (interactive) took the P CPUs backends ran on and kept their
 * siblings from them, and the backends settled on E-cores. A batch thread
 * that is no hog may use the sibling of a returning interactive thread's
 * CPU, and an interactive thread does not count its CPU as free (it takes
 * an idle CPU, here the idle sibling of a backend's: 0.70 of a P core). */
static void test_only_hogs_give_way_to_latency(void **state)
{
	(void)state;
	assert_int_equal(batch_beside_a_sleeper(1, 1, 0), 5);   /* the idle sibling */
	hmp_sw_latency = 1;
	for (int seed = 0; seed < 20; seed++) {
		ut_hybrid(UT_I7, 0);
		seed_all(seed);
		for (int k = 0; k < 6; k++) {                   /* a backend on every P core */
			struct cpuset one = ut_only(2 * k);
			spt.self = 0;
			sched_thread_init(&th[k], NULL, SCHED_CLASS_TIMESHARE, 0, &one);
			th[k].ts_runtime = 500u << SCHED_TICK_SHIFT;
			th[k].ts_flags &= (uint16_t)~TSF_HOGRUN;   /* its last stretch was short */
			sched_add(&th[k], 0);
			spt.self = 2 * k;
			assert_ptr_equal(sched_switch(NULL, SCHED_SW_YIELD), &th[k]);
			assert_true(th[k].ts_pri > PRI_MAX_INTERACT);
		}
		add_interactive(30);
		int cpu = th[30].ts_cpu;
		if (tdq_load_of(cpu) != 1)
			fail_msg("seed %d: the interactive thread went onto CPU %d's backend", seed, cpu);
	}
}

/* Found by the property run (schedsim --properties): 1 P core x 2 with
 * a second thread worth 0.48 of the first, four E-cores at 0.34 (perf 86
 * against 255), as generated machine 29. */
static const struct ut_shape sibling_shape = {
	.p_cores = 1, .p_threads = 2, .e_modules = { 4 },
	.cap = { 1024, 345, 0 }, .perf = { 255, 86, 0 }, .ee = { 100, 200, 0 }, .smt = 488,
};

/* Up-migration to a busy core's idle sibling where a second SMT thread
 * adds more than an E-core: the thread left on an E-core when its
 * spawner's CPU came free moves there (before, only a CPU whose whole
 * core was idle asked). */
static void test_upmigration_to_a_sibling_that_adds_more(void **state)
{
	(void)state;
	ut_shape_boot(&sibling_shape);
	struct cpuset p1 = ut_only(1), e = ut_only(2);
	place_on(0, &p1);
	place_on(1, &e);
	sched_set_affinity(&th[1], NULL);
	spt.self = 0;
	sched_idle(0);                               /* CPU 0 idles beside CPU 1's thread */
	assert_true(th[1].ts_flags & TSF_PICKCPU);
	assert_int_equal(th[1].ts_move_to, 0);
	spt.self = 2;
	sched_ipi(2, &th[1]);
	sched_switch(&th[1], SCHED_SW_PREEMPT);
	assert_int_equal(th[1].ts_cpu, 0);
	assert_true(STAT(upmigrations) == 1);
}

/* The render loop on sibling_shape's P core: th[0] runs on CPU 0 as an
 * interactive thread using a third of a CPU (hmp_latency_thread), seen at
 * its switch-in and tick. */
static void renderer_runs_on_cpu0(void)
{
	struct cpuset p0 = ut_only(0);
	place_on(0, &p0);
	spt.self = 0;
	th[0].ts_runtime = 1u << SCHED_TICK_SHIFT;
	th[0].ts_slptime = 100u << SCHED_TICK_SHIFT;
	th[0].ts_ftick = spt.ticks;
	spt_advance(300);
	th[0].ts_ltick = spt.ticks;
	th[0].ts_ticks = 100u << SCHED_TICK_SHIFT;   /* 33 % of 300 ticks */
	sched_priority(&th[0]);
	sched_clock(0, &th[0], 1);
	assert_true(hmp_latency_thread(&th[0]));
}

/* Property run, generated machine 10 (1 P core x 2 whose second thread
 * adds 0.53, two LP-E cores at 0.47): frames at 2 threads 0.89 x ULE.
 * While the render loop ran, its core's idle sibling looked worth more to
 * a hog than an idle E-core and pulled it up; each frame then ran at the
 * shared speed and missed the 30 fps target. While an interactive thread
 * runs on a core, the core's idle siblings count as busy for hogs: a new
 * hog takes an idle E-core, and the sibling pulls none up — unless every
 * other CPU is busy (then it is the best of the busy ones). */
static void test_core_of_a_running_interactive_thread_is_kept(void **state)
{
	(void)state;
	for (int latency = 0; latency <= 1; latency++) {
		ut_shape_boot(&sibling_shape);
		hmp_sw_latency = latency;
		renderer_runs_on_cpu0();
		int cpu = place(1);
		if (!latency) {
			assert_int_equal(cpu, 1);              /* the sibling adds more */
			continue;
		}
		assert_true(cpu >= 2);                         /* an idle E-core */
		spt.self = 1;
		sched_idle(1);                                 /* the idle sibling pulls nothing */
		assert_false(th[1].ts_flags & TSF_PICKCPU);
		for (int k = 2; k <= 4; k++)                   /* the other E-cores fill */
			assert_true(place(k) >= 2);
		assert_int_equal(place(5), 1);                 /* then the sibling, not a queue */
	}
	spt.self = 0;
	hmp_sw_latency = 1;
}

/* 3 P cores and 3 E-cores at 0.8 whose HFI perf is 8 % below the P
 * cores' (97 against 105: generated machine 5019): a thread on an
 * E-core moves to an idle P core (the margin was an eighth). */
static const struct ut_shape close_shape = {
	.p_cores = 3, .p_threads = 1, .e_modules = { 3 },
	.cap = { 1024, 819, 0 }, .perf = { 105, 97, 0 }, .ee = { 43, 148, 0 },
};

static void test_upmigration_for_a_small_gain(void **state)
{
	(void)state;
	ut_shape_boot(&close_shape);
	struct cpuset e = ut_only(3);
	place_on(0, &e);
	sched_set_affinity(&th[0], NULL);
	spt.self = 0;
	sched_idle(0);
	assert_true(th[0].ts_flags & TSF_PICKCPU);
	assert_true(th[0].ts_move_to < 3);
}

/* Property run, generated machine 42 (2 P cores x 2 whose second thread
 * adds 0.06, two LP-E cores at 0.58 outside the L3): schbench at 3
 * workers 0.91 x ULE. A worker woken back to its last CPU found that
 * CPU's sibling busy (step 4 fails), and step 5 took the best idle CPU of
 * the cache group it was warm in, the L3 of the P cores: its last CPU,
 * beside the busy sibling, adding 0.06 — an idle LP-E core outside, worth
 * ten times as much, was never looked at. With hmp's searches step 5
 * values every CPU, the warm group's a sixteenth more; the warm idle
 * sibling is still taken when nothing outside is worth more. */
static const struct ut_shape weak_smt_shape = {
	.p_cores = 2, .p_threads = 2, .lpe = 2,
	.cap = { 1024, 0, 598 }, .perf = { 255, 0, 149 }, .ee = { 100, 0, 200 }, .smt = 62,
};

static void test_warm_cache_group_yields_to_a_better_cpu(void **state)
{
	(void)state;
	for (int lpe_busy = 0; lpe_busy <= 1; lpe_busy++) {
		ut_shape_boot(&weak_smt_shape);
		struct cpuset c0 = ut_only(0), c1 = ut_only(1), c2 = ut_only(2), c4 = ut_only(4), c5 = ut_only(5);
		place_on(0, &c1);                      /* the worker, last on CPU 1 */
		sched_set_affinity(&th[0], NULL);
		spt.self = 1;
		sched_sleep(&th[0]);
		sched_switch(&th[0], SCHED_SW_SLEEP);
		place_on(1, &c0);                      /* CPU 1's sibling and CPU 2 busy */
		place_on(2, &c2);
		place_on(3, &c4);                      /* one LP-E core busy */
		if (lpe_busy)
			place_on(4, &c5);              /* and the other */
		spt.self = 0;
		sched_wakeup(&th[0]);
		assert_int_equal(th[0].ts_cpu, lpe_busy ? 1 : 5);
	}
	spt.self = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b1_idle_fast_cpu_is_never_hidden),
		cmocka_unit_test(test_b1_report_searches_hide_it),
		cmocka_unit_test(test_b2_upmigration_moves_or_does_nothing),
		cmocka_unit_test(test_b3_all_zero_perf_follows_capacity),
		cmocka_unit_test(test_b4_balancer_passes_a_donor_it_cannot_use),
		cmocka_unit_test(test_b5_random_term_below_the_prefer_bonus),
		cmocka_unit_test(test_b6_weights_never_zero),
		cmocka_unit_test(test_b7_perf_zero_is_overflow),
		cmocka_unit_test(test_latency_sensitive_thread_gets_the_fastest_cpu),
		cmocka_unit_test(test_latency_sensitive_thread_leaves_an_idle_e_core),
		cmocka_unit_test(test_latency_sensitive_thread_values_its_own_speed),
		cmocka_unit_test(test_latency_frees_only_batch_cpus),
		cmocka_unit_test(test_core_of_a_returning_interactive_thread_is_kept),
		cmocka_unit_test(test_only_hogs_give_way_to_latency),
		cmocka_unit_test(test_upmigration_to_a_sibling_that_adds_more),
		cmocka_unit_test(test_core_of_a_running_interactive_thread_is_kept),
		cmocka_unit_test(test_upmigration_for_a_small_gain),
		cmocka_unit_test(test_warm_cache_group_yields_to_a_better_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
