/* SPDX-License-Identifier: BSD-2-Clause */
/* waitq.c — wait queues and condition variables (see waitq.h). */
#include <sync/waitq.h>
#include <sync/mutex.h>
#include <thread/thread.h>
#include <arch/x86_64/cpu/cpu.h>
#include <kern/panic.h>

/* See waitq.h. */
void waitq_init(struct waitq *wq, const char *name)
{
	*wq = (struct waitq)WAITQ_INIT(name);
}

/* Appends td. Caller holds wq->lock. */
static void waitq_push(struct waitq *wq, struct thread *td)
{
	td->wq_next = NULL;
	if (wq->tail)
		wq->tail->wq_next = td;
	else
		wq->head = td;
	wq->tail = td;
}

/* Unlinks td wherever it is; 1 if it was queued. Caller holds wq->lock. */
static int waitq_remove(struct waitq *wq, struct thread *td)
{
	struct thread *prev = NULL;
	for (struct thread *t = wq->head; t; prev = t, t = t->wq_next) {
		if (t != td)
			continue;
		if (prev)
			prev->wq_next = t->wq_next;
		else
			wq->head = t->wq_next;
		if (wq->tail == t)
			wq->tail = prev;
		t->wq_next = NULL;
		return 1;
	}
	return 0;
}

/* See waitq.h. */
void waitq_sleep_locked(struct waitq *wq)
{
	KASSERT(spin_held(&wq->lock), "waitq '%s': sleep without its lock", wq->lock.name);
	if (!thread_sched_running()) {
		/* Boot (or sched=off): one thread per CPU, interrupts wake us. */
		spin_unlock(&wq->lock);
		cpu_sti_hlt();
		cpu_cli();
		spin_lock(&wq->lock);
		return;
	}
	struct thread *td = thread_current();
	waitq_push(wq, td);
	td->wchan = wq;
	thread_block_locked(&wq->lock);   /* releases wq->lock once off the CPU */
	spin_lock(&wq->lock);
	/* A wakeup unlinked us; a spurious return (none today) must too. */
	if (td->wchan == wq)
		waitq_remove(wq, td);
	td->wchan = NULL;
}

/* Wakes td, which the caller just unlinked. Caller holds wq->lock. */
static void waitq_wake_thread(struct thread *td)
{
	td->wchan = NULL;
	thread_unblock(td);
}

/* See waitq.h. */
int waitq_wake_one_locked(struct waitq *wq)
{
	struct thread *td = wq->head;
	if (!td)
		return 0;
	waitq_remove(wq, td);
	waitq_wake_thread(td);
	return 1;
}

/* See waitq.h. */
int waitq_wake_all_locked(struct waitq *wq)
{
	int n = 0;
	while (waitq_wake_one_locked(wq))
		n++;
	return n;
}

/* See waitq.h. */
int waitq_wake_one(struct waitq *wq)
{
	uint64_t flags = spin_lock_irqsave(&wq->lock);
	int n = waitq_wake_one_locked(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
	return n;
}

/* See waitq.h. */
int waitq_wake_all(struct waitq *wq)
{
	uint64_t flags = spin_lock_irqsave(&wq->lock);
	int n = waitq_wake_all_locked(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
	return n;
}

/* See waitq.h. The queue's lock is taken before m is released, so a
 * signal sent by the next holder of m finds the caller queued. Lock order:
 * cv lock, then m's lock. */
void cv_wait(struct waitq *cv, struct mutex *m)
{
	uint64_t flags = spin_lock_irqsave(&cv->lock);
	mutex_unlock(m);
	waitq_sleep_locked(cv);
	spin_unlock_irqrestore(&cv->lock, flags);
	mutex_lock(m);
}

/* See waitq.h. */
void cv_signal(struct waitq *cv)
{
	waitq_wake_one(cv);
}

/* See waitq.h. */
void cv_broadcast(struct waitq *cv)
{
	waitq_wake_all(cv);
}
