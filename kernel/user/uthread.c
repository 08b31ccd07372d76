/* SPDX-License-Identifier: BSD-2-Clause */
/* uthread.c — the threads of processes: each is a kernel thread (scheduled
 * by ULE like any other) whose record links it to its process, entering
 * user mode at its start and leaving through uthread_exit() (see uproc.h). */
#include <user/uproc.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/cpu/cpu.h>
#include <user/user.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/cpu/user_cpu.h>

/* See uproc.h. */
struct uthread *uthread_self(void)
{
	struct thread *td = thread_current();
	return td ? td->uth : NULL;
}

/* See uproc.h. */
struct proc *proc_self(void)
{
	struct uthread *ut = uthread_self();
	return ut ? ut->proc : NULL;
}

/* CR3 of a thread of a process. */
static uint64_t user_thread_cr3(const struct thread *td)
{
	return td->uth->proc->vm.pml4;
}

/* The FXSAVE area of a thread of a process: its x87/SSE registers while
 * it does not run. */
static void *user_thread_fpu(struct thread *td)
{
	return td->uth->fpu;
}

/* See user.h. The CPU's user-mode state follows the thread: FPU registers
 * saved and restored, the address space, the kernel stack for entries
 * from ring 3 (user_cpu.c). */
void user_thread_switch(unsigned cpu, struct thread *cur, struct thread *next, uint64_t now)
{
	(void)cpu;
	(void)now;
	user_cpu_switch(cur->uth ? user_thread_fpu(cur) : NULL, next->uth ? user_thread_fpu(next) : NULL,
			next->uth ? user_thread_cr3(next) : 0, (uint64_t)next->stack_top);
}

/* See user.h. The record outlives the kernel thread's place on the thread
 * list (the reaper and joiners free it after thread_join()). */
void user_thread_info(const struct thread *td, struct thread_info *out)
{
	out->pid = td->uth ? td->uth->proc->pid : 0;
}

/* See uproc.h. */
struct uthread *uthread_new(struct ustack *stack, uint64_t entry, uint64_t sp, uint64_t a0,
			    uint64_t a1, uint64_t a2)
{
	struct uthread *ut = kzalloc(sizeof(*ut));
	if (!ut)
		return NULL;
	/* The registers' state after FNINIT and at reset of MXCSR: every x87
	 * and SSE exception masked, round to nearest. */
	uint16_t fcw = 0x037F;
	uint32_t mxcsr = 0x1F80;
	memcpy(&ut->fpu[UTHREAD_FPU_FCW], &fcw, sizeof(fcw));
	memcpy(&ut->fpu[UTHREAD_FPU_MXCSR], &mxcsr, sizeof(mxcsr));
	ut->stack = stack;
	ut->entry = entry;
	ut->sp = sp;
	ut->arg0 = a0;
	ut->arg1 = a1;
	ut->arg2 = a2;
	return ut;
}

/* See uproc.h. */
struct uthread *uthread_find(struct proc *p, uint32_t tid)
{
	for (struct uthread *ut = p->threads; ut; ut = ut->next)
		if (ut->tid == tid && tid)
			return ut;
	return NULL;
}

/* See uproc.h. */
void uthread_unlink_locked(struct proc *p, struct uthread *ut)
{
	for (struct uthread **pp = &p->threads; *pp; pp = &(*pp)->next) {
		if (*pp == ut) {
			*pp = ut->next;
			ulimit_uncharge(UL_THREADS, p->job, &p->use[UL_THREADS], 1);
			return;
		}
	}
}

/* See uproc.h. */
void uthread_free(struct uthread *ut)
{
	if (ut->stack)
		uvm_stack_put(&ut->proc->vm, ut->stack);
	kfree(ut);
}

/* Body of every user thread: enters user mode (unless its process is
 * already being killed). */
static void uthread_main(void *arg)
{
	struct uthread *ut = arg;
	user_return_check();
	struct trap_frame tf = { .rip = ut->entry, .cs = USER_CS, .rflags = USER_RFLAGS,
				 .rsp = ut->sp, .ss = USER_SS, .rdi = ut->arg0, .rsi = ut->arg1,
				 .rdx = ut->arg2 };
	cpu_cli();
	arch_user_return(&tf);
}

/* See uproc.h. A new thread inherits its creator's nice value and CPU
 * mask when the creator is a thread of the same process (FreeBSD's
 * threads inherit the process's cpuset); ULE's fork inheritance of the
 * interactivity history comes with thread_prepare(). */
struct thread *uthread_prepare(struct proc *p, struct uthread *ut, int first)
{
	struct uthread *self = uthread_self();
	struct thread_attr attr = { .uth = ut };
	if (self && self->proc == p) {
		attr.nice = self->td->ts.ts_nice;
		attr.affinity = &self->td->ts.ts_mask;
	}
	ut->proc = p;
	ut->index = first ? 0 : __atomic_fetch_add(&p->next_index, 1, __ATOMIC_RELAXED);
	char name[THREAD_NAME_MAX];
	if (ut->index == 0)
		ksnprintf(name, sizeof(name), "%s", p->name);
	else
		ksnprintf(name, sizeof(name), "%s/%u", p->name, ut->index);
	return thread_prepare(name, uthread_main, ut, &attr);
}

/* See uproc.h. */
int uthread_link_locked(struct proc *p, struct uthread *ut, struct thread *td, int first)
{
	if (!first && p->killed)
		return ERR_SRCH;
	int rc = ulimit_charge(UL_THREADS, p->job, &p->use[UL_THREADS], 1);
	if (rc)
		return rc;
	if (first)
		p->next_index = 1;
	ut->td = td;
	ut->tid = td->id;
	ut->next = p->threads;
	p->threads = ut;
	p->nlive++;
	return 0;
}

/* See uproc.h. The thread is made before the limits are checked, so a
 * refusal costs one allocation and leaves nothing behind. */
int uthread_start(struct proc *p, struct uthread *ut, uint32_t *tid)
{
	struct thread *td = uthread_prepare(p, ut, 0);
	int rc = td ? 0 : ERR_NOMEM;
	if (td) {
		uint64_t flags = spin_lock_irqsave(&user_lock);
		rc = uthread_link_locked(p, ut, td, 0);
		spin_unlock_irqrestore(&user_lock, flags);
	}
	if (rc) {
		if (td)
			thread_discard(td);
		uthread_free(ut);
		return rc;
	}
	*tid = ut->tid;   /* before launch: ut may be freed once it runs and is joined */
	thread_launch(td);
	return 0;
}

/* See uproc.h. A joiner and the caller waiting for this thread's reply
 * are woken; the last thread of the process hands it to the reaper. The
 * record stays until a joiner or the reaper frees it. */
void uthread_exit(uint64_t value)
{
	struct uthread *ut = uthread_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	ut->state = UT_EXITED;
	ut->exit_value = value;
	uchan_wake_all(&ut->join_chan);
	ipc_thread_gone(ut);
	proc_thread_gone_locked(ut->proc);
	spin_unlock_irqrestore(&user_lock, flags);
	thread_exit();
}

/* See user.h. */
void user_return_check(void)
{
	struct uthread *ut = uthread_self();
	if (ut && __atomic_load_n(&ut->proc->killed, __ATOMIC_ACQUIRE))
		uthread_exit(0);
}
