/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_math.c — 128-bit division, rounding and square root (see bench_math.h). */
#include <bench/bench_math.h>

int bench_bits(bench_u128 x)
{
	int n = 0;
	while (x) {
		x >>= 1;
		n++;
	}
	return n;
}

/* Shift-subtract long division over the significant bits of n; the 64-bit
 * case uses the CPU's division. No locks. */
bench_u128 bench_divmod(bench_u128 n, bench_u128 d, bench_u128 *rem)
{
	bench_u128 q = 0, r = 0;
	if ((n >> 64) == 0 && (d >> 64) == 0) {
		uint64_t n64 = (uint64_t)n, d64 = (uint64_t)d;
		q = n64 / d64;
		r = n64 % d64;
	} else {
		for (int i = bench_bits(n) - 1; i >= 0; i--) {
			int top = (int)(r >> 127);   /* r << 1 would lose this bit */
			r = (r << 1) | ((n >> i) & 1);
			if (top || r >= d) {
				r -= d;   /* modulo 2^128: exact, as the true value is below d */
				q |= (bench_u128)1 << i;
			}
		}
	}
	if (rem)
		*rem = r;
	return q;
}

/* Rounds half up: one more when the remainder is at least half of d. */
bench_u128 bench_div_round(bench_u128 n, bench_u128 d)
{
	bench_u128 r;
	bench_u128 q = bench_divmod(n, d, &r);
	return r >= d - r ? q + 1 : q;
}

/* Digit-by-digit square root, two bits of x per step. No locks. */
uint64_t bench_isqrt(bench_u128 x)
{
	bench_u128 res = 0, bit = (bench_u128)1 << 126;
	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= res + bit) {
			x -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)res;
}
