/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture.h — the `torture` stressor (docs/torture.md): for a bounded
 * time, with a seed, every CPU at once creates, sleeps, wakes, yields,
 * re-prioritises and re-pins kernel threads, runs short user processes
 * (faults, sysfuzz) and short bench workloads, flips kern.sched.policy
 * and every hmp switch and drives the emulated HFI device, with kern.sched.debug and witness on;
 * then checks that what was created was freed and reports. Shell thread.
 */
#ifndef MOSAIC_TORTURE_H
#define MOSAIC_TORTURE_H
#include <stddef.h>
#include <stdint.h>

#define TORTURE_THREADS 0x1   /* kernel threads on every CPU */
#define TORTURE_USER    0x2   /* user processes */
#define TORTURE_KNOBS   0x4   /* kern.sched.policy and the hmp switches */
#define TORTURE_HFI     0x8   /* the emulated HFI device */
#define TORTURE_BENCH   0x10  /* short runs of the bench workloads */
#define TORTURE_ALL     0x1f

#define TORTURE_TIME_MAX_S 3600

struct torture_opts {
	uint64_t time_ns;
	uint64_t seed;
	unsigned stressors;   /* TORTURE_* */
};

/* Runs one torture pass as o says and prints its report; returns the
 * number of violations found (0: passed). Shell thread only; takes the
 * locks of whatever it stresses. */
int torture_run(const struct torture_opts *o);
/* Parses a comma-separated list of stressor names (threads, user, knobs,
 * hfi, bench, all) into *mask; 0, or -1 with a message naming the word. */
int torture_parse_stressors(const char *list, unsigned *mask, char *err, size_t len);

#endif
