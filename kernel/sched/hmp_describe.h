/* SPDX-License-Identifier: BSD-2-Clause */
/* hmp_describe.h — hmp's core-type and HWP providers from CPU descriptors
 * (hmp_describe.c). Portable. */
#ifndef MOSAIC_SCHED_HMP_DESCRIBE_H
#define MOSAIC_SCHED_HMP_DESCRIBE_H
#include <lib/cpu_desc.h>

/* The descriptor of CPU cpu, or NULL when it has none. */
typedef const struct cpu_desc *(*hmp_desc_fn)(unsigned cpu);

/* Feeds the core-type provider (only when CPUs of several types exist and
 * every CPU has one) and the HWP provider (only when every CPU reported a
 * highest performance) from CPUs 0..n-1, and sets both providers' status
 * lines. Does not publish. Caller: after hmp_init(n), under no lock (hmp
 * takes its own). */
void hmp_describe_cpus(unsigned n, hmp_desc_fn desc_of);

#endif
