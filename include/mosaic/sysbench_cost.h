/* SPDX-License-Identifier: BSD-2-Clause */
/* sysbench_cost.h — what one event of sysbench's cpu test costs as work(W),
 * shared by the kernel's workload (kernel/bench/wl_cpu.c) and the user
 * program (userland/bin/sysbench.c) so both count the same events.
 *
 * An event verifies the primes below max-prime by trial division; its work
 * is proportional to the divisions, anchored so that one thread alone on a
 * P-core does the seed report's 8190918.87 events/s (its hmp median at 4
 * threads on the i7-1370P, per thread): one event at max-prime 10000
 * (117526 divisions) is 10^14 / 819091887 ps of P-core work. */
#ifndef MOSAIC_SYSBENCH_COST_H
#define MOSAIC_SYSBENCH_COST_H
#include <stdint.h>

#define SYSBENCH_ANCHOR_RATE_X100 819091887ull   /* events/s × 100 on a lone P thread */
#define SYSBENCH_ANCHOR_DIVS      117526ull      /* divisions of one event at max-prime 10000 */
#define SYSBENCH_BATCH_PS         1000000000ull  /* events are done in batches of about 1 ms */

/* Trial divisions of one event at max_prime: for c in 3..max_prime-1,
 * divisors l = 2.. up to floor(sqrt(c)) until one divides. */
static inline uint64_t sysbench_divisions(uint64_t max_prime)
{
	uint64_t n = 0, t = 1;
	for (uint64_t c = 3; c < max_prime; c++) {
		while ((t + 1) * (t + 1) <= c)
			t++;
		for (uint64_t l = 2; l <= t; l++) {
			n++;
			if (c % l == 0)
				break;
		}
	}
	return n;
}

#endif
