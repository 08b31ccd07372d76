/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_math.h — integer arithmetic for the benchmark statistics: 128-bit
 * division, rounding division and square root, written out so that the
 * kernel (no libgcc, -mgeneral-regs-only) and the host share one code path.
 *
 * Portable C (GNU C's unsigned __int128 for storage, multiplication, shifts
 * and comparisons; never its `/` or `%`, which would call libgcc). No locks,
 * no state.
 */
#ifndef MOSAIC_BENCH_MATH_H
#define MOSAIC_BENCH_MATH_H
#include <stdint.h>

typedef unsigned __int128 bench_u128;

/* n / d with *rem = n % d (rem may be NULL); d must not be 0. */
bench_u128 bench_divmod(bench_u128 n, bench_u128 d, bench_u128 *rem);
/* n / d rounded half up (ties away from zero); d must not be 0. */
bench_u128 bench_div_round(bench_u128 n, bench_u128 d);
/* floor(sqrt(x)). */
uint64_t bench_isqrt(bench_u128 x);
/* Number of significant bits of x (0 for 0). */
int bench_bits(bench_u128 x);

#endif
