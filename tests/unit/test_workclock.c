/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the work clock, the speed model and the energy model
 * (kernel/emul/emul_workclock_model.c, emul_workclock_speed.c,
 * emul_workclock_energy.c) on scripted timelines: each expected value is
 * the exact piecewise sum, in work units (thousandths of a ns of lone
 * P-core time) or in µJ. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>
#include <emul/machine_desc/machine.h>
#include <emul/emul_workclock_model.h>

/* 1 P-core x 2 threads (CPUs 0-1, row 0) + 2 E-cores (CPUs 2-3, row 1),
 * the i7-1370P figures; POWER adds a budget that two busy P threads and
 * both E-cores exceed. */
#define SMALL \
	"model test\ncpus 4\nmemory 512M\nhfi-rows 2\nspeed P 1.0\nspeed E 0.54\n" \
	"smt-throughput P 1.39\n" \
	"cpu 0 type=P core=0 thread=0 module=0 llc=0 row=0\n" \
	"cpu 1 type=P core=0 thread=1 module=0 llc=0 row=0\n" \
	"cpu 2 type=E core=1 module=1 llc=0 row=1\n" \
	"cpu 3 type=E core=2 module=1 llc=0 row=1\n" \
	"hfi 0 perf=244 ee=80\nhfi 1 perf=140 ee=200\n"
#define POWER "power budget=10 P=6 E=2 smt=1\n"
#define CLASSES "class-speed vector P=1.0 E=0.7\nclass-speed spin P=0.5 E=0.5\n"

#define NS(x) ((uint64_t)(x) * WC_WORK_PER_NS)   /* x ns of lone P-core work */

static struct machine mach;
static struct wc_model model;
static struct wc_clock a, b, c;

static struct wc_model *setup(const char *text)
{
	char err[200];
	if (machine_parse(&mach, text, strlen(text), "t.machine", err, sizeof(err)))
		fail_msg("%s", err);
	wc_init(&model, &mach);
	wc_clock_init(&a);
	wc_clock_init(&b);
	wc_clock_init(&c);
	return &model;
}

static void test_speed_model(void **state)
{
	(void)state;
	/* one thread alone, both SMT threads busy, an idle CPU's would-be rate */
	assert_int_equal(speed_rate(1000, 1390, 2, 1, 1000, 1000, 1000), 1000);
	assert_int_equal(speed_rate(1000, 1390, 2, 2, 1000, 1000, 1000), 695);
	assert_int_equal(speed_rate(1000, 1390, 2, 0, 1000, 1000, 1000), 1000);
	assert_int_equal(speed_rate(540, 0, 1, 1, 1000, 1000, 1000), 540);
	/* 4 threads, alone 1.0, all busy 2.0: T(2) = 4/3, T(3) = 5/3 */
	assert_int_equal(speed_rate(1000, 2000, 4, 2, 1000, 1000, 1000), 666);
	assert_int_equal(speed_rate(1000, 2000, 4, 3, 1000, 1000, 1000), 555);
	assert_int_equal(speed_rate(1000, 2000, 4, 4, 1000, 1000, 1000), 500);
	/* throttle and power multiply, one rounding at the end */
	assert_int_equal(speed_rate(1000, 1390, 2, 2, 500, 1000, 1000), 347);
	assert_int_equal(speed_rate(1000, 1390, 2, 2, 1000, 968, 1000), 672);
	assert_int_equal(speed_rate(1, 0, 1, 1, 125, 1, 1000), 1);   /* never 0 */
	assert_int_equal(speed_throttle(122, 244), 500);
	assert_int_equal(speed_throttle(244, 244), 1000);
	assert_int_equal(speed_throttle(255, 244), 1000);
	assert_int_equal(speed_throttle(0, 244), WC_THROTTLE_FLOOR);
	assert_int_equal(speed_throttle(20, 244), WC_THROTTLE_FLOOR);   /* 81 < 125 */
	assert_int_equal(speed_throttle(0, 0), 1000);   /* no reference: LP-E rows at 0 */
	assert_int_equal(speed_power(10000, 10000), 1000);
	assert_int_equal(speed_power(10000, 11000), 968);   /* cbrt(10/11) = 0.9687 */
	assert_int_equal(speed_power(10000, 20000), 793);   /* cbrt(1/2) = 0.7937 */
	assert_int_equal(speed_power(10000, 80000), 500);
	assert_int_equal(speed_power(1, 1000000000000ull), 1);
}

/* P alone, E alone, two SMT siblings: 1000 ns each. */
static void test_lone_and_siblings(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL);
	wc_switch(w, 0, &a, 0);
	wc_switch(w, 2, &b, 0);
	assert_int_equal(wc_read(w, &a, 1000), NS(1000));
	assert_int_equal(wc_read(w, &b, 1000), NS(540));
	wc_switch(w, 0, NULL, 1000);
	wc_switch(w, 2, NULL, 1000);
	assert_int_equal(wc_read(w, &a, 5000), NS(1000));   /* off CPU: stands still */

	setup(SMALL);
	wc_switch(w, 0, &a, 0);
	wc_switch(w, 1, &b, 0);
	assert_int_equal(wc_read(w, &a, 1000), 695000);
	assert_int_equal(wc_read(w, &b, 1000), 695000);
	assert_int_equal(wc_cpu_rate(w, 0), 695);
	assert_int_equal(wc_cpu_rate(w, 3), 540);
}

/* A sibling joins midway and leaves again: exact piecewise sums. */
static void test_sibling_joins_midway(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL);
	wc_switch(w, 0, &a, 0);
	wc_switch(w, 1, &b, 400);
	assert_int_equal(wc_read(w, &a, 1000), 400 * 1000 + 600 * 695);
	assert_int_equal(wc_read(w, &b, 1000), 600 * 695);
	wc_switch(w, 1, NULL, 1000);
	assert_int_equal(wc_read(w, &a, 1500), 400 * 1000 + 600 * 695 + 500 * 1000);
	assert_int_equal(wc_read(w, &b, 1500), 600 * 695);
	/* another thread takes the sibling: a shares again from 1500 */
	wc_switch(w, 1, &c, 1500);
	assert_int_equal(wc_read(w, &a, 2000), 400 * 1000 + 600 * 695 + 500 * 1000 + 500 * 695);
	assert_int_equal(wc_read(w, &c, 2000), 500 * 695);
	assert_ptr_equal(wc_running(w, 1), &c);
}

/* Row 0 (the P-core) drops to half its perf midway, then to 0 (floor). */
static void test_throttle(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL);
	wc_switch(w, 0, &a, 0);
	wc_switch(w, 3, &b, 0);
	assert_int_equal(wc_row_perf(w, 0, 122, 244, 500), 0);
	assert_int_equal(wc_read(w, &a, 1000), 500 * 1000 + 500 * 500);
	assert_int_equal(wc_read(w, &b, 1000), 1000 * 540);   /* row 1 untouched */
	assert_int_equal(wc_row_perf(w, 0, 0, 244, 1000), 0);
	assert_int_equal(wc_read(w, &a, 2000), 500 * 1000 + 500 * 500 + 1000 * 125);
	assert_int_equal(wc_row_perf(w, 0, 244, 244, 2000), 0);
	assert_int_equal(wc_read(w, &a, 3000), 500 * 1000 + 500 * 500 + 1000 * 125 + 1000 * 1000);
	assert_int_equal(wc_row_perf(w, 2, 1, 1, 3000), -1);
	assert_int_equal(wc_row_perf(w, -1, 1, 1, 3000), -1);
}

/* A thread migrates P -> E midway; its new CPU may take it before its old
 * CPU has recorded the switch-out. */
static void test_migration(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL);
	wc_switch(w, 0, &a, 0);
	wc_switch(w, 0, NULL, 500);
	wc_switch(w, 2, &a, 500);
	assert_int_equal(wc_read(w, &a, 1000), 500 * 1000 + 500 * 540);

	setup(SMALL);
	wc_switch(w, 0, &a, 0);
	wc_switch(w, 1, &b, 0);
	wc_switch(w, 2, &a, 500);           /* CPU 2 first: a leaves CPU 0 now */
	assert_null(wc_running(w, 0));
	assert_int_equal(wc_cpu_rate(w, 1), 1000);   /* b is alone on the core now */
	wc_switch(w, 0, NULL, 520);          /* CPU 0's own switch, later */
	assert_int_equal(wc_read(w, &a, 1000), 500 * 695 + 500 * 540);
	assert_int_equal(wc_read(w, &b, 1000), 500 * 695 + 500 * 1000);
	assert_int_equal(a.cpu, 2);
}

/* kern.emul.workclock=0: every CPU counts as a lone P thread. */
static void test_disabled(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL);
	wc_switch(w, 2, &a, 0);
	wc_switch(w, 0, &b, 0);
	wc_switch(w, 1, &c, 0);
	wc_set_enabled(w, 0, 500);
	assert_int_equal(wc_read(w, &a, 1000), 500 * 540 + 500 * 1000);
	assert_int_equal(wc_read(w, &b, 1000), 500 * 695 + 500 * 1000);
	assert_int_equal(wc_row_perf(w, 1, 70, 140, 1000), 0);   /* no effect while off */
	assert_int_equal(wc_read(w, &a, 2000), 500 * 540 + 1500 * 1000);
	wc_set_enabled(w, 1, 2000);
	assert_int_equal(wc_read(w, &a, 3000), 500 * 540 + 1500 * 1000 + 1000 * 270);
}

/* The power budget: 10 W, P 6 W, E 2 W, second SMT thread 1 W. */
static void test_power(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL POWER);
	assert_int_equal(wc_set_power(w, 1, 0), 0);
	wc_switch(w, 0, &a, 0);                  /* 6 W */
	wc_switch(w, 2, &b, 0);                  /* 8 W */
	wc_switch(w, 3, &c, 0);                  /* 10 W: at the budget, full speed */
	assert_int_equal(wc_read(w, &a, 1000), 1000 * 1000);
	assert_int_equal(wc_read(w, &b, 1000), 1000 * 540);
	struct wc_clock d;
	wc_clock_init(&d);
	wc_switch(w, 1, &d, 1000);               /* 11 W: factor 0.968 for all */
	assert_int_equal(wc_cpu_rate(w, 0), 672);
	assert_int_equal(wc_cpu_rate(w, 2), 522);
	assert_int_equal(wc_read(w, &a, 2000), 1000 * 1000 + 1000 * 672);
	assert_int_equal(wc_read(w, &b, 2000), 1000 * 540 + 1000 * 522);
	assert_int_equal(wc_read(w, &d, 2000), 1000 * 672);
	assert_int_equal(wc_set_power(w, 0, 2000), 0);   /* off: the SMT share only */
	assert_int_equal(wc_read(w, &a, 3000), 1000 * 1000 + 1000 * 672 + 1000 * 695);
	assert_int_equal(wc_read(w, &b, 3000), 1000 * 540 + 1000 * 522 + 1000 * 540);
	wc_set_power(w, 1, 3000);
	wc_switch(w, 3, NULL, 3500);             /* back to 9 W */
	assert_int_equal(wc_read(w, &b, 4000), 1000 * 540 + 1000 * 522 + 1000 * 540 + 500 * 522 +
					       500 * 540);

	setup(SMALL);
	assert_int_equal(wc_set_power(w, 1, 0), -1);   /* no power line */
	assert_int_equal(wc_set_power(w, 0, 0), 0);
}

/* Energy (emul_workclock_model.h, "Energy"): base 2 W, idle P-core 0.5 W,
 * idle E-core 0.25 W; busy P 6 W (+1 W its second thread), busy E 2 W;
 * no budget. */
#define METER "power P=6 E=2 smt=1 idle-P=0.5 idle-E=0.25 base=2\n"
#define MS(x) ((uint64_t)(x) * 1000000u)

/* A scripted timeline: idle, one P thread, its sibling, the row throttled
 * to half (the core's power × 1/8), each 1 ms; exact µJ and the power. */
static void test_energy_timeline(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL METER);
	assert_int_equal(wc_packages(w), 1);
	assert_int_equal(wc_power_mw(w, 0, 0), 3000);         /* 2 + 0.5 + 2 x 0.25 */
	assert_int_equal(wc_power_mw(w, 0, 1), 1000);         /* the cores only */
	wc_switch(w, 0, &a, MS(1));
	assert_int_equal(wc_power_mw(w, 0, 0), 8500);         /* 2 + 6 + 2 x 0.25 */
	wc_switch(w, 1, &b, MS(2));
	assert_int_equal(wc_power_mw(w, 0, 0), 9500);         /* 2 + 7 + 0.5 */
	assert_int_equal(wc_row_perf(w, 0, 122, 244, MS(3)), 0);
	assert_int_equal(wc_power_mw(w, 0, 0), 3375);         /* 2 + 7/8 + 0.5 */
	assert_int_equal(wc_energy_uj(w, 0, 0, MS(4)), 3000 + 8500 + 9500 + 3375);
	assert_int_equal(wc_energy_uj(w, 0, 1, MS(4)), 1000 + 6500 + 7500 + 1375);
	/* below a µJ: 3375 mW x 333 ns = 1.124 µJ, rounded down */
	assert_int_equal(wc_energy_uj(w, 0, 0, MS(4) + 333), 24375 + 1);
	/* reading settles nothing: the same value again, and a time before
	 * the last event counts no more */
	assert_int_equal(wc_energy_uj(w, 0, 0, MS(4) + 333), 24376);
	assert_int_equal(wc_energy_uj(w, 0, 0, MS(2)), 3000 + 8500 + 9500);
	wc_set_enabled(w, 0, MS(4));                          /* model off: f = 1 */
	assert_int_equal(wc_power_mw(w, 0, 0), 9500);
	assert_int_equal(wc_energy_uj(w, 0, 0, MS(5)), 24375 + 9500);

	setup(SMALL);                                         /* no power line */
	wc_switch(w, 0, &a, MS(1));
	assert_int_equal(wc_power_mw(w, 0, 0), 0);
	assert_int_equal(wc_energy_uj(w, 0, 0, MS(2)), 0);
}

/* A budget that binds scales every busy core's power by the cube of the
 * power factor (10 W asked of 11: factor 0.968). */
static void test_energy_budget(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL POWER);
	wc_switch(w, 0, &a, 0);
	wc_switch(w, 2, &b, 0);
	wc_switch(w, 3, &c, 0);
	assert_int_equal(wc_power_mw(w, 0, 0), 10000);        /* at the budget: full speed */
	struct wc_clock d;
	wc_clock_init(&d);
	wc_switch(w, 1, &d, MS(1));
	/* P core 7 W x 0.968^3 = 6.349 W, E 2 W x 0.968^3 = 1.814 W each */
	assert_int_equal(wc_power_mw(w, 0, 0), 6349 + 1814 + 1814);
	assert_int_equal(wc_energy_uj(w, 0, 0, MS(2)), 10000 + 9977);
}

/* Random timelines: at every event the energy is the exact sum of the
 * power in force times each span (in pJ, rounded down to µJ once), and
 * never decreases. */
static void test_energy_property(void **state)
{
	(void)state;
	struct wc_clock k[4];
	uint64_t seed = 12345;
	for (int round = 0; round < 200; round++) {
		struct wc_model *w = setup(SMALL METER);
		for (int i = 0; i < 4; i++)
			wc_clock_init(&k[i]);
		uint64_t now = 0, pj = 0, last = 0;
		for (int ev = 0; ev < 50; ev++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			unsigned r = (unsigned)(seed >> 33);
			uint64_t dt = r % 3000000u;   /* up to 3 ms, odd spans too */
			pj += (uint64_t)wc_power_mw(w, 0, 0) * dt;
			now += dt;
			unsigned cpu = (r >> 22) % 4, what = (r >> 24) % 6;
			if (what < 4)
				wc_switch(w, cpu, what < 2 ? &k[cpu] : NULL, now);
			else
				wc_row_perf(w, (int)(cpu % 2), (r >> 8) % 256, cpu % 2 ? 140 : 244, now);
			uint64_t uj = wc_energy_uj(w, 0, 0, now);
			assert_int_equal(uj, pj / 1000000u);
			assert_true(uj >= last);
			last = uj;
		}
	}
}

/* The lock-free read agrees with the locked one, and refuses a clock
 * that does not run on the CPU. */
static void test_read_self(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL);
	uint64_t v;
	assert_int_equal(wc_read_self(w, &a, 0, 100, &v), -1);
	wc_switch(w, 0, &a, 0);
	wc_switch(w, 1, &b, 300);
	assert_int_equal(wc_read_self(w, &a, 0, 1000, &v), 0);
	assert_int_equal(v, wc_read(w, &a, 1000));
	assert_int_equal(v, 300 * 1000 + 700 * 695);
	assert_int_equal(wc_read_self(w, &a, 1, 1000, &v), -1);
	assert_int_equal(w->cpu[0].seq % 2, 0);
	assert_true(w->cpu[0].seq > 0);
}

/* The presets' figures: LP-E rows start at perf 0 (no throttle). */
static void test_preset_rates(void **state)
{
	(void)state;
	static char buf[65536];
	char err[200];
	FILE *f = fopen("machines/core-ultra-7-155h.machine", "rb");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (machine_parse(&mach, buf, n, "155h", err, sizeof(err)))
		fail_msg("%s", err);
	wc_init(&model, &mach);
	assert_int_equal(wc_cpu_rate(&model, 0), 1000);
	assert_int_equal(wc_cpu_rate(&model, 2), 630);
	assert_int_equal(wc_cpu_rate(&model, 20), 420);
	assert_int_equal(model.power_on, 0);
}

/* A class change mid-run is an event: settled at the old class's rate,
 * then the new one's; a class set off CPU applies from the next run. */
static void test_class_change(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL CLASSES);
	assert_int_equal(speed_rate(540, 0, 1, 1, 1000, 1000, 700), 378);
	wc_switch(w, 2, &a, 0);                        /* E-core, scalar: 540 */
	assert_int_equal(wc_set_class(w, &a, 1, 1000), 0);   /* vector on E: 0.54 x 0.7 */
	assert_int_equal(wc_cpu_rate(w, 2), 378);
	assert_int_equal(wc_read(w, &a, 3000), 1000 * 540 + 2000 * 378);
	assert_int_equal(wc_set_class(w, &a, 0, 3000), 0);
	assert_int_equal(wc_read(w, &a, 4000), 1000 * 540 + 2000 * 378 + 1000 * 540);
	wc_switch(w, 2, NULL, 4000);
	assert_int_equal(wc_set_class(w, &a, 3, 4500), 0);   /* off CPU: nothing to settle */
	assert_int_equal(wc_read(w, &a, 5000), 1000 * 540 + 2000 * 378 + 1000 * 540);
	wc_switch(w, 0, &a, 5000);                     /* spin on a lone P thread: 500 */
	assert_int_equal(wc_cpu_rate(w, 0), 500);
	wc_switch(w, 1, &b, 6000);                     /* b scalar joins: a 347, b 695 */
	assert_int_equal(wc_cpu_rate(w, 0), 347);
	assert_int_equal(wc_cpu_rate(w, 1), 695);
	assert_int_equal(wc_read(w, &a, 8000),
			 1000 * 540 + 2000 * 378 + 1000 * 540 + 1000 * 500 + 2000 * 347);
	assert_int_equal(wc_read(w, &b, 8000), 2000 * 695);
	assert_int_equal(wc_set_class(w, &a, 8, 8000), -1);
	assert_int_equal(a.cls, 3);
	/* vector on P is as fast as scalar (factor 1.0): no change of rate */
	assert_int_equal(wc_set_class(w, &b, 1, 8000), 0);
	assert_int_equal(wc_cpu_rate(w, 1), 695);
	/* without class-speed lines every class runs at class 0's rate */
	setup(SMALL);
	wc_switch(w, 2, &a, 0);
	wc_set_class(w, &a, 2, 100);
	assert_int_equal(wc_cpu_rate(w, 2), 540);
}

/* The Thread Director history of a CPU: the class of its code and since
 * when; a class change, a switch to a thread of another class and a reset
 * restart it, a switch between two threads of one class does not. */
static void test_itd_history(void **state)
{
	(void)state;
	struct wc_model *w = setup(SMALL CLASSES);
	unsigned cls;
	uint64_t since;
	wc_switch(w, 2, &a, 100);
	wc_itd_state(w, 2, &cls, &since);
	assert_int_equal(cls, 0);
	assert_int_equal(since, 0);                    /* idle was class 0 too */
	wc_set_class(w, &a, 1, 1000);
	wc_itd_state(w, 2, &cls, &since);
	assert_int_equal(cls, 1);
	assert_int_equal(since, 1000);
	wc_set_class(w, &b, 1, 1500);                  /* b off CPU, vector too */
	wc_switch(w, 2, &b, 2000);
	wc_itd_state(w, 2, &cls, &since);
	assert_int_equal(since, 1000);                 /* same class: no change seen */
	wc_itd_reset(w, 2, 2000);
	wc_itd_state(w, 2, &cls, &since);
	assert_int_equal(cls, 1);
	assert_int_equal(since, 2000);
	wc_switch(w, 2, NULL, 3000);                   /* idle: class 0 */
	wc_itd_state(w, 2, &cls, &since);
	assert_int_equal(cls, 0);
	assert_int_equal(since, 3000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speed_model),
		cmocka_unit_test(test_lone_and_siblings),
		cmocka_unit_test(test_sibling_joins_midway),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_migration),
		cmocka_unit_test(test_disabled),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_energy_timeline),
		cmocka_unit_test(test_energy_budget),
		cmocka_unit_test(test_energy_property),
		cmocka_unit_test(test_read_self),
		cmocka_unit_test(test_preset_rates),
		cmocka_unit_test(test_class_change),
		cmocka_unit_test(test_itd_history),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
