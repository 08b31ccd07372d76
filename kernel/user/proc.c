/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proc.c — the process table, killing, and the end of a process
 * (docs/userland.md, "Processes").
 *
 * A process ends when its last thread leaves: by exit (SYS_EXIT ends every
 * thread, SYS_THREAD_EXIT ends one), a kill (SYS_KILL, the shell's `kill`)
 * or a fault (user_fault()). Killing only marks it and wakes its sleeping
 * threads; each thread leaves at its next return to user mode, which a
 * thread in user mode reaches at its CPU's next tick. The last one hands
 * the process to the reaper thread, which joins the kernel threads, closes
 * the handles (an endpoint that loses its last receiver wakes all its
 * waiters with ERR_DEAD), frees the address space and makes the process a
 * zombie: its parent's SYS_WAIT (or the shell) collects it, or it is freed
 * at once when nobody will. A process stays in its job all its life, an
 * orphan too; killing a job kills every process in it and in the jobs
 * below it, under the same lock a spawn is published under, so no member
 * can start a replacement once the kill is made.
 */
#include <user/uproc.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>
#include <user/user.h>

struct uchan proc_kernel_child_chan;
static struct proc *proc_list;          /* newest first */
static struct proc *reap_queue;         /* processes whose threads are all gone */
static struct uchan reaper_chan;

/* See uproc.h. */
struct proc *proc_find(int pid)
{
	for (struct proc *p = proc_list; p; p = p->next)
		if (p->pid == pid)
			return p;
	return NULL;
}

/* See uproc.h. */
struct proc *proc_child(struct proc *p, int pid, struct proc *after)
{
	for (struct proc *c = after ? after->next : proc_list; c; c = c->next)
		if (c->parent == p && (pid == -1 || c->pid == pid))
			return c;
	return NULL;
}

/* See uproc.h. Threads not yet started (no kernel thread recorded) see
 * the mark before they first enter user mode. */
void proc_kill_locked(struct proc *p, uint32_t how, int32_t status, uint64_t addr)
{
	if (p->state == PROC_ZOMBIE)
		return;
	if (!p->result.how)
		p->result = (struct wait_info){ .pid = p->pid, .how = how, .status = status,
						 .addr = addr };
	__atomic_store_n(&p->killed, 1, __ATOMIC_RELEASE);
	p->state = PROC_DYING;
	for (struct uthread *ut = p->threads; ut; ut = ut->next)
		if (ut->state == UT_LIVE && ut->td)
			thread_unblock(ut->td);
}

/* See uproc.h. */
void proc_kill_job_locked(struct ujob *j)
{
	j->killed = 1;
	for (struct proc *p = proc_list; p; p = p->next)
		if (ujob_within(p->job, j))
			proc_kill_locked(p, WAIT_KILLED, 0, 0);
}

/* See uproc.h. */
void proc_kill_tree_locked(struct proc *p)
{
	if (p->job->leader == p->pid)
		proc_kill_job_locked(p->job);
	else
		proc_kill_locked(p, WAIT_KILLED, 0, 0);
}

/* See uproc.h. */
void proc_thread_gone_locked(struct proc *p)
{
	if (--p->nlive > 0)
		return;
	if (!p->result.how)   /* the last thread left by SYS_THREAD_EXIT */
		p->result = (struct wait_info){ .pid = p->pid, .how = WAIT_EXITED };
	p->state = PROC_DYING;
	p->reap_next = reap_queue;
	reap_queue = p;
	uchan_wake_all(&reaper_chan);
}

/* See uproc.h. */
void proc_notify_end_locked(struct proc *p)
{
	uchan_wake_all(p->parent ? &p->parent->child_chan : &proc_kernel_child_chan);
	uchan_wake_all(&p->ready_chan);
}

/* See uproc.h. Waiters still queued on its channels are woken first (they
 * find the process gone when they look it up again). Its parent (if it
 * still has one) gets its child allowance back, its job the process. */
void proc_free_locked(struct proc *p)
{
	ulimit_uncharge(UL_PROCS, p->job, p->parent ? &p->parent->use[UL_PROCS] : NULL, 1);
	ujob_put(p->job);
	for (struct proc **pp = &proc_list; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	uchan_wake_all(&p->ready_chan);
	uchan_wake_all(&p->child_chan);
	kfree(p);
}

/* Adds p (pid given here) to the table; the caller has charged it
 * (UL_PROCS). user_lock held. */
void proc_insert_locked(struct proc *p)
{
	static int next_pid = 1;
	p->pid = next_pid++;
	p->start_ns = time_ns();
	p->next = proc_list;
	proc_list = p;
}

/* p's children lose their parent: they are freed when they end (a zombie
 * now). user_lock held. */
static void proc_orphan_children_locked(struct proc *p)
{
	struct proc *c = proc_list;
	while (c) {
		struct proc *next = c->next;
		if (c->parent == p) {
			ulimit_disown(UL_PROCS, &p->use[UL_PROCS], 1);
			c->parent = NULL;
			c->detached = 1;
			if (c->state == PROC_ZOMBIE)
				proc_free_locked(c);
		}
		c = next;
	}
}

/* The reaper's work on one process whose threads have all left: their
 * records, its handles, endpoints and names, its children's link to it,
 * its address space. */
static void proc_reap(struct proc *p)
{
	for (;;) {   /* no thread of p is left to change the list */
		uint64_t flags = spin_lock_irqsave(&user_lock);
		struct uthread *ut = p->threads;
		if (ut)
			uthread_unlink_locked(p, ut);
		spin_unlock_irqrestore(&user_lock, flags);
		if (!ut)
			break;
		thread_join(ut->td);
		ut->stack = NULL;     /* freed with the address space */
		uthread_free(ut);
	}
	uint64_t flags = spin_lock_irqsave(&user_lock);
	handle_close_all(p);
	endpoint_disown_all(p);
	svc_release(p);
	proc_orphan_children_locked(p);
	spin_unlock_irqrestore(&user_lock, flags);
	uvm_free(&p->vm);
	struct wait_info end = p->result;
	char name[PROC_NAME_MAX];
	memcpy(name, p->name, sizeof(name));
	flags = spin_lock_irqsave(&user_lock);
	p->state = PROC_ZOMBIE;
	proc_notify_end_locked(p);
	int report = p->detached && p->kernel_child;
	if (p->detached)
		proc_free_locked(p);
	spin_unlock_irqrestore(&user_lock, flags);
	if (report) {
		char how[96];
		user_describe_end(&end, how, sizeof(how));
		printk("user: pid %d (%s) %s\n", end.pid, name, how);
	}
}

/* The reaper thread: ends processes whose threads are all gone. */
static void proc_reaper(void *arg)
{
	(void)arg;
	for (;;) {
		struct uwait w;
		uint64_t flags = spin_lock_irqsave(&user_lock);
		while (!reap_queue)
			uwait_sleep(&reaper_chan, &w, UWAIT_FOREVER);
		struct proc *p = reap_queue;
		reap_queue = p->reap_next;
		spin_unlock_irqrestore(&user_lock, flags);
		proc_reap(p);
	}
}

/* See uproc.h. */
void proc_reaper_start(void)
{
	struct thread_attr attr = { .detached = 1 };
	if (!thread_create("ureaper", proc_reaper, NULL, &attr))
		printk("user: cannot start the reaper thread; ended processes stay\n");
}

/* See user.h. */
int user_kill(int pid)
{
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct proc *p = proc_find(pid);
	int rc = p && p->state != PROC_ZOMBIE ? 0 : ERR_SRCH;
	if (!rc)
		proc_kill_tree_locked(p);
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}

/* See user.h. */
uint32_t user_job_of(int pid)
{
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct proc *p = proc_find(pid);
	uint32_t id = p ? p->job->id : 0;
	spin_unlock_irqrestore(&user_lock, flags);
	return id;
}

/* See user.h. */
int user_job_procs(uint32_t id)
{
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct ujob *j = ujob_find(id);
	int n = j ? (int)__atomic_load_n(&j->use[UL_PROCS], __ATOMIC_RELAXED) : -1;
	spin_unlock_irqrestore(&user_lock, flags);
	return n;
}

/* See user.h. */
int user_kill_job(uint32_t id)
{
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct ujob *j = ujob_find(id);
	int rc = !j ? ERR_SRCH : j == &ujob_root ? ERR_PERM : 0;
	if (!rc)
		proc_kill_job_locked(j);
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}

/* See user.h. */
int user_wait_kernel(int pid, uint64_t timeout_ns, struct wait_info *out)
{
	uint64_t deadline = uwait_deadline(timeout_ns);
	int rc;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (;;) {
		struct proc *p = proc_find(pid);
		if (!p || p->parent || p->detached) {
			rc = ERR_CHILD;
			break;
		}
		if (p->state == PROC_ZOMBIE) {
			*out = p->result;
			proc_free_locked(p);
			rc = pid;
			break;
		}
		struct uwait w;
		if (uwait_sleep(&proc_kernel_child_chan, &w, deadline) == UW_TIMEOUT) {
			rc = ERR_TIMEOUT;
			break;
		}
	}
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}

/* See user.h. */
int user_reads_console(int pid)
{
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct proc *p = proc_find(pid);
	int r = p && p->reads_console;
	spin_unlock_irqrestore(&user_lock, flags);
	return r;
}

/* See user.h. The newest max processes when there are more. */
size_t user_proc_snapshot(struct proc_info *out, size_t max)
{
	size_t n = 0;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (struct proc *p = proc_list; p && n < max; p = p->next) {
		struct proc_info *pi = &out[n++];
		memset(pi, 0, sizeof(*pi));
		pi->pid = p->pid;
		pi->ppid = p->ppid;
		pi->job = p->job->id;
		memcpy(pi->name, p->name, sizeof(pi->name));
		pi->state = p->state;
		pi->pages = p->vm.pages;
		pi->start_ns = p->start_ns;
		for (struct uthread *ut = p->threads; ut; ut = ut->next) {
			if (ut->state != UT_LIVE)
				continue;
			if (pi->nthreads < 8)
				pi->tids[pi->nthreads] = ut->tid;
			pi->nthreads++;
		}
		for (int h = 0; h < HANDLES_MAX; h++)
			pi->handles += p->handles[h].ep != NULL;
	}
	spin_unlock_irqrestore(&user_lock, flags);
	for (size_t a = 0, b = n ? n - 1 : 0; a < b; a++, b--) {   /* oldest first */
		struct proc_info t = out[a];
		out[a] = out[b];
		out[b] = t;
	}
	return n;
}

_Static_assert(JOB_INFO_KINDS == UL_COUNT, "struct job_info holds every kind of ulimit.h");

/* See user.h. The newest max jobs when there are more. */
size_t user_job_snapshot(struct job_info *out, size_t max)
{
	size_t n = 0;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (struct ujob *j = ujob_next(NULL); j && n < max; j = ujob_next(j)) {
		struct job_info *ji = &out[n++];
		*ji = (struct job_info){ .id = j->id, .parent = j->parent->id, .leader = j->leader,
					 .killed = ujob_dead(j) };
		memcpy(ji->name, j->name, sizeof(ji->name));
		for (int k = 0; k < UL_COUNT; k++) {
			ji->use[k] = __atomic_load_n(&j->use[k], __ATOMIC_RELAXED);
			ji->quota[k] = j->quota[k];
		}
	}
	spin_unlock_irqrestore(&user_lock, flags);
	return n;
}

/* See user.h. */
void user_counts(uint64_t *procs, uint64_t *pages)
{
	*procs = *pages = 0;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (struct proc *p = proc_list; p; p = p->next) {
		(*procs)++;
		*pages += p->vm.pages;
	}
	spin_unlock_irqrestore(&user_lock, flags);
}
