/* SPDX-License-Identifier: BSD-2-Clause */
/* user_host.c — the host stand-ins of the system-call layer (see
 * user_host.h). */
#include <tests/unit/user_host.h>
#include <string.h>
#include <kern/panic.h>
#include <user/ucheck.h>
#include <user/ulayout.h>
#include <tests/unit/uvm_host.h>
#include <tests/unit/uvm_walk.h>

struct spinlock user_lock = SPINLOCK_INIT("user");

static struct uthread *current;

/* See user_host.h. */
void host_set_current(struct uthread *ut)
{
	current = ut;
}

/* See uproc.h. */
struct uthread *uthread_self(void)
{
	return current;
}

/* See uproc.h. */
struct proc *proc_self(void)
{
	return current ? current->proc : NULL;
}

/* See spinlock.h: never taken twice. */
uint64_t spin_lock_irqsave(struct spinlock *l)
{
	if (l->locked)
		panic("user_host: spinlock %s taken twice", l->name);
	l->locked = 1;
	l->owner = 0;
	host_spin_depth++;
	return 0x202;
}

/* See spinlock.h: only by its holder. */
void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags)
{
	(void)flags;
	if (!l->locked)
		panic("user_host: spinlock %s released but not held", l->name);
	l->locked = 0;
	l->owner = SPINLOCK_NO_OWNER;
	host_spin_depth--;
}

/* See uproc.h: no call of these harnesses may block. */
int uwait_sleep(struct uchan *ch, struct uwait *w, uint64_t deadline)
{
	(void)ch;
	(void)w;
	panic("user_host: a wait until %lu was attempted (calls here never block)", deadline);
}

/* See uproc.h: nobody waits, so nobody can be woken. */
void uwait_wake(struct uwait *w)
{
	(void)w;
	panic("user_host: a wait was woken, but none can exist");
}

/* See uproc.h. */
struct uwait *uchan_pop(struct uchan *ch)
{
	if (ch->head || ch->tail)
		panic("user_host: a channel holds a waiter");
	return NULL;
}

/* See uproc.h. */
void uchan_wake_all(struct uchan *ch)
{
	uchan_pop(ch);
}

/* See uproc.h: there is no clock; the deadline only matters to a sleep. */
uint64_t uwait_deadline(uint64_t timeout_ns)
{
	return timeout_ns;
}

/* Copies n bytes between kernel memory k and user address u of the
 * current process, page by page: 0 or ERR_FAULT. */
static int host_copy_user(void *k, uint64_t u, uint64_t n, int to_user)
{
	if (host_spin_depth)
		panic("user_host: user memory touched under a spinlock");
	if (ucheck_range(u, n))
		return ERR_FAULT;
	uint8_t *kb = k;
	while (n) {
		uint64_t chunk = USER_PAGE - u % USER_PAGE < n ? USER_PAGE - u % USER_PAGE : n;
		uint8_t *b = walk_user_byte(&proc_self()->vm, u, to_user);
		if (!b)
			return ERR_FAULT;
		if (to_user)
			memcpy(b, kb, chunk);
		else
			memcpy(kb, b, chunk);
		kb += chunk;
		u += chunk;
		n -= chunk;
	}
	return 0;
}

/* See uproc.h. */
int copy_from_user(void *dst, uint64_t src, uint64_t n)
{
	return host_copy_user(dst, src, n, 0);
}

/* See uproc.h. */
int copy_to_user(uint64_t dst, const void *src, uint64_t n)
{
	return host_copy_user((void *)src, dst, n, 1);
}

/* See uproc.h: byte by byte up to the NUL, never past USER_TOP (a string
 * running into it faults). */
int64_t copy_str_from_user(char *dst, uint64_t src, uint64_t max)
{
	if (host_spin_depth)
		panic("user_host: user memory touched under a spinlock");
	if (max == 0 || ucheck_range(src, 1))
		return ERR_FAULT;
	uint64_t room = USER_TOP - src, n = max < room ? max : room;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *b = walk_user_byte(&proc_self()->vm, src + i, 0);
		if (!b)
			return ERR_FAULT;
		dst[i] = (char)*b;
		if (!*b)
			return (int64_t)i;
	}
	return max > room ? ERR_FAULT : ERR_TOOBIG;
}
