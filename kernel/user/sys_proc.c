/* SPDX-License-Identifier: BSD-2-Clause */
/* sys_proc.c — the process system calls: exit, spawn, wait, kill, getpid,
 * ready (include/mosaic/syscall.h; docs/userland.md). */
#include <user/uproc.h>
#include <user/ucheck.h>
#include <user/uargs.h>
#include <mm/mm.h>

/* SYS_EXIT(status 0..255): every thread of the process leaves. */
int64_t sys_exit(struct trap_frame *tf)
{
	int64_t status = (int64_t)tf->rdi;
	if (status < 0 || status > 255)
		return ERR_INVAL;
	struct proc *p = proc_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	proc_kill_locked(p, WAIT_EXITED, (int32_t)status, 0);
	spin_unlock_irqrestore(&user_lock, flags);
	uthread_exit(0);
}

/* Reader of uargs_collect() over the calling process's memory. */
static int sys_read_user(void *ctx, void *dst, uint64_t src, uint64_t n)
{
	(void)ctx;
	return copy_from_user(dst, src, n);
}

static int64_t sys_read_user_str(void *ctx, char *dst, uint64_t src, uint64_t max)
{
	(void)ctx;
	return copy_str_from_user(dst, src, max);
}

/* Waits until the child pid is ready or over, or the deadline. */
static void sys_wait_ready(int pid, uint64_t deadline)
{
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (;;) {
		struct proc *c = proc_find(pid);
		struct uwait w;
		if (!c || c->ready || c->state != PROC_LIVE)
			break;
		int r = uwait_sleep(&c->ready_chan, &w, deadline);
		if (r == UW_TIMEOUT || r == UW_KILLED)
			break;
	}
	spin_unlock_irqrestore(&user_lock, flags);
}

/* SYS_SPAWN(const struct spawn_req *): the child's pid. SPAWN_CAP_NICE
 * passes the nice capability on, if the caller holds it (ERR_PERM);
 * SPAWN_NEW_JOB starts the child in a job of its own below the caller's. */
int64_t sys_spawn(struct trap_frame *tf)
{
	struct spawn_req req;
	char prog[PROC_NAME_MAX];
	int32_t pass[SPAWN_HANDLES_MAX];
	uint32_t rights[SPAWN_HANDLES_MAX];
	if (copy_from_user(&req, tf->rdi, sizeof(req)))
		return ERR_FAULT;
	int rc = ucheck_spawn_req(&req);
	if (rc)
		return rc;
	struct proc *self = proc_self();
	if ((req.flags & SPAWN_CAP_NICE) && !(self->caps & PROC_CAP_NICE))
		return ERR_PERM;   /* only a holder may pass the capability on */
	int64_t n = copy_str_from_user(prog, (uint64_t)req.path, sizeof(prog));
	if (n < 0)
		return n;
	if ((rc = ucheck_program_name(prog)))
		return rc;
	if (req.nhandles && (copy_from_user(pass, (uint64_t)req.handles, 4ull * req.nhandles) ||
			     copy_from_user(rights, (uint64_t)req.rights, 4ull * req.nhandles)))
		return ERR_FAULT;
	struct uargs *args = kmalloc(sizeof(*args));
	if (!args)
		return ERR_NOMEM;
	struct uargs_reader rd = { NULL, sys_read_user, sys_read_user_str };
	rc = uargs_collect(args, (uint64_t)req.argv, req.argc, &rd);
	unsigned kflags = ((req.flags & SPAWN_CAP_NICE) ? PROC_GIVE_NICE : 0) |
			  ((req.flags & SPAWN_NEW_JOB) ? PROC_NEW_JOB : 0);
	int pid = rc ? rc : proc_spawn(self, prog, args, pass, rights, req.nhandles, kflags);
	kfree(args);
	if (pid > 0 && (req.flags & SPAWN_WAIT_READY))
		sys_wait_ready(pid, uwait_deadline(req.ready_timeout_ns));
	return pid;
}

/* SYS_WAIT(pid or -1, struct wait_info *, timeout): collects a child that
 * ended; ERR_CHILD when no child matches, ERR_TIMEOUT when none ended in
 * time. */
int64_t sys_wait(struct trap_frame *tf)
{
	int64_t pid = (int64_t)tf->rdi;
	uint64_t uinfo = tf->rsi, timeout = tf->rdx;
	int rc = ucheck_timeout(timeout);
	if (!rc && uinfo)
		rc = ucheck_range(uinfo, sizeof(struct wait_info));
	if (!rc && (pid < -1 || pid == 0 || pid > INT32_MAX))
		rc = ERR_INVAL;
	if (rc)
		return rc;
	struct proc *self = proc_self();
	uint64_t deadline = uwait_deadline(timeout);
	struct wait_info wi;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (;;) {
		struct proc *found = NULL, *zombie = NULL;
		for (struct proc *c = proc_child(self, (int)pid, NULL); c; c = proc_child(self, (int)pid, c)) {
			found = c;
			if (c->state == PROC_ZOMBIE) {
				zombie = c;
				break;
			}
		}
		if (zombie) {
			wi = zombie->result;
			rc = zombie->pid;
			proc_free_locked(zombie);
			break;
		}
		struct uwait w;
		int r = found ? uwait_sleep(&self->child_chan, &w, deadline) : UW_AGAIN;
		if (!found) {
			rc = ERR_CHILD;
			break;
		}
		if (r == UW_TIMEOUT || r == UW_KILLED) {
			rc = ERR_TIMEOUT;
			break;
		}
	}
	spin_unlock_irqrestore(&user_lock, flags);
	if (rc > 0 && uinfo && copy_to_user(uinfo, &wi, sizeof(wi)))
		return ERR_FAULT;   /* the child is collected all the same */
	return rc;
}

/* SYS_KILL(pid): a child of the caller; when the child leads a job (it
 * was spawned with SPAWN_NEW_JOB), the whole job. */
int64_t sys_kill(struct trap_frame *tf)
{
	int64_t pid = (int64_t)tf->rdi;
	if (pid <= 0 || pid > INT32_MAX)
		return ERR_INVAL;
	struct proc *self = proc_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct proc *c = proc_find((int)pid);
	int rc = !c || c->state == PROC_ZOMBIE ? ERR_SRCH : c->parent != self ? ERR_PERM : 0;
	if (!rc)
		proc_kill_tree_locked(c);
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}

/* SYS_GETPID. */
int64_t sys_getpid(struct trap_frame *tf)
{
	(void)tf;
	return proc_self()->pid;
}

/* SYS_READY: a spawner waiting with SPAWN_WAIT_READY goes on. */
int64_t sys_ready(struct trap_frame *tf)
{
	(void)tf;
	struct proc *p = proc_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	p->ready = 1;
	uchan_wake_all(&p->ready_chan);
	spin_unlock_irqrestore(&user_lock, flags);
	return 0;
}
