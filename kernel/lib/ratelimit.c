/* SPDX-License-Identifier: BSD-2-Clause */
/* ratelimit.c — events per window (see ratelimit.h). Portable C. */
#include <lib/ratelimit.h>

/* See ratelimit.h. */
int ratelimit_pass(struct ratelimit *rl, uint64_t now, uint64_t interval, uint32_t burst,
		   uint32_t *held_before)
{
	*held_before = 0;
	if (interval && burst) {
		if (rl->window_end == 0 || now >= rl->window_end) {
			rl->window_end = now + interval;
			rl->passed = 0;
		}
		if (rl->passed >= burst) {
			rl->held++;
			return 0;
		}
		rl->passed++;
	}
	*held_before = rl->held;
	rl->held = 0;
	return 1;
}
