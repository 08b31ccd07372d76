/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fail_nth.h — allocation failure on request, for tests of the paths that
 * must survive running out of memory (the idea of Linux's
 * /proc/self/task/TID/fail-nth). A thread arms its own counter; the
 * kernel's allocators (kmalloc(), pmm_alloc_page()) ask fail_nth_now()
 * first, and the n-th allocation the thread makes from then on fails as
 * if memory had run out. Only while `sysctl debug.fail_nth=1`.
 *
 * On the host (MOSAIC_HOST) nothing ever fails through this.
 */
#ifndef MOSAIC_FAIL_NTH_H
#define MOSAIC_FAIL_NTH_H
#include <stdint.h>

#ifdef MOSAIC_HOST
static inline int fail_nth_now(void) { return 0; }
#else
/* 1 when the calling thread's armed count reaches this allocation (the
 * count is then disarmed); 0 otherwise. Any context; lock-free. */
int fail_nth_now(void);
#endif
/* 1 when `sysctl debug.fail_nth` allows arming. */
int fail_nth_enabled(void);
/* Arm the calling thread: its n-th allocation from now fails (0:
 * disarm). Returns the count that was left (0: the armed failure has
 * happened, or none was armed). Thread context. */
uint32_t fail_nth_arm(uint32_t n);

#endif
