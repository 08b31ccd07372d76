/* SPDX-License-Identifier: BSD-2-Clause */
/* Host test of up-migration's one rule (kern.sched.hmp.upmigrate,
 * kernel/sched/ule_hmp.c): a hog — a thread that has run a tick on end —
 * never stays on a CPU for more than a few ticks while an idle CPU it may
 * use would serve it better (hmp_better_idle). Replayed on a synthetic
 * i7-1370P tree over seeded interleavings of what the QEMU runs of
 * `spawn 4 cpu` and sysbench have around them: hogs created from the
 * shell's CPU, short-lived kernel threads (the shell, fbcon, hfi, kvd)
 * waking on random CPUs and preempting hogs, idle CPUs stealing the
 * preempted hogs, and vCPUs the host does not run for a few ticks (their
 * ticks are merged, their IPIs and idle rounds wait). */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_place.h>

#define HOGS_MAX 8
#define NOISE 4
#define ROUNDS 400
#define SEEDS 300
/* "A few ticks", from the mechanism: a thread counts as a hog after a
 * tick on end, the idle CPU's next scan comes within
 * kern.sched.hmp.upmigrate_scan (4) ticks, and the hog's CPU takes the
 * IPI at its next tick. Under load a scan may be lost once (a starved
 * vCPU, or a kernel thread on the idle core's sibling at that moment):
 * twice that. The balance interval, which held hogs before, is 100. */
#define QUIET_LIMIT (1 + 4 + 1)
#define LOADED_LIMIT (2 * QUIET_LIMIT)

static uint64_t rng;

/* A number 0..n-1 from the test's stream (splitmix64). */
static unsigned draw(unsigned n)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (unsigned)((z ^ (z >> 31)) % n);
}

/* What one interleaving did to the hogs. */
struct outcome {
	int worst_wait;     /* most consecutive ticks a hog waited beside a better idle CPU */
	int worst_hog;
	uint64_t worst_tick;
	int hog_moves;      /* migrations of the hogs */
};

static int is_noise(const struct td_sched *t)
{
	return t >= &th[HOGS_MAX] && t < &th[HOGS_MAX + NOISE];
}

/* The calling CPU c switches if sw says so, as the kernel does at
 * interrupt exit. */
static void maybe_switch(int c, int sw)
{
	struct td_sched *cur = tdq_cpu(c)->tdq_curthread;
	if (sw)
		sched_switch(cur, cur ? SCHED_SW_PREEMPT : SCHED_SW_YIELD);
}

/* Noise thread t wakes, woken by a thread on CPU c (self). */
static void wake_noise(int c, struct td_sched *t)
{
	spt.self = c;
	maybe_switch(c, sched_wakeup(t) & SCHED_RESCHED);
}

/* CPU c's turn in a round (it was not starved): a running noise thread
 * goes back to sleep at once (it runs far less than a tick), then the
 * IPIs that waited, the tick (cnt ticks since its last one), and an idle
 * round when it has nothing to run. */
static void cpu_turn(int c, int cnt)
{
	spt.self = c;
	struct td_sched *cur = tdq_cpu(c)->tdq_curthread;
	if (cur && is_noise(cur)) {
		sched_sleep(cur);
		sched_switch(cur, SCHED_SW_SLEEP);
		cur = tdq_cpu(c)->tdq_curthread;
	}
	int sw = 0;
	if (spt.ipis[c]) {
		spt.ipis[c] = 0;
		sw |= sched_ipi(c, cur);
	}
	sw |= sched_clock(c, cur, cnt);
	if (!cur && !sw)
		sw = sched_idle(c);
	maybe_switch(c, sw);
}

/* 1 if an idle CPU d would serve hog h, running on c, better, and d's
 * core is not kept for an interactive thread coming back to it
 * (hmp_core_reserved: its wait ends within a slice, or it returns). */
static int waits_beside_better(const struct td_sched *h, int c)
{
	struct search_mode mode = search_mode_now();
	for (int d = 0; d < spt.ncpu; d++)
		if (ts_can_run_on(h, d) && hmp_better_idle(&mode, d, c) && !hmp_core_reserved(d))
			return 1;
	return 0;
}

/* One seeded interleaving: nhogs hogs created from the shell's CPU, the
 * noise threads (each woken at a CPU's turn with wake_permille / 1000),
 * ROUNDS ticks with each CPU's turn starved with starve_pct / 100. */
static struct outcome interleave(uint64_t seed, int nhogs, unsigned starve_pct, unsigned wake_permille)
{
	struct outcome o = { 0 };
	int wait[HOGS_MAX] = { 0 }, missed[UT_I7_NCPU] = { 0 }, order[UT_I7_NCPU];
	uint64_t last_moves[HOGS_MAX] = { 0 };
	rng = seed;
	ut_hybrid(UT_I7, 0);
	spt.idle_wait_keeps_time = 1;
	seed_all((int)seed);
	int shell = (int)draw(UT_I7_NCPU);
	for (int i = 0; i < NOISE; i++) {   /* kernel threads that mostly sleep */
		struct td_sched *t = &th[HOGS_MAX + i];
		spt.self = (int)draw(UT_I7_NCPU);
		sched_thread_init(t, NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
		sched_add(t, 0);
	}
	for (int i = 0; i < nhogs; i++) {   /* spawn: each hog created from the shell's CPU */
		spt.self = shell;
		sched_thread_init(&th[i], NULL, SCHED_CLASS_TIMESHARE, 0, NULL);
		maybe_switch(shell, sched_add(&th[i], 0) & SCHED_RESCHED);
	}
	for (int r = 0; r < ROUNDS; r++) {
		spt_advance(1);
		for (int c = 0; c < UT_I7_NCPU; c++)
			order[c] = c;
		for (int c = UT_I7_NCPU - 1; c > 0; c--) {
			int j = (int)draw((unsigned)c + 1), x = order[c];
			order[c] = order[j];
			order[j] = x;
		}
		for (int k = 0; k < UT_I7_NCPU; k++) {
			int c = order[k];
			if (draw(100) < starve_pct) {
				missed[c]++;
				continue;
			}
			for (int i = 0; i < NOISE; i++) {
				struct td_sched *t = &th[HOGS_MAX + i];
				if (t->ts_state == SCHED_TS_INACTIVE && draw(1000) < wake_permille)
					wake_noise(c, t);
			}
			cpu_turn(c, 1 + missed[c]);
			missed[c] = 0;
		}
		for (int i = 0; i < nhogs; i++) {
			struct td_sched *h = &th[i];
			int waiting = r > 2 && h->ts_state == SCHED_TS_RUNNING && hmp_hog(h, sched_plat_time_ns()) &&
				      waits_beside_better(h, h->ts_cpu);
			wait[i] = waiting ? wait[i] + 1 : 0;
			if (wait[i] > o.worst_wait) {
				o.worst_wait = wait[i];
				o.worst_hog = i;
				o.worst_tick = (uint64_t)r;
			}
			o.hog_moves += (int)(h->ts_migrations - last_moves[i]);
			last_moves[i] = h->ts_migrations;
		}
	}
	spt.self = 0;
	return o;
}

/* The worst wait over SEEDS interleavings with 1..8 hogs; fails the
 * test above limit, naming the seed. Quiet (no starvation, no noise):
 * also no more moves than hogs, since asks alone never move a hog back. */
static void check_interleavings(unsigned starve_pct, unsigned wake_permille, int limit)
{
	int quiet = starve_pct == 0 && wake_permille == 0;
	struct outcome worst = { 0 };
	uint64_t worst_seed = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct outcome o = interleave(seed, 1 + (int)(seed % HOGS_MAX), starve_pct, wake_permille);
		int nhogs = 1 + (int)(seed % HOGS_MAX);
		if (quiet && o.hog_moves > nhogs)
			fail_msg("seed %llu: %d hogs moved %d times", (unsigned long long)seed, nhogs, o.hog_moves);
		if (o.worst_wait > worst.worst_wait) {
			worst = o;
			worst_seed = seed;
		}
	}
	if (worst.worst_wait > limit)
		fail_msg("seed %llu: hog %d waited %d ticks beside a better idle CPU up to tick %llu (limit %d)",
			 (unsigned long long)worst_seed, worst.worst_hog, worst.worst_wait,
			 (unsigned long long)worst.worst_tick, limit);
}

/* Every vCPU runs every tick and nothing else wakes: a hog waits at most
 * QUIET_LIMIT ticks. */
static void test_quiet_hogs_move_within_a_few_ticks(void **state)
{
	(void)state;
	check_interleavings(0, 0, QUIET_LIMIT);
}

/* A quarter of the vCPUs' turns starved (merged ticks, late IPIs and idle
 * rounds) and kernel threads waking on random CPUs: at most LOADED_LIMIT
 * ticks. Before the one rule (a thread asked at most once a balance
 * interval, with two exceptions) hogs waited up to 155 ticks here, and the
 * scan of an idle CPU gave up when the hog worth least had been asked
 * within the interval, holding every other hog back with it. */
static void test_loaded_hogs_move_within_a_few_ticks(void **state)
{
	(void)state;
	check_interleavings(25, 3, LOADED_LIMIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_hogs_move_within_a_few_ticks),
		cmocka_unit_test(test_loaded_hogs_move_within_a_few_ticks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
