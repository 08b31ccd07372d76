/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_cpuset.h — a set of logical CPU ids, sized for TOPO_MAXCPU.
 *
 * Portable (stdint only). Plain value type: copy it, compare it, keep it in
 * static storage. All helpers ignore ids >= TOPO_MAXCPU (reads say "absent").
 * No locking: a set shared between CPUs is built once and then only read.
 */
#ifndef MOSAIC_SCHED_TOPO_CPUSET_H
#define MOSAIC_SCHED_TOPO_CPUSET_H
#include <stdint.h>

/* Logical CPUs the topology code can hold; equal to the kernel's MAXCPU
 * (kernel/arch/x86_64/smp/smp.h), checked where the two meet (cmd_topo.c). */
#define TOPO_MAXCPU 256
#define CPUSET_WORDS (TOPO_MAXCPU / 64)

struct cpuset {
	uint64_t bits[CPUSET_WORDS];   /* bit (cpu % 64) of word (cpu / 64) */
};

/* Empties the set. */
static inline void cpuset_zero(struct cpuset *s)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		s->bits[i] = 0;
}

/* Adds cpu. */
static inline void cpuset_set(struct cpuset *s, unsigned cpu)
{
	if (cpu < TOPO_MAXCPU)
		s->bits[cpu / 64] |= 1ull << (cpu % 64);
}

/* Whether cpu is in the set. */
static inline int cpuset_isset(const struct cpuset *s, unsigned cpu)
{
	return cpu < TOPO_MAXCPU && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

/* Number of CPUs in the set. */
static inline int cpuset_count(const struct cpuset *s)
{
	int n = 0;
	for (int i = 0; i < CPUSET_WORDS; i++)
		for (uint64_t w = s->bits[i]; w; w &= w - 1)   /* no libgcc popcount in the kernel */
			n++;
	return n;
}

/* Lowest CPU id in the set, -1 if empty. */
static inline int cpuset_first(const struct cpuset *s)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		if (s->bits[i])
			return i * 64 + __builtin_ctzll(s->bits[i]);
	return -1;
}

/* Highest CPU id in the set, -1 if empty. */
static inline int cpuset_last(const struct cpuset *s)
{
	for (int i = CPUSET_WORDS - 1; i >= 0; i--)
		if (s->bits[i])
			return i * 64 + 63 - __builtin_clzll(s->bits[i]);
	return -1;
}

/* Next CPU id after cpu in the set (cpu = -1 for the first), -1 after the last. */
static inline int cpuset_next(const struct cpuset *s, int cpu)
{
	for (unsigned c = (unsigned)(cpu + 1); c < TOPO_MAXCPU; c++) {
		uint64_t w = s->bits[c / 64] >> (c % 64);
		if (w)
			return (int)c + __builtin_ctzll(w);
		c |= 63;   /* rest of this word is empty: go to the next word */
	}
	return -1;
}

/* dst |= src. */
static inline void cpuset_or(struct cpuset *dst, const struct cpuset *src)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		dst->bits[i] |= src->bits[i];
}

/* Whether a and b have a CPU in common. */
static inline int cpuset_overlap(const struct cpuset *a, const struct cpuset *b)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		if (a->bits[i] & b->bits[i])
			return 1;
	return 0;
}

/* Whether a and b hold the same CPUs. */
static inline int cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		if (a->bits[i] != b->bits[i])
			return 0;
	return 1;
}

#endif
