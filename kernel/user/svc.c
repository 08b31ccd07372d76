/* SPDX-License-Identifier: BSD-2-Clause */
/* svc.c — service names: a process publishes an endpoint it receives on
 * under a name, and any process may look the name up and get a handle
 * with the send right only (docs/userland.md, "Handles and names").
 *
 * A name has one owner, the process that published it, and stays its
 * owner's until that process ends: nobody else can take it meanwhile, even
 * while the endpoint behind it is dead (a lookup then fails with ERR_DEAD)
 * — the owner may bind it to a new endpoint by publishing it again. Names
 * are charged to their owner and its job (UL_NAMES). user_lock guards the
 * table. */
#include <user/uproc.h>
#include <user/ucheck.h>
#include <lib/string.h>

struct svc_entry {
	char name[SVC_NAME_MAX];
	struct endpoint *ep;             /* NULL: free; holds a reference */
	struct proc *owner;
};

static struct svc_entry svc_table[SVC_TOTAL_MAX];

/* The entry called name, or NULL. user_lock held. */
static struct svc_entry *svc_find(const char *name)
{
	for (int i = 0; i < SVC_TOTAL_MAX; i++)
		if (svc_table[i].ep && strcmp(svc_table[i].name, name) == 0)
			return &svc_table[i];
	return NULL;
}

/* Frees entry e and uncharges its owner. user_lock held. */
static void svc_drop(struct svc_entry *e)
{
	ulimit_uncharge(UL_NAMES, e->owner->job, &e->owner->use[UL_NAMES], 1);
	endpoint_put(e->ep);
	e->ep = NULL;
	e->owner = NULL;
}

/* See uproc.h. user_lock held. */
void svc_release(struct proc *p)
{
	for (int i = 0; i < SVC_TOTAL_MAX; i++)
		if (svc_table[i].ep && svc_table[i].owner == p)
			svc_drop(&svc_table[i]);
}

/* Copies the user's name into buf and checks it: 0 or ERR_*. */
static int svc_name_in(uint64_t uname, char buf[SVC_NAME_MAX])
{
	int64_t n = copy_str_from_user(buf, uname, SVC_NAME_MAX);
	if (n < 0)
		return (int)n;
	return ucheck_svc_name(buf);
}

/* Binds the owner's existing entry e, or a new entry for name, to ep:
 * 0, or ERR_LIMIT / ERR_QUOTA / ERR_NOSPC (the owner's limit, its job's
 * quota, the total or the table). user_lock held. */
static int svc_bind(struct svc_entry *e, const char *name, struct endpoint *ep, struct proc *p)
{
	if (e) {
		endpoint_put(e->ep);
	} else {
		for (int i = 0; i < SVC_TOTAL_MAX && !e; i++)
			if (!svc_table[i].ep)
				e = &svc_table[i];
		int rc = ulimit_charge(UL_NAMES, p->job, &p->use[UL_NAMES], 1);
		if (rc)
			return rc;
		if (!e) {   /* the total allows more than the table holds */
			ulimit_uncharge(UL_NAMES, p->job, &p->use[UL_NAMES], 1);
			return ERR_NOSPC;
		}
		memcpy(e->name, name, SVC_NAME_MAX);
		e->owner = p;
	}
	e->ep = ep;
	ep->refs++;
	return 0;
}

/* SYS_SVC_PUBLISH(handle, name): h needs the receive right; the name must
 * be free or already the caller's (then it is bound to this endpoint). */
int64_t sys_svc_publish(struct trap_frame *tf)
{
	char name[SVC_NAME_MAX];
	int rc = svc_name_in(tf->rsi, name);
	if (rc)
		return rc;
	struct proc *p = proc_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct endpoint *ep = handle_get(p, (int64_t)tf->rdi, HANDLE_RECV);
	struct svc_entry *e = svc_find(name);
	if (!ep)
		rc = ERR_BADH;
	else if (ep->dead)
		rc = ERR_DEAD;
	else if (e && e->owner != p)
		rc = ERR_EXIST;
	else
		rc = svc_bind(e, name, ep, p);
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}

/* SYS_SVC_LOOKUP(name): a new send-only handle to the named endpoint;
 * ERR_NOENT, or ERR_DEAD while its owner has no live endpoint behind it. */
int64_t sys_svc_lookup(struct trap_frame *tf)
{
	char name[SVC_NAME_MAX];
	int rc = svc_name_in(tf->rdi, name);
	if (rc)
		return rc;
	struct proc *p = proc_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct svc_entry *e = svc_find(name);
	rc = !e ? ERR_NOENT : e->ep->dead ? ERR_DEAD : handle_install(p, e->ep, HANDLE_SEND);
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}
