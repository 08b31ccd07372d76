/* SPDX-License-Identifier: BSD-2-Clause */
/* sem.h — counting semaphores; sem_wait() sleeps while the count is 0.
 * sem_post() may be called from interrupt handlers. */
#ifndef MOSAIC_SEM_H
#define MOSAIC_SEM_H
#include <stdint.h>
#include <sync/waitq.h>

struct sem {
	struct waitq wq;     /* its lock guards count */
	int64_t count;
};

void sem_init(struct sem *s, int64_t count, const char *name);
/* Take one unit, sleeping until there is one. Threads only. */
void sem_wait(struct sem *s);
/* Give one unit back and wake one sleeper. Any context. */
void sem_post(struct sem *s);

#endif
