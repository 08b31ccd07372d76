/* SPDX-License-Identifier: BSD-2-Clause */
/* fail_nth.c — a thread's own allocation failure on request (see
 * fail_nth.h). The count lives in the thread's struct thread; the thread
 * layer points the CPU's record at the running thread's count at every
 * switch (percpu_fail_nth()), so the allocators never call up into it. */
#include <mm/fail_nth.h>
#include <arch/x86_64/smp/percpu.h>
#include <lib/sysctl.h>

static int64_t fail_nth_allowed;
SYSCTL_INT(debug_fail_nth, "debug.fail_nth", &fail_nth_allowed, 1, 0, 1,
	   "1: threads may arm allocation failures (SYS_FAIL_NTH, for tests)");

/* See fail_nth.h. Only the thread itself writes its count (interrupt
 * handlers that allocate see the interrupted thread's, and may consume
 * it: that allocation fails instead, which its caller must survive too). */
int fail_nth_now(void)
{
	uint32_t *left = percpu_ready() ? percpu_fail_nth() : NULL;
	if (!left || !*left)
		return 0;
	return --*left == 0;
}

/* See fail_nth.h. */
int fail_nth_enabled(void)
{
	return __atomic_load_n(&fail_nth_allowed, __ATOMIC_RELAXED) != 0;
}

/* See fail_nth.h. */
uint32_t fail_nth_arm(uint32_t n)
{
	uint32_t *slot = percpu_fail_nth();
	uint32_t left = *slot;
	*slot = n;
	return left;
}
