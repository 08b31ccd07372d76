/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ratelimit.h — at most `burst` events in each window of `interval`
 * nanoseconds from one source, the rest held back and counted, so that a
 * source that fires without end (a program that faults in a loop) says
 * what happens a few times and then how often it was silenced. Linux's
 * printk_ratelimit() and FreeBSD's ppsratecheck() do the same for their
 * kernels' messages. Portable (host-tested in tests/unit/test_ratelimit.c);
 * the caller serializes the calls on one struct ratelimit.
 */
#ifndef MOSAIC_RATELIMIT_H
#define MOSAIC_RATELIMIT_H
#include <stdint.h>

struct ratelimit {
	uint64_t window_end;   /* ns: the open window ends here (0: none opened yet) */
	uint32_t passed;       /* events let through in the open window */
	uint32_t held;         /* events held back since the last one let through */
};

/* Whether an event at time now (ns, never going back) passes (1) or is
 * held back (0, counted). A window opens with the first event after the
 * last window ended; at most burst events pass in it. When an event passes
 * after some were held back, *held_before is their number, else 0 (the
 * caller reports it first). interval 0 or burst 0: every event passes. */
int ratelimit_pass(struct ratelimit *rl, uint64_t now, uint64_t interval, uint32_t burst,
		   uint32_t *held_before);

#endif
