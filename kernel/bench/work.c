/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * work.c — work(W), the CPU work of every workload, and its calibration at
 * boot (see work.h; docs/hfi.md). On an emulated machine the work clock
 * decides when W is done (emul_workclock_run(), kernel/emul/); this file
 * owns the arithmetic and the real-hardware loop.
 */
#include <bench/work.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <emul/machine_desc/machine.h>
#include <emul/emul_workclock.h>
#include <lib/itd_class.h>

#define CALIB_ROUNDS 3
#define CALIB_ROUND_NS 10000000ull   /* 10 ms each */
#define CALIB_STEP 1024              /* iterations between clock reads */
#define CHUNKS_PER_MS 250            /* emulated: a chunk is about 4 us */
#define CHUNK_MIN 64

static uint64_t work_per_ms;   /* iterations per ms on the fastest CPU; 0: not calibrated */
static uint64_t work_chunk;    /* iterations between two reads of the work clock */

/* The arithmetic kernel: n steps of xorshift64, each depending on the last,
 * so no step can be skipped or merged. Returns the final state. */
static uint64_t work_kernel(uint64_t n, uint64_t x)
{
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

/* Runs n iterations in chunks; the result goes to a volatile sink. */
static void work_iterations(uint64_t n)
{
	volatile uint64_t sink;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	while (n) {
		uint64_t step = n < work_chunk ? n : work_chunk;
		x = work_kernel(step, x);
		n -= step;
	}
	sink = x;
	(void)sink;
}

/* One chunk: what the work clock runs between two of its reads. */
static void work_one_chunk(void)
{
	work_iterations(work_chunk);
}

/* work(ns) of class cls that returns the ns of work done: by the work
 * clock on an emulated machine (at the rate of that class of code), else
 * ns worth of calibrated iterations (the same code whatever the class: on
 * real hardware the class is what the hardware sees, not what we say). */
static int64_t work_do(uint64_t ns, unsigned cls)
{
	if (ns > WORK_NS_MAX || !work_per_ms || cls >= ITD_CLASS_MAX)
		return -1;
	emul_workclock_set_class(cls);
	int64_t done = emul_workclock_run(ns, work_one_chunk);
	if (done >= 0)
		return done;
	/* ns × per_ms / 10^6 without a 128-bit product. */
	work_iterations(ns / 1000000 * work_per_ms + ns % 1000000 * work_per_ms / 1000000);
	return (int64_t)ns;
}

/* See work.h. */
int work(uint64_t ns)
{
	return work_do(ns, ITD_SCALAR) < 0 ? -1 : 0;
}

/* See work.h. */
int work_class(uint64_t ns, unsigned cls)
{
	return work_do(ns, cls) < 0 ? -1 : 0;
}

/* See work.h. */
int64_t work_counted(uint64_t ns)
{
	return work_do(ns, ITD_SCALAR);
}

/* Best iterations per ms of CALIB_ROUNDS rounds on the calling CPU; arg
 * points to the result. Runs with whatever interrupt state it gets
 * (smp_call_on's handler: off). */
static void work_measure(void *arg)
{
	uint64_t best = 0, x = 1;
	for (int r = 0; r < CALIB_ROUNDS; r++) {
		uint64_t n = 0, t0 = time_ns(), dt;
		do {
			x = work_kernel(CALIB_STEP, x);
			n += CALIB_STEP;
			dt = time_ns() - t0;
		} while (dt < CALIB_ROUND_NS);
		uint64_t per_ms = n * 1000000 / dt;
		if (per_ms > best)
			best = per_ms;
	}
	volatile uint64_t sink = x;
	(void)sink;
	*(uint64_t *)arg = best;
}

/* Rank of a core type for "fastest": P, then unknown (not hybrid), E, LP-E. */
static int work_rank(const struct cpu_desc *d)
{
	switch (d->core_type) {
	case CPU_CORE_P: return 3;
	case CPU_CORE_E: return 1;
	case CPU_CORE_LPE: return 0;
	default: return 2;
	}
}

/* See work.h. */
void work_calibrate(void)
{
	unsigned best = 0;
	int best_rank = -1;
	for (unsigned c = 0; c < smp_cpu_count(); c++) {
		const struct cpu_desc *d = smp_cpu_desc(c);
		if (d && smp_cpu_online(c) && work_rank(d) > best_rank) {
			best = c;
			best_rank = work_rank(d);
		}
	}
	uint64_t per_ms = 0;
	if (smp_call_on(best, work_measure, &per_ms)) {
		best = cpu_current();
		work_measure(&per_ms);
	}
	const struct cpu_desc *d = smp_cpu_desc(best);
	work_chunk = per_ms / CHUNKS_PER_MS > CHUNK_MIN ? per_ms / CHUNKS_PER_MS : CHUNK_MIN;
	__atomic_store_n(&work_per_ms, per_ms, __ATOMIC_RELEASE);
	uint64_t probe;
	printk("work: calibrated on cpu %u (core type %s, the fastest here): %lu iterations per ms "
	       "(best of %d rounds of %lu ms); work(W) %s\n", best,
	       machine_core_type_name(d ? d->core_type : CPU_CORE_UNKNOWN), per_ms, CALIB_ROUNDS,
	       (uint64_t)(CALIB_ROUND_NS / 1000000),
	       emul_workclock_self(&probe) == 0 ? "follows the emulated machine's work clock"
						: "runs W ns worth of them");
}
