/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * waitq.h — wait queues: threads sleeping until a condition holds.
 *
 * A waitq is a spinlock and a FIFO of sleeping threads. The pattern that
 * cannot lose a wakeup: take the queue's lock, test the condition, and if
 * it is false sleep with waitq_sleep_locked() — the lock is released only
 * once the thread is off its CPU's run queue, and a waker must take the
 * same lock, so a wakeup either sees the sleeper queued or happens before
 * the test. Wakers change the condition first, then call waitq_wake_*.
 * Interrupt handlers may wake (never sleep).
 */
#ifndef MOSAIC_WAITQ_H
#define MOSAIC_WAITQ_H
#include <arch/x86_64/spinlock.h>

struct thread;

struct waitq {
	struct spinlock lock;
	struct thread *head, *tail;   /* sleepers, oldest first (td->wq_next) */
};

#define WAITQ_INIT(nm) { .lock = SPINLOCK_INIT(nm), .head = 0, .tail = 0 }

void waitq_init(struct waitq *wq, const char *name);
/* Caller holds wq->lock (taken with spin_lock_irqsave) and is a thread:
 * queue the caller and switch away; returns once woken, with wq->lock
 * held again. Before the scheduler runs, waits with sti;hlt instead
 * (woken by any interrupt; the caller re-tests its condition). */
void waitq_sleep_locked(struct waitq *wq);
/* Wake the oldest sleeper; returns 1 if there was one. Caller holds
 * wq->lock. */
int waitq_wake_one_locked(struct waitq *wq);
/* Wake every sleeper; returns how many. Caller holds wq->lock. */
int waitq_wake_all_locked(struct waitq *wq);
/* Lock, wake one / all, unlock. Any context. */
int waitq_wake_one(struct waitq *wq);
int waitq_wake_all(struct waitq *wq);

/* Condition variables are wait queues used with a sleeping mutex. */
struct mutex;
/* Release m, sleep until signalled, take m again. The caller holds m and
 * re-tests its condition after the return (wakeups may be spurious). */
void cv_wait(struct waitq *cv, struct mutex *m);
void cv_signal(struct waitq *cv);
void cv_broadcast(struct waitq *cv);

#endif
