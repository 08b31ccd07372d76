/* SPDX-License-Identifier: BSD-2-Clause */
/* proc_spawn.c — starting a program: a new process with its own address
 * space, the program's segments, a first stack holding its arguments and
 * one thread, in its parent's job or a job of its own (docs/userland.md,
 * "Processes" and "Jobs"). */
#include <user/uproc.h>
#include <boot/elf_check.h>
#include <user/archive.h>
#include <user/uargs.h>
#include <user/ulayout.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>

/* Copies the handles pass[0..n) of parent (rights limited to prights[i]
 * and the parent's) into the new p's slots 0..n-1: 0, ERR_BADH, or a
 * handle limit's error (the handles installed so far stay: the caller
 * closes them). user_lock held. */
static int proc_pass_handles(struct proc *p, struct proc *parent, const int32_t *pass,
			     const uint32_t *prights, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct endpoint *ep = parent ? handle_get(parent, pass[i], 0) : NULL;
		uint32_t rights = ep ? parent->handles[pass[i]].rights & prights[i] : 0;
		if (!ep || !rights)
			return ERR_BADH;
		int h = handle_install(p, ep, rights);   /* slot i: the table was empty */
		if (h < 0)
			return h;
	}
	return 0;
}

/* Builds p's image: the program and the first stack with args; the entry
 * point and initial RSP and argv. 0 or ERR_*. */
static int proc_image(struct proc *p, const struct archive_file *f, const struct uargs *args,
		      struct ustack **stack, uint64_t *entry, uint64_t *rsp, uint64_t *argv)
{
	static PRINTK_RATE(refused_programs, "user: refused programs");
	char why[ELF_ERR_MAX];
	int rc = uelf_load(&p->vm, f->data, f->size, entry, why, sizeof(why));
	if (rc == ERR_NOEXEC)
		printk_rated(&refused_programs, "user: program %s: %s\n", f->name, why);
	if (rc || (rc = uvm_stack_get(&p->vm, MAIN_STACK_SIZE, stack)))
		return rc;
	uint64_t need = uargs_stack_bytes(args);
	uint8_t *img = kmalloc(need);
	if (!img)
		return ERR_NOMEM;
	rc = uargs_layout(args, (*stack)->top, img, need, rsp, argv);
	if (!rc)
		rc = uvm_write(&p->vm, *rsp, img, need);
	kfree(img);
	return rc;
}

/* Makes p visible: its handles, its place among parent's children and
 * in its job (new_job: p's own, linked now), its first thread ut (run by
 * td), its pid. Either all of it or nothing: 0, ERR_DEAD (its job, or one
 * above it, was killed: a killed job never gains a process), or another
 * error with p as it was. user_lock held. */
static int proc_publish_locked(struct proc *p, struct proc *parent, const int32_t *pass,
			       const uint32_t *prights, uint32_t n, struct uthread *ut,
			       struct thread *td, int new_job)
{
	uint32_t *siblings = parent ? &parent->use[UL_PROCS] : NULL;
	int rc = ujob_dead(p->job) ? ERR_DEAD : proc_pass_handles(p, parent, pass, prights, n);
	if (!rc)
		rc = ulimit_charge(UL_PROCS, p->job, siblings, 1);
	if (!rc && (rc = uthread_link_locked(p, ut, td, 1)))
		ulimit_uncharge(UL_PROCS, p->job, siblings, 1);
	if (rc) {
		handle_close_all(p);
		return rc;
	}
	p->parent = parent;
	p->ppid = parent ? parent->pid : 0;
	p->kernel_child = parent == NULL;
	proc_insert_locked(p);
	if (new_job)
		ujob_link_locked(p->job, p->pid);
	else
		ujob_get(p->job);
	return 0;
}

/* The job p will run in: its parent's, or a new one below it (below the
 * root for the kernel's children) when kflags ask or the kernel starts
 * it; *new_job says which. 0, or ERR_NOMEM. No lock: the parent, running
 * this, keeps its job alive. */
static int proc_pick_job(struct proc *p, struct proc *parent, unsigned kflags, int *new_job)
{
	struct ujob *above = parent ? parent->job : &ujob_root;
	*new_job = !parent || (kflags & (PROC_NEW_JOB | PROC_OPERATOR));
	if (!*new_job) {
		p->job = above;
		return 0;
	}
	if (!(p->job = ujob_alloc()))
		return ERR_NOMEM;
	ujob_init(p->job, above, p->name, (kflags & PROC_OPERATOR) != 0);
	return 0;
}

/* See uproc.h. Everything that can fail is done before the process is
 * published under user_lock, so nobody (a parent's SYS_WAIT, `ps`, a
 * kill) ever sees a process that does not start. */
int proc_spawn(struct proc *parent, const char *prog, const struct uargs *args,
	       const int32_t *pass, const uint32_t *prights, uint32_t n, unsigned kflags)
{
	const struct archive_file *f = user_archive_find(prog);
	if (!f)
		return ERR_NOENT;
	struct proc *p = kzalloc(sizeof(*p));
	if (!p)
		return ERR_NOMEM;
	memcpy(p->name, f->name, sizeof(p->name) < sizeof(f->name) ? sizeof(p->name) : sizeof(f->name));
	p->name[PROC_NAME_MAX - 1] = 0;
	int new_job;
	int rc = proc_pick_job(p, parent, kflags, &new_job);
	if (!rc && (rc = uvm_init(&p->vm, p->job)) && new_job)
		kfree(p->job);
	if (rc) {
		kfree(p);
		return rc;
	}
	p->foreground = (kflags & PROC_FOREGROUND) != 0;
	p->detached = (kflags & PROC_DETACHED) != 0;
	p->caps = ((kflags & PROC_GIVE_NICE) ? PROC_CAP_NICE : 0) |
		  ((kflags & PROC_OPERATOR) ? PROC_CAP_OPERATOR : 0);
	struct ustack *stack = NULL;
	uint64_t entry, rsp, argv;
	rc = proc_image(p, f, args, &stack, &entry, &rsp, &argv);
	struct uthread *ut = rc ? NULL : uthread_new(stack, entry, rsp, args->argc, argv, n);
	struct thread *td = ut ? uthread_prepare(p, ut, 1) : NULL;
	if (!rc && !td)
		rc = ERR_NOMEM;
	int pid = 0;
	if (!rc) {
		uint64_t flags = spin_lock_irqsave(&user_lock);
		rc = proc_publish_locked(p, parent, pass, prights, n, ut, td, new_job);
		pid = p->pid;
		spin_unlock_irqrestore(&user_lock, flags);
	}
	if (rc) {
		if (td)
			thread_discard(td);
		kfree(ut);
		uvm_free(&p->vm);
		if (new_job)
			kfree(p->job);   /* nothing is charged to it any more; nobody saw it */
		kfree(p);
		return rc;
	}
	thread_launch(td);
	return pid;   /* p itself may be gone already (detached, ended) */
}
