/* SPDX-License-Identifier: BSD-2-Clause */
/* uwait.c — how threads wait in the user layer: channels of waiters under
 * user_lock, with timeouts and kills (see uproc.h, "waits"). */
#include <user/uproc.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/clock/time.h>

/* The one lock of this layer (uproc.h). */
struct spinlock user_lock = SPINLOCK_INIT("user");

/* Appends w to ch. user_lock held. */
static void uchan_push(struct uchan *ch, struct uwait *w)
{
	w->next = NULL;
	w->chan = ch;
	if (ch->tail)
		ch->tail->next = w;
	else
		ch->head = w;
	ch->tail = w;
}

/* Unlinks w from its channel, if it is on one. user_lock held. */
static void uchan_unlink(struct uwait *w)
{
	struct uchan *ch = w->chan;
	if (!ch)
		return;
	struct uwait *prev = NULL;
	for (struct uwait *x = ch->head; x; prev = x, x = x->next) {
		if (x != w)
			continue;
		if (prev)
			prev->next = w->next;
		else
			ch->head = w->next;
		if (ch->tail == w)
			ch->tail = prev;
		break;
	}
	w->next = NULL;
	w->chan = NULL;
}

/* Timer callback of a timed wait: ends it with UW_TIMEOUT unless something
 * else ended it first. Runs from a tick (interrupts off); the last thing
 * it does with w is to mark itself finished. */
static void uwait_timeout(void *arg)
{
	struct uwait *w = arg;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	if (w->state == UW_WAITING) {
		w->state = UW_TIMEOUT;
		uchan_unlink(w);
		thread_unblock(w->td);
	}
	spin_unlock_irqrestore(&user_lock, flags);
	__atomic_store_n(&w->timer_done, 1, __ATOMIC_RELEASE);
}

/* 1 if the calling thread belongs to a process being killed. */
static int uwait_killed(void)
{
	struct uthread *ut = uthread_self();
	return ut && __atomic_load_n(&ut->proc->killed, __ATOMIC_ACQUIRE);
}

/* See uproc.h. The timer is armed under user_lock, before the thread
 * blocks; thread_block_locked() releases the lock only once the scheduler
 * knows the thread sleeps, so neither a waker nor the timer can miss it.
 * After waking, the timer is cancelled or, if it fired meanwhile, its
 * callback is waited for: the record lives on this stack. */
int uwait_sleep(struct uchan *ch, struct uwait *w, uint64_t deadline)
{
	if (uwait_killed())
		return UW_KILLED;
	uint64_t now = time_ns();
	if (deadline != UWAIT_FOREVER && now >= deadline)
		return UW_TIMEOUT;
	w->td = thread_current();
	w->state = UW_WAITING;
	w->chan = NULL;
	w->timer_armed = 0;
	w->timer_done = 0;
	if (ch)
		uchan_push(ch, w);
	if (deadline != UWAIT_FOREVER) {
		timer_init(&w->timer);
		timer_arm(&w->timer, deadline - now, uwait_timeout, w);
		w->timer_armed = 1;
	}
	thread_block_locked(&user_lock);
	if (w->timer_armed && !timer_cancel(&w->timer))
		while (!__atomic_load_n(&w->timer_done, __ATOMIC_ACQUIRE))
			cpu_pause();
	spin_lock(&user_lock);
	uchan_unlink(w);
	int st = w->state;
	w->state = UW_WOKEN;   /* a later stray timer or waker finds it finished */
	if (st == UW_WAITING)
		return uwait_killed() ? UW_KILLED : UW_AGAIN;
	return st;
}

/* See uproc.h. */
void uwait_wake(struct uwait *w)
{
	if (w->state != UW_WAITING)
		return;
	w->state = UW_WOKEN;
	uchan_unlink(w);
	thread_unblock(w->td);
}

/* See uproc.h. Pops without waking: the caller hands the waiter its
 * message first, then wakes it (uwait_wake()) or keeps it waiting. */
struct uwait *uchan_pop(struct uchan *ch)
{
	struct uwait *w = ch->head;
	if (w)
		uchan_unlink(w);
	return w;
}

/* See uproc.h. */
void uchan_wake_all(struct uchan *ch)
{
	struct uwait *w;
	while ((w = uchan_pop(ch)))
		uwait_wake(w);
}

/* See uproc.h. */
uint64_t uwait_deadline(uint64_t timeout_ns)
{
	if (timeout_ns == IPC_FOREVER)
		return UWAIT_FOREVER;
	return time_ns() + timeout_ns;
}
