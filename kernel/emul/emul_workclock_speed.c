/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_workclock_speed.c — how fast a thread runs on a CPU of an emulated machine:
 * the core type's speed, its SMT share, HFI throttling and the optional
 * power budget, the class of the code it runs (the formulas are in emul_workclock_model.h; which numbers are facts
 * and which are modelled: docs/hfi.md). Pure functions, portable C.
 */
#include <emul/emul_workclock_model.h>

/* See emul_workclock_model.h. One division at the end, so the figures of the machine
 * files (0.54, 1.39 / 2) stay exact. T(k) / k is written over the common
 * denominator (n - 1) × k. */
uint32_t speed_rate(unsigned speed, unsigned smt, unsigned threads, unsigned busy,
		    unsigned throttle, unsigned power, unsigned cls)
{
	int64_t num = speed, den = 1;
	if (busy == 0)
		busy = 1;
	if (threads > 1 && busy > 1) {
		if (busy > threads)
			busy = threads;
		num = (int64_t)speed * (threads - 1) + ((int64_t)smt - speed) * (busy - 1);
		den = (int64_t)(threads - 1) * busy;
	}
	/* speed and smt are in MACHINE_SPEED_ONE units, the rate in
	 * WC_RATE_ONE units: equal scales, so no conversion here. At most
	 * about 2^20 × 1000 × 1000 × 2^16 < 2^63: no overflow. */
	int64_t rate = num * throttle * power * cls /
		       (den * WC_FACTOR_ONE * WC_FACTOR_ONE * WC_FACTOR_ONE);
	return rate < 1 ? 1 : (uint32_t)rate;
}

/* See emul_workclock_model.h. */
unsigned speed_throttle(unsigned perf_now, unsigned perf_initial)
{
	if (perf_initial == 0 || perf_now >= perf_initial)
		return WC_FACTOR_ONE;
	unsigned f = perf_now * WC_FACTOR_ONE / perf_initial;
	return f < WC_THROTTLE_FLOOR ? WC_THROTTLE_FLOOR : f;
}

/* Largest x with x³ <= v (v <= 10^9, so x <= 1000). */
static unsigned icbrt(uint64_t v)
{
	unsigned lo = 0, hi = 1000;
	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;
		if ((uint64_t)mid * mid * mid <= v)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* See emul_workclock_model.h. (1000 f)³ = 10^9 × budget / demand, so the cube root
 * of the integer quotient is floor(1000 f) exactly. */
unsigned speed_power(uint64_t budget_mw, uint64_t demand_mw)
{
	if (demand_mw <= budget_mw)
		return WC_FACTOR_ONE;
	unsigned f = icbrt(budget_mw * 1000000000ull / demand_mw);
	return f < 1 ? 1 : f;
}
