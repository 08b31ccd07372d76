/* SPDX-License-Identifier: BSD-2-Clause */
/* Host test of the perf-0 rule worked by hand in docs/hmp.md ("The rule
 * by hand: the 155H's LP-E rows"): on the Core Ultra 7 155H shape with its
 * real HFI snapshot (LP-E rows perf 0 and ee 0), CPU-bound threads placed
 * one by one under the default kern.sched.hmp.perf0=overflow take the P
 * cores' first threads, then the E-cores, then the P cores' second
 * threads, then the two LP-E cores, and only then double up, on a P CPU. */
#include <tests/unit/ule_test_util.h>
#include <tests/unit/ut_hybrid.h>
#include <tests/unit/ut_place.h>

/* The core type index of CPU n on the 155H shape: 0 P, 1 E, 2 LP-E. */
static int kind(int n)
{
	return n < 12 ? 0 : n < 20 ? 1 : 2;
}

static void test_155h_lpe_rows_by_hand(void **state)
{
	(void)state;
	for (int seed = 0; seed < 20; seed++) {
		ut_hybrid(UT_155H, 0);
		assert_int_equal(hmp_perf0, HMP_PERF0_OVERFLOW);
		seed_all(seed);
		assert_true(hmp_avoid(20) && hmp_avoid(21) && hmp_never(20) && hmp_never(21));
		unsigned cores = 0;
		for (int i = 0; i < 23; i++) {
			int cpu = place(i);
			if (i < 6) {                           /* a thread of each P core */
				assert_int_equal(kind(cpu), 0);
				assert_false(cores & (1u << (cpu / 2)));
				cores |= 1u << (cpu / 2);
			} else if (i < 14) {                   /* the E-cores */
				assert_int_equal(kind(cpu), 1);
			} else if (i < 20) {                   /* the P cores' second threads */
				assert_int_equal(kind(cpu), 0);
			} else if (i < 22) {                   /* overflow: the LP-E cores */
				assert_int_equal(kind(cpu), 2);
			} else {                               /* then the least weighted load */
				assert_int_equal(kind(cpu), 0);
				assert_int_equal(tdq_load_of(cpu), 2);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_155h_lpe_rows_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
