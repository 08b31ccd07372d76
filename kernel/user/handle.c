/* SPDX-License-Identifier: BSD-2-Clause */
/* handle.c — endpoints' lives and the per-process handle tables (see
 * uproc.h). A process reaches an endpoint only through a handle it was
 * given: by creating the endpoint, from its spawner, or from a service
 * lookup (send right only). Each handle in use is charged to its process
 * and its job (UL_HANDLES), each endpoint to its creator while both live
 * and to the creator's job until the endpoint is freed (UL_ENDPOINTS).
 * user_lock held unless said otherwise. */
#include <user/uproc.h>
#include <mm/mm.h>
#include <kern/panic.h>

static uint32_t endpoint_next_id = 1;   /* user_lock */

/* See uproc.h. The id is given when the first handle is installed. */
struct endpoint *endpoint_alloc(void)
{
	struct endpoint *ep = kzalloc(sizeof(*ep));
	if (ep)
		ep->refs = 1;
	return ep;
}

/* See uproc.h. */
int endpoint_adopt(struct endpoint *ep, struct proc *owner)
{
	int rc = ulimit_charge(UL_ENDPOINTS, owner->job, &owner->use[UL_ENDPOINTS], 1);
	if (rc)
		return rc;
	ep->job = owner->job;
	ujob_get(ep->job);
	ep->owner = owner;
	ep->owner_next = owner->owned;
	owner->owned = ep;
	return 0;
}

/* Unlinks ep from its owner's list and uncharges it (its job too, which
 * it then lets go). */
static void endpoint_uncharge(struct endpoint *ep)
{
	struct proc *o = ep->owner;
	if (o) {
		for (struct endpoint **pp = &o->owned; *pp; pp = &(*pp)->owner_next) {
			if (*pp == ep) {
				*pp = ep->owner_next;
				break;
			}
		}
	}
	ulimit_uncharge(UL_ENDPOINTS, ep->job, o ? &o->use[UL_ENDPOINTS] : NULL, 1);
	ujob_put(ep->job);
}

/* See uproc.h. */
void endpoint_put(struct endpoint *ep)
{
	KASSERT(ep->refs > 0, "endpoint %u: reference count underflow", ep->id);
	if (--ep->refs == 0) {
		KASSERT(!ep->senders.head && !ep->receivers.head, "endpoint %u freed with waiters",
			ep->id);
		endpoint_uncharge(ep);
		kfree(ep);
	}
}

/* See uproc.h. */
void endpoint_disown_all(struct proc *p)
{
	while (p->owned) {
		struct endpoint *ep = p->owned;
		p->owned = ep->owner_next;
		ep->owner = NULL;
		ep->owner_next = NULL;
		ulimit_disown(UL_ENDPOINTS, &p->use[UL_ENDPOINTS], 1);
	}
}

/* See uproc.h. Each waiter finds its result in its own record (ipc.c):
 * waking it with the endpoint dead makes it fail with ERR_DEAD. A name
 * bound to it stays its owner's (lookups then fail with ERR_DEAD). */
void endpoint_kill(struct endpoint *ep)
{
	if (ep->dead)
		return;
	ep->dead = 1;
	uchan_wake_all(&ep->senders);
	uchan_wake_all(&ep->receivers);
}

/* See uproc.h. A process's handle count is the number of its slots in
 * use and its limit is at most HANDLES_MAX, so a charged handle always
 * finds a slot. */
int handle_install(struct proc *p, struct endpoint *ep, uint32_t rights)
{
	int rc = ulimit_charge(UL_HANDLES, p->job, &p->use[UL_HANDLES], 1);
	if (rc)
		return rc;
	int h = 0;
	while (h < HANDLES_MAX && p->handles[h].ep)
		h++;
	KASSERT(h < HANDLES_MAX, "pid %d: %u handles charged, every slot in use", p->pid,
		p->use[UL_HANDLES]);
	if (!ep->id)
		ep->id = endpoint_next_id++;
	p->handles[h].ep = ep;
	p->handles[h].rights = rights;
	ep->refs++;
	if (rights & HANDLE_RECV)
		ep->recv_refs++;
	return h;
}

/* See uproc.h. */
struct endpoint *handle_get(struct proc *p, int64_t h, uint32_t rights)
{
	if (h < 0 || h >= HANDLES_MAX || !p->handles[h].ep ||
	    (p->handles[h].rights & rights) != rights)
		return NULL;
	return p->handles[h].ep;
}

/* See uproc.h. The last receive right gone, no message can ever be taken:
 * the endpoint dies. */
int handle_close(struct proc *p, int64_t h)
{
	if (h < 0 || h >= HANDLES_MAX || !p->handles[h].ep)
		return ERR_BADH;
	struct endpoint *ep = p->handles[h].ep;
	if ((p->handles[h].rights & HANDLE_RECV) && --ep->recv_refs == 0)
		endpoint_kill(ep);
	p->handles[h].ep = NULL;
	p->handles[h].rights = 0;
	ulimit_uncharge(UL_HANDLES, p->job, &p->use[UL_HANDLES], 1);
	endpoint_put(ep);
	return 0;
}

/* See uproc.h. */
void handle_close_all(struct proc *p)
{
	for (int h = 0; h < HANDLES_MAX; h++)
		if (p->handles[h].ep)
			handle_close(p, h);
}
