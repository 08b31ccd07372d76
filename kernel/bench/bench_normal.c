/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_normal.c — the two-sided tail 2 Q(z) of the standard normal
 * distribution in fixed point (see bench_stats.h), for the Mann-Whitney
 * test's normal approximation.
 *
 * Working formats: Q48 (value * 2^48, u64) for z, z^2 and the sums; Q62
 * for e^-x and the density, whose small values need the finer grid.
 * - z <= 4: Q(z) = 1/2 - phi(z) S(z), S(z) = z + z^3/3 + z^5/(3*5) + ...
 *   (all terms positive; S(4) < 4096).
 * - 4 < z <= 8.5: Q(z) = phi(z) R(z), R the continued fraction
 *   1/(z + 1/(z + 2/(z + 3/(z + ...)))), evaluated from depth 32 upwards.
 * - z > 8.5: 2 Q(z) < 2e-17, which is 0 in units of 10^-12.
 * Against SciPy's norm.sf the absolute error of 2 Q stays below 10^-13.
 */
#include <bench/bench_stats.h>

#define Q48_ONE ((uint64_t)1 << 48)
#define Q62_ONE ((uint64_t)1 << 62)
#define LN2_Q62 3196577161300663915ULL        /* ln 2 * 2^62 */
#define INV_SQRT_2PI_Q62 1839796536686825613ULL   /* 1 / sqrt(2 pi) * 2^62 */
#define CF_DEPTH 32

/* e^-x for x >= 0 in Q48 (x < 2^58), in Q62: x = k ln 2 + r, e^-r by its
 * alternating Taylor series (r < ln 2: partial sums stay in (0, 1]). */
static uint64_t exp_neg_q62(uint64_t x_q48)
{
	bench_u128 x = (bench_u128)x_q48 << 14, rem;
	uint64_t k = (uint64_t)bench_divmod(x, LN2_Q62, &rem);
	uint64_t r = (uint64_t)rem, s = Q62_ONE, t = Q62_ONE;
	if (k >= 63)
		return 0;
	for (uint64_t j = 1; j < 40; j++) {
		t = (uint64_t)(((bench_u128)t * r) >> 62) / j;
		if (!t)
			break;
		s = j % 2 ? s - t : s + t;
	}
	return k ? (s + ((uint64_t)1 << (k - 1))) >> k : s;
}

/* The standard normal density at z (given z^2 in Q48), in Q62. */
static uint64_t phi_q62(uint64_t z2_q48)
{
	return (uint64_t)(((bench_u128)exp_neg_q62(z2_q48 >> 1) * INV_SQRT_2PI_Q62) >> 62);
}

/* Q(z) in Q48 for z in Q48, 0 <= z <= 8.5. */
static uint64_t upper_tail_q48(uint64_t z, uint64_t z2)
{
	uint64_t phi = phi_q62(z2);
	if (z <= 4 * Q48_ONE) {
		uint64_t t = z, S = z;
		for (uint64_t k = 0; t && k < 200; k++) {
			t = (uint64_t)(((bench_u128)t * z2) >> 48) / (2 * k + 3);
			S += t;
		}
		uint64_t prod = (uint64_t)(((bench_u128)phi * S) >> 62);
		return prod >= Q48_ONE / 2 ? 0 : Q48_ONE / 2 - prod;
	}
	uint64_t t = 0;
	for (uint64_t j = CF_DEPTH; j >= 1; j--)
		t = (uint64_t)bench_divmod((bench_u128)j << 96, z + t, 0);
	uint64_t R = (uint64_t)bench_divmod((bench_u128)1 << 96, z + t, 0);
	return (uint64_t)(((bench_u128)phi * R) >> 62);
}

uint64_t bench_normal_2sf(bench_u128 num, uint64_t den)
{
	/* z^2 > 72.25 (z > 8.5): the tail is below the resolution (num of
	 * 2^100 or more is beyond that for any 64-bit den). */
	if ((num >> 100) || num * 4 > (bench_u128)den * 289)
		return 0;
	uint64_t z2 = (uint64_t)bench_divmod(num << 48, den, 0);   /* <= 72.25 * 2^48 */
	uint64_t z = bench_isqrt((bench_u128)z2 << 48);
	uint64_t q = upper_tail_q48(z, z2);
	bench_u128 p = ((bench_u128)2 * q * BENCH_P_ONE + (Q48_ONE >> 1)) >> 48;
	return p > BENCH_P_ONE ? BENCH_P_ONE : (uint64_t)p;
}
