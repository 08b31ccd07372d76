/* SPDX-License-Identifier: BSD-2-Clause */
/* cpulist.h — CPU sets typed by people (`spawn … cpus=`, `sysctl
 * kern.sched.primary=`) and CPU sequences (`spawn … pin=`), parsed by
 * cpulist.c. Portable C (host-tested in
 * tests/unit/test_cpulist.c). */
#ifndef MOSAIC_CPULIST_H
#define MOSAIC_CPULIST_H
#include <stddef.h>
#include <sched/topo_cpuset.h>

/* A CPU set: "0x" hex mask or a list "0-3,6" of any length; every CPU it
 * names must be below ncpu. 0, or -1 with a one-line message in err that
 * names the bad item and the allowed CPUs. No locks. */
int cpulist_parse(const char *s, unsigned ncpu, struct cpuset *out, char *err, size_t err_len);
/* A CPU sequence "2,12,4-5,10,10": the CPUs of a list in the order named,
 * repeats allowed, into out[0..max) (max >= 1); each below ncpu. Returns
 * how many (1..max), or -1 with a one-line message in err (as
 * cpulist_parse, or more than max CPUs). No locks. */
int cpulist_parse_seq(const char *s, unsigned ncpu, unsigned *out, unsigned max, char *err,
		      size_t err_len);

#endif
