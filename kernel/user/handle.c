/* handle.c — endpoints' lives and the per-process handle tables (see
 * uproc.h). A process reaches an endpoint only through a handle it was
 * given: by creating the endpoint, from its spawner, or from a service
 * lookup (send right only). user_lock held unless said otherwise. */
#include "uproc.h"
#include <mm.h>
#include <panic.h>

static uint32_t endpoint_next_id = 1;   /* user_lock */

/* See uproc.h. The id is given under user_lock by handle_install()'s
 * caller's lock; here only the record is made. */
struct endpoint *endpoint_new(void)
{
	struct endpoint *ep = kzalloc(sizeof(*ep));
	if (ep)
		ep->refs = 1;
	return ep;
}

/* See uproc.h. */
void endpoint_put(struct endpoint *ep)
{
	KASSERT(ep->refs > 0, "endpoint %u: reference count underflow", ep->id);
	if (--ep->refs == 0) {
		KASSERT(!ep->senders.head && !ep->receivers.head, "endpoint %u freed with waiters",
			ep->id);
		kfree(ep);
	}
}

/* See uproc.h. Each waiter finds its result in its own record (ipc.c):
 * waking it with the endpoint dead makes it fail with ERR_DEAD. */
void endpoint_kill(struct endpoint *ep)
{
	if (ep->dead)
		return;
	ep->dead = 1;
	uchan_wake_all(&ep->senders);
	uchan_wake_all(&ep->receivers);
	svc_forget(ep);
}

/* See uproc.h. */
int handle_install(struct proc *p, struct endpoint *ep, uint32_t rights)
{
	for (int h = 0; h < HANDLES_MAX; h++) {
		if (p->handles[h].ep)
			continue;
		if (!ep->id)
			ep->id = endpoint_next_id++;
		p->handles[h].ep = ep;
		p->handles[h].rights = rights;
		ep->refs++;
		if (rights & HANDLE_RECV)
			ep->recv_refs++;
		return h;
	}
	return ERR_NOSPC;
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
