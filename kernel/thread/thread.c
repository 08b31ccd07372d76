/* SPDX-License-Identifier: BSD-2-Clause */
/* thread.c — kernel thread life cycle: creation, exit, join, reaping, the
 * list of all threads and the pool of thread stacks (see thread.h). */
#include <thread/thread.h>
#include <arch/x86_64/arch_hooks.h>
#include <mm/mm.h>
#include <arch/x86_64/cpu/cpu.h>
#include <kern/panic.h>
#include <lib/string.h>
#include <arch/x86_64/spinlock.h>
#include <arch/x86_64/smp/percpu.h>

/* Guards the list of live threads, the zombie list, the stack pool and
 * the counters. Lock order: before the wait queue locks it never holds
 * (it is always taken alone). */
static struct spinlock thread_list_lock = SPINLOCK_INIT("thread list");
static struct thread *thread_all;          /* live threads, newest first */
static struct thread *thread_zombies;      /* exited detached threads (all_next) */
static void *thread_stack_pool;            /* free stacks: top - 8 holds the next */
static uint32_t thread_next_id = 1;
static uint64_t thread_created, thread_exited, thread_freed, thread_pooled;

/* Gives td the next id. */
static void thread_give_id(struct thread *td)
{
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	td->id = thread_next_id++;
	spin_unlock_irqrestore(&thread_list_lock, flags);
}

/* Adds td to the list. */
static void thread_list_add(struct thread *td)
{
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	td->all_prev = NULL;
	td->all_next = thread_all;
	if (thread_all)
		thread_all->all_prev = td;
	thread_all = td;
	thread_created++;
	spin_unlock_irqrestore(&thread_list_lock, flags);
}

/* Unlinks td from the list of live threads. Caller holds the list lock. */
static void thread_list_unlink(struct thread *td)
{
	if (td->all_prev)
		td->all_prev->all_next = td->all_next;
	else
		thread_all = td->all_next;
	if (td->all_next)
		td->all_next->all_prev = td->all_prev;
	td->all_next = td->all_prev = NULL;
}

/* A stack of THREAD_STACK_PAGES from the pool, else a new one; returns its
 * top or NULL. */
static void *thread_stack_get(void)
{
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	void *top = thread_stack_pool;
	if (top) {
		thread_stack_pool = *((void **)top - 1);
		thread_pooled--;
	}
	spin_unlock_irqrestore(&thread_list_lock, flags);
	return top ? top : kstack_alloc(THREAD_STACK_PAGES);
}

/* Frees a DEAD thread that no CPU runs any more: its stack goes back to
 * the pool. Caller holds the list lock; td is already unlinked. */
static void thread_free_locked(struct thread *td)
{
	KASSERT(td->state == TD_DEAD && !td->on_cpu, "thread %u freed while alive", td->id);
	if (td->stack_top) {
		*((void **)td->stack_top - 1) = thread_stack_pool;
		thread_stack_pool = td->stack_top;
		thread_pooled++;
	}
	thread_freed++;
}

/* Frees the exited detached threads whose CPU has switched away from them.
 * Any thread context; takes the list lock. */
void thread_reap(void)
{
	if (!__atomic_load_n(&thread_zombies, __ATOMIC_RELAXED))
		return;
	struct thread *done = NULL;
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	struct thread **p = &thread_zombies;
	while (*p) {
		struct thread *td = *p;
		if (__atomic_load_n(&td->on_cpu, __ATOMIC_ACQUIRE)) {
			p = &td->all_next;
			continue;
		}
		*p = td->all_next;
		thread_free_locked(td);
		td->all_next = done;
		done = td;
	}
	spin_unlock_irqrestore(&thread_list_lock, flags);
	while (done) {
		struct thread *next = done->all_next;
		kfree(done);
		done = next;
	}
}

/* See thread.h. The new stack holds the frame arch_context_switch() pops:
 * R15, R14, R13 (arg), R12 (fn), RBX, RBP, then arch_thread_start as the
 * return address, and a zero fake return address above it. */
void thread_frame_init(struct thread *td, void (*fn)(void *), void *arg)
{
	extern void arch_thread_start(void);
	uint64_t *sp = (uint64_t *)td->stack_top;
	*--sp = 0;
	*--sp = (uint64_t)arch_thread_start;
	*--sp = 0;                              /* rbp */
	*--sp = 0;                              /* rbx */
	*--sp = (uint64_t)fn;                   /* r12 */
	*--sp = (uint64_t)arg;                  /* r13 */
	*--sp = 0;                              /* r14 */
	*--sp = 0;                              /* r15 */
	td->rsp = (uint64_t)sp;
}

/* Copies name into td->name, cut to fit. */
void thread_set_name(struct thread *td, const char *name)
{
	size_t n = strnlen(name, sizeof(td->name) - 1);
	memcpy(td->name, name, n);
	td->name[n] = 0;
}

/* See thread.h. */
void *thread_stack_alloc(void)
{
	return thread_stack_get();
}

/* See thread.h. */
struct thread *thread_prepare(const char *name, void (*fn)(void *), void *arg,
			      const struct thread_attr *attr)
{
	static const struct thread_attr defaults = { 0, 0, NULL, 0, NULL };
	if (!attr)
		attr = &defaults;
	thread_reap();
	struct thread *td = kzalloc(sizeof(*td));
	if (!td)
		return NULL;
	td->stack_top = thread_stack_get();
	if (!td->stack_top) {
		kfree(td);
		return NULL;
	}
	thread_set_name(td, name);
	td->fn = fn;
	td->arg = arg;
	td->flags = attr->detached ? TDF_DETACHED : 0;
	td->uth = attr->uth;   /* before it can run: the switch to it reads it */
	td->state = TD_RUNNABLE;
	td->cpu = -1;
	wc_clock_init(&td->wc);
	timer_init(&td->sleep_timer);
	waitq_init(&td->exit_wq, "thread exit");
	thread_frame_init(td, fn, arg);

	struct thread *self = thread_current();
	uint64_t flags = cpu_save_flags_cli();
	sched_thread_init(&td->ts, self && !(self->flags & TDF_IDLE) ? &self->ts : NULL,
			  attr->pri_class ? attr->pri_class : SCHED_CLASS_TIMESHARE, attr->nice,
			  attr->affinity);
	cpu_restore_flags(flags);
	thread_give_id(td);
	return td;
}

/* See thread.h. */
void thread_launch(struct thread *td)
{
	thread_list_add(td);
	thread_make_runnable(td);
}

/* See thread.h. Its stack goes back to the pool. */
void thread_discard(struct thread *td)
{
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	*((void **)td->stack_top - 1) = thread_stack_pool;
	thread_stack_pool = td->stack_top;
	thread_pooled++;
	spin_unlock_irqrestore(&thread_list_lock, flags);
	kfree(td);
}

/* See thread.h. */
struct thread *thread_create(const char *name, void (*fn)(void *), void *arg,
			     const struct thread_attr *attr)
{
	struct thread *td = thread_prepare(name, fn, arg, attr);
	if (td)
		thread_launch(td);
	return td;
}

/* See thread.h. */
struct thread *thread_create_detached(const char *name, void (*fn)(void *), void *arg)
{
	struct thread_attr attr = { .detached = 1 };
	return thread_create(name, fn, arg, &attr);
}

/* See thread.h. Interrupts come on here: the switch that started the
 * thread ran with them off. */
void thread_start(void (*fn)(void *), void *arg)
{
	thread_switch_finish();
	cpu_sti();
	fn(arg);
	thread_exit();
}

/* See thread.h. A detached thread goes to the zombie list; a joinable one
 * stays on the live list until its joiner frees it. Either is freed only
 * once on_cpu drops, after the final switch saved nothing more on it. */
void thread_exit(void)
{
	struct thread *td = thread_current();
	KASSERT(!(td->flags & (TDF_IDLE | TDF_BOOT)), "thread %u may not exit", td->id);
	cpu_cli();
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	thread_exited++;
	if (td->flags & TDF_DETACHED) {
		thread_list_unlink(td);
		td->all_next = thread_zombies;
		thread_zombies = td;
	}
	spin_unlock_irqrestore(&thread_list_lock, flags);
	spin_lock(&td->exit_wq.lock);
	td->state = TD_DEAD;
	waitq_wake_all_locked(&td->exit_wq);
	spin_unlock(&td->exit_wq.lock);
	thread_switch_exit();
}

/* See thread.h. */
void thread_join(struct thread *td)
{
	KASSERT(!(td->flags & TDF_DETACHED), "join of detached thread %u", td->id);
	uint64_t flags = spin_lock_irqsave(&td->exit_wq.lock);
	while (td->state != TD_DEAD)
		waitq_sleep_locked(&td->exit_wq);
	spin_unlock_irqrestore(&td->exit_wq.lock, flags);
	while (__atomic_load_n(&td->on_cpu, __ATOMIC_ACQUIRE))
		cpu_pause();
	flags = spin_lock_irqsave(&thread_list_lock);
	thread_list_unlink(td);
	thread_free_locked(td);
	spin_unlock_irqrestore(&thread_list_lock, flags);
	kfree(td);
}

/* See thread.h. */
uint32_t thread_id(const struct thread *td)
{
	return td ? td->id : 0;
}

/* See thread.h. */
void thread_register(struct thread *td)
{
	thread_give_id(td);
	thread_list_add(td);
}

/* Copies td's printable fields into out. */
static void thread_info_fill(const struct thread *td, struct thread_info *out)
{
	const struct td_sched *ts = &td->ts;
	int idle = (td->flags & TDF_IDLE) != 0;
	out->id = td->id;
	memcpy(out->name, td->name, sizeof(out->name));
	out->state = td->state;
	out->flags = td->flags;
	out->running = td->on_cpu != 0;
	out->cpu = td->cpu;
	out->lastcpu = idle ? td->cpu : ts->ts_lastcpu;
	out->pri = idle ? PRI_MAX_IDLE : ts->ts_pri;
	out->nice = idle ? 0 : ts->ts_nice;
	out->pri_class = idle ? SCHED_CLASS_IDLE : ts->ts_class;
	out->score = idle ? 0 : sched_thread_score(ts);
	out->pctcpu = idle ? 0 : sched_thread_pctcpu(ts);
	out->run_ns = td->run_ns;
	if (td->on_cpu)
		out->run_ns += thread_now_ns() - td->on_since_ns;
	out->migrations = idle ? 0 : ts->ts_migrations;
	out->has_work = 0;              /* the hooks say more (thread_hooks_info()) */
	out->work = 0;
	out->has_code_cls = 0;
	out->code_cls = 0;
	out->itd_cls = td->itd.cls;
	memcpy(out->itd_reads, td->itd.reads, sizeof(out->itd_reads));
	out->itd_invalid = td->itd.invalid;
	out->itd_changes = td->itd.changes;
	out->nswitch = td->nswitch_in;
	for (int t = 0; t < 4; t++)
		out->sched_ns_type[t] = idle ? 0 : ts->ts_run_ns_type[t];
	out->sched_ns_shared = idle ? 0 : ts->ts_run_ns_shared;
	out->pid = 0;
	thread_hooks_info(td, out);   /* the work clock, the process */
}

/* See thread.h. */
void thread_info_of(const struct thread *td, struct thread_info *out)
{
	thread_info_fill(td, out);
}

/* See thread.h. */
uint64_t thread_pool_stacks(void)
{
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	uint64_t n = thread_pooled;
	spin_unlock_irqrestore(&thread_list_lock, flags);
	return n;
}

/* See thread.h. */
size_t thread_snapshot(struct thread_info *out, size_t max)
{
	size_t n = 0;
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	for (struct thread *td = thread_all; td && n < max; td = td->all_next)
		thread_info_fill(td, &out[n++]);
	spin_unlock_irqrestore(&thread_list_lock, flags);
	return n;
}

/* See thread.h. */
void thread_counts(uint64_t *created, uint64_t *exited, uint64_t *freed)
{
	uint64_t flags = spin_lock_irqsave(&thread_list_lock);
	*created = thread_created;
	*exited = thread_exited;
	*freed = thread_freed;
	spin_unlock_irqrestore(&thread_list_lock, flags);
}
