/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_random.c — the simulator's random numbers: splitmix64 (Steele,
 * Lea and Flood's SplitMix, the 64-bit finaliser constants), small,
 * fast and good enough to seed everything else from one number.
 */
#include <sim/sim.h>

/* See sim.h. */
uint64_t sim_mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
