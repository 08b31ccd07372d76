/* fail_nth.c — a thread's own allocation failure on request (see
 * fail_nth.h); the count lives in its struct thread. */
#include <fail_nth.h>
#include <sysctl.h>
#include <thread.h>

static int64_t fail_nth_allowed;
SYSCTL_INT(debug_fail_nth, "debug.fail_nth", &fail_nth_allowed, 1, 0, 1,
	   "1: threads may arm allocation failures (SYS_FAIL_NTH, for tests)");

/* See fail_nth.h. Only the thread itself writes its count (interrupt
 * handlers that allocate see the interrupted thread's, and may consume
 * it: that allocation fails instead, which its caller must survive too). */
int fail_nth_now(void)
{
	struct thread *td = thread_current();
	if (!td || !td->fail_nth)
		return 0;
	return --td->fail_nth == 0;
}

/* See fail_nth.h. */
int fail_nth_enabled(void)
{
	return __atomic_load_n(&fail_nth_allowed, __ATOMIC_RELAXED) != 0;
}

/* See fail_nth.h. */
uint32_t fail_nth_arm(uint32_t n)
{
	struct thread *td = thread_current();
	uint32_t left = td->fail_nth;
	td->fail_nth = n;
	return left;
}
