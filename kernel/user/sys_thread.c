/* SPDX-License-Identifier: BSD-2-Clause */
/* sys_thread.c — the thread system calls: create, exit, join, gettid,
 * sleep, yield, CPU affinity, nice, statistics. A tid argument of 0 means
 * the calling thread; any other must be a thread of the caller's process.
 * (include/mosaic/syscall.h; docs/userland.md) */
#include <user/uproc.h>
#include <user/ucheck.h>
#include <user/ulayout.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>

/* SYS_THREAD_CREATE(entry, arg, stack bytes or 0): the new thread's tid;
 * it starts at entry with RDI = arg on a fresh stack (guard page below). */
int64_t sys_thread_create(struct trap_frame *tf)
{
	uint64_t entry = tf->rdi, arg = tf->rsi, size = tf->rdx;
	if (ucheck_range(entry, 1))
		return ERR_FAULT;
	if (size == 0)
		size = STACK_DEFAULT;
	if (size < USER_PAGE || size > STACK_MAX)
		return ERR_INVAL;
	size = (size + USER_PAGE - 1) & ~(USER_PAGE - 1);
	struct proc *p = proc_self();
	struct ustack *s;
	int rc = uvm_stack_get(&p->vm, size, &s);
	if (rc)
		return rc;
	struct uthread *ut = uthread_new(s, entry, s->top, arg, 0, 0);
	if (!ut) {
		uvm_stack_put(&p->vm, s);
		return ERR_NOMEM;
	}
	uint32_t tid;
	rc = uthread_start(p, ut, &tid);
	return rc ? (int64_t)rc : (int64_t)tid;
}

/* SYS_THREAD_EXIT(value): the last thread's exit ends the process (status 0). */
int64_t sys_thread_exit(struct trap_frame *tf)
{
	uthread_exit(tf->rdi);
}

/* SYS_THREAD_JOIN(tid, uint64_t *value or 0, timeout): waits for the thread
 * to end and frees it; one joiner per thread (ERR_BUSY). */
int64_t sys_thread_join(struct trap_frame *tf)
{
	uint64_t tid = tf->rdi, uvalue = tf->rsi, timeout = tf->rdx;
	int rc = ucheck_timeout(timeout);
	if (!rc && uvalue)
		rc = ucheck_range(uvalue, 8);
	if (rc)
		return rc;
	struct uthread *self = uthread_self();
	uint64_t deadline = uwait_deadline(timeout);
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct uthread *ut = tid > UINT32_MAX ? NULL : uthread_find(self->proc, (uint32_t)tid);
	if (!ut || ut == self)
		rc = ERR_SRCH;
	else if (ut->joining)
		rc = ERR_BUSY;
	else
		ut->joining = 1;
	while (!rc && ut->state != UT_EXITED) {
		struct uwait w;
		int r = uwait_sleep(&ut->join_chan, &w, deadline);
		if (r == UW_TIMEOUT || r == UW_KILLED) {
			ut->joining = 0;
			rc = ERR_TIMEOUT;
		}
	}
	if (!rc)
		uthread_unlink_locked(self->proc, ut);
	spin_unlock_irqrestore(&user_lock, flags);
	if (rc)
		return rc;
	uint64_t value = ut->exit_value;
	thread_join(ut->td);   /* waits until its CPU has switched away, frees it */
	uthread_free(ut);
	if (uvalue && copy_to_user(uvalue, &value, 8))
		return ERR_FAULT;   /* joined all the same */
	return 0;
}

/* SYS_GETTID. */
int64_t sys_gettid(struct trap_frame *tf)
{
	(void)tf;
	return thread_current()->id;
}

/* SYS_SLEEP(ns <= SLEEP_MAX_NS): at least ns of guest time (tick
 * resolution); 0 just yields. A kill ends it early. */
int64_t sys_sleep(struct trap_frame *tf)
{
	uint64_t ns = tf->rdi;
	if (ns > SLEEP_MAX_NS)
		return ERR_INVAL;
	if (ns == 0) {
		thread_yield();
		return 0;
	}
	uint64_t deadline = time_ns() + ns;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (;;) {
		struct uwait w;
		int r = uwait_sleep(NULL, &w, deadline);
		if (r == UW_TIMEOUT || r == UW_KILLED)
			break;
	}
	spin_unlock_irqrestore(&user_lock, flags);
	return 0;
}

/* SYS_YIELD. */
int64_t sys_yield(struct trap_frame *tf)
{
	(void)tf;
	thread_yield();
	return 0;
}

/* Runs fn(td, arg) on the kernel thread of tid (0: the caller) in the
 * caller's process, under user_lock: a thread on its process's list is
 * never freed meanwhile (joiners take it off under the lock first).
 * ERR_SRCH when there is no such thread. */
static int sys_on_thread(uint64_t tid, int (*fn)(struct thread *, void *), void *arg)
{
	struct uthread *self = uthread_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct uthread *ut = tid == 0 ? self : tid > UINT32_MAX ? NULL
							 : uthread_find(self->proc, (uint32_t)tid);
	int rc = ut && ut->td && ut->state == UT_LIVE ? fn(ut->td, arg) : ERR_SRCH;
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}

static int sys_affinity_fn(struct thread *td, void *arg)
{
	thread_set_affinity(td, arg);
	return 0;
}

/* SYS_SET_AFFINITY(tid, const uint64_t *mask, bytes 8..32): the CPUs it may
 * run on; at least one online, none beyond the machine's. */
int64_t sys_set_affinity(struct trap_frame *tf)
{
	uint64_t mask[4] = { 0 };
	uint64_t bytes = tf->rdx;
	if (bytes == 0 || bytes % 8 || bytes > sizeof(mask))
		return ERR_INVAL;
	if (copy_from_user(mask, tf->rsi, bytes))
		return ERR_FAULT;
	int rc = ucheck_cpumask(mask, bytes, smp_cpu_count());
	if (rc)
		return rc;
	struct cpuset set;
	cpuset_zero(&set);
	int online = 0;
	for (unsigned c = 0; c < smp_cpu_count(); c++) {
		if ((mask[c / 64] >> (c % 64)) & 1) {
			cpuset_set(&set, c);
			online |= smp_cpu_online(c);
		}
	}
	if (!online)
		return ERR_INVAL;
	return sys_on_thread(tf->rdi, sys_affinity_fn, &set);
}

static int sys_get_mask_fn(struct thread *td, void *arg)
{
	memcpy(arg, td->ts.ts_mask.bits, 32);
	return 0;
}

/* SYS_GET_AFFINITY(tid, uint64_t *mask, bytes 8..32). */
int64_t sys_get_affinity(struct trap_frame *tf)
{
	uint64_t bytes = tf->rdx, mask[4];
	if (bytes == 0 || bytes % 8 || bytes > sizeof(mask))
		return ERR_INVAL;
	int rc = sys_on_thread(tf->rdi, sys_get_mask_fn, mask);
	return rc ? rc : copy_to_user(tf->rsi, mask, bytes);
}

/* Sets td's nice value: lowering it (a higher priority) needs the
 * process's nice capability. user_lock held. */
static int sys_nice_fn(struct thread *td, void *arg)
{
	int nice = *(int *)arg;
	if (nice < td->ts.ts_nice && !(td->uth->proc->caps & PROC_CAP_NICE))
		return ERR_PERM;
	thread_set_nice(td, nice);
	return 0;
}

/* SYS_SET_NICE(tid, nice -20..20): raising the value (a lower priority)
 * is always allowed; lowering it, below 0 too, only with the nice
 * capability (init holds it and may pass it on: SPAWN_CAP_NICE). */
int64_t sys_set_nice(struct trap_frame *tf)
{
	int64_t nice = (int64_t)tf->rsi;
	if (nice < PRIO_MIN || nice > PRIO_MAX)
		return ERR_INVAL;
	int n = (int)nice;
	return sys_on_thread(tf->rdi, sys_nice_fn, &n);
}

static int sys_info_fn(struct thread *td, void *arg)
{
	thread_info_of(td, arg);
	return 0;
}

/* SYS_THREAD_STATS(tid, struct thread_stats *): the scheduler's view. */
int64_t sys_thread_stats(struct trap_frame *tf)
{
	struct thread_info ti;
	if (ucheck_range(tf->rsi, sizeof(struct thread_stats)))
		return ERR_FAULT;
	int rc = sys_on_thread(tf->rdi, sys_info_fn, &ti);
	if (rc)
		return rc;
	struct thread_stats st = {
		.tid = ti.id, .cpu = ti.running ? ti.cpu : -1, .last_cpu = ti.lastcpu, .pri = ti.pri,
		.nice = ti.nice, .score = (uint32_t)ti.score, .pctcpu = (uint32_t)ti.pctcpu,
		.has_work = (uint32_t)ti.has_work, .run_ns = ti.run_ns,
		.work_ns = ti.has_work ? ti.work / WC_WORK_PER_NS : 0, .migrations = ti.migrations,
		.switches = ti.nswitch, .run_ns_smt_busy = ti.sched_ns_shared,
	};
	st.run_ns_core[CORE_UNKNOWN] = ti.sched_ns_type[CPU_CORE_UNKNOWN];
	st.run_ns_core[CORE_P] = ti.sched_ns_type[CPU_CORE_P];
	st.run_ns_core[CORE_E] = ti.sched_ns_type[CPU_CORE_E];
	st.run_ns_core[CORE_LPE] = ti.sched_ns_type[CPU_CORE_LPE];
	return copy_to_user(tf->rsi, &st, sizeof(st));
}
