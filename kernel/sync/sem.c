/* SPDX-License-Identifier: BSD-2-Clause */
/* sem.c — counting semaphores (see sem.h). */
#include <sync/sem.h>

/* See sem.h. */
void sem_init(struct sem *s, int64_t count, const char *name)
{
	waitq_init(&s->wq, name);
	s->count = count;
}

/* See sem.h. The count is tested under the queue's lock, so a post cannot
 * slip between the test and the sleep. */
void sem_wait(struct sem *s)
{
	uint64_t flags = spin_lock_irqsave(&s->wq.lock);
	while (s->count <= 0)
		waitq_sleep_locked(&s->wq);
	s->count--;
	spin_unlock_irqrestore(&s->wq.lock, flags);
}

/* See sem.h. */
void sem_post(struct sem *s)
{
	uint64_t flags = spin_lock_irqsave(&s->wq.lock);
	s->count++;
	waitq_wake_one_locked(&s->wq);
	spin_unlock_irqrestore(&s->wq.lock, flags);
}
