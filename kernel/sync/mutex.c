/* SPDX-License-Identifier: BSD-2-Clause */
/* mutex.c — sleeping mutexes (see mutex.h). */
#include <sync/mutex.h>
#include <thread/thread.h>
#include <kern/panic.h>

/* See mutex.h. */
void mutex_init(struct mutex *m, const char *name)
{
	waitq_init(&m->wq, name);
	m->owner = NULL;
	m->name = name;
	m->fair = 0;
}

/* See mutex.h. */
void mutex_init_fair(struct mutex *m, const char *name)
{
	mutex_init(m, name);
	m->fair = 1;
}

/* See mutex.h. Sleeps on the mutex's queue while another thread holds it:
 * a fair mutex is handed over by the unlock (the owner is set to the
 * sleeper before it wakes; a free fair mutex has no sleepers, but before
 * the scheduler runs, when nobody queues); any other is taken by whoever
 * finds it free first, a woken sleeper competing again. A wake-up from
 * elsewhere (a kill) only makes it look again and queue at the back. */
void mutex_lock(struct mutex *m)
{
	struct thread *me = thread_current();
	uint64_t flags = spin_lock_irqsave(&m->wq.lock);
	if (m->owner == me)
		panic("mutex '%s': thread %u locks it again", m->name, thread_id(me));
	while (m->owner != me) {
		if (!m->owner)
			m->owner = me;
		else
			waitq_sleep_locked(&m->wq);
	}
	spin_unlock_irqrestore(&m->wq.lock, flags);
}

/* See mutex.h. A fair mutex goes to the oldest sleeper, if any: the
 * unlocking thread cannot take it back before the sleeper ran, so threads
 * that lock it in a loop take turns (FIFO). */
void mutex_unlock(struct mutex *m)
{
	uint64_t flags = spin_lock_irqsave(&m->wq.lock);
	if (m->owner != thread_current())
		panic("mutex '%s': unlocked by a thread that does not hold it", m->name);
	m->owner = m->fair ? m->wq.head : NULL;
	waitq_wake_one_locked(&m->wq);
	spin_unlock_irqrestore(&m->wq.lock, flags);
}

