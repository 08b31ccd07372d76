/* svc.c — service names: a process publishes an endpoint it receives on
 * under a name, and any process may look the name up and get a handle
 * with the send right only (docs/userland.md, "Handles and names"). A name
 * lives as long as its endpoint. user_lock guards the table. */
#include "uproc.h"
#include "ucheck.h"
#include <string.h>

#define SVC_MAX 32

struct svc_entry {
	char name[SVC_NAME_MAX];
	struct endpoint *ep;             /* NULL: free */
};

static struct svc_entry svc_table[SVC_MAX];

/* The entry called name, or NULL. user_lock held. */
static struct svc_entry *svc_find(const char *name)
{
	for (int i = 0; i < SVC_MAX; i++)
		if (svc_table[i].ep && strcmp(svc_table[i].name, name) == 0)
			return &svc_table[i];
	return NULL;
}

/* See uproc.h. user_lock held. */
void svc_forget(struct endpoint *ep)
{
	for (int i = 0; i < SVC_MAX; i++) {
		if (svc_table[i].ep != ep)
			continue;
		svc_table[i].ep = NULL;
		endpoint_put(ep);
	}
}

/* Copies the user's name into buf and checks it: 0 or ERR_*. */
static int svc_name_in(uint64_t uname, char buf[SVC_NAME_MAX])
{
	int64_t n = copy_str_from_user(buf, uname, SVC_NAME_MAX);
	if (n < 0)
		return (int)n;
	return ucheck_svc_name(buf);
}

/* SYS_SVC_PUBLISH(handle, name): h needs the receive right. */
int64_t sys_svc_publish(struct trap_frame *tf)
{
	char name[SVC_NAME_MAX];
	int rc = svc_name_in(tf->rsi, name);
	if (rc)
		return rc;
	struct proc *p = proc_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct endpoint *ep = handle_get(p, (int64_t)tf->rdi, HANDLE_RECV);
	struct svc_entry *free_slot = NULL;
	if (!ep)
		rc = ERR_BADH;
	else if (ep->dead)
		rc = ERR_DEAD;
	else if (svc_find(name))
		rc = ERR_EXIST;
	for (int i = 0; !rc && i < SVC_MAX && !free_slot; i++)
		if (!svc_table[i].ep)
			free_slot = &svc_table[i];
	if (!rc && !free_slot)
		rc = ERR_NOSPC;
	if (!rc) {
		memcpy(free_slot->name, name, SVC_NAME_MAX);
		free_slot->ep = ep;
		ep->refs++;
	}
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}

/* SYS_SVC_LOOKUP(name): a new send-only handle to the named endpoint. */
int64_t sys_svc_lookup(struct trap_frame *tf)
{
	char name[SVC_NAME_MAX];
	int rc = svc_name_in(tf->rdi, name);
	if (rc)
		return rc;
	struct proc *p = proc_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct svc_entry *e = svc_find(name);
	rc = e ? handle_install(p, e->ep, HANDLE_SEND) : ERR_NOENT;
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}
