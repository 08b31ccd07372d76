/* SPDX-License-Identifier: BSD-2-Clause */
/* timer.c — one-shot timers on per-CPU lists, fired by the tick (see
 * timer.h). Each list is sorted by deadline and guarded by its own lock. */
#include <sync/timer.h>
#include <stddef.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/spinlock.h>
#include <arch/x86_64/clock/time.h>
#include <kern/panic.h>
#include <arch/x86_64/cpu/cpu.h>

struct timer_list {
	struct spinlock lock;
	struct timer *head;     /* earliest deadline first */
};

static struct timer_list timer_lists[MAXCPU] = {
	[0 ... MAXCPU - 1] = { .lock = SPINLOCK_INIT("timer list"), .head = 0 },
};

/* See timer.h. */
void timer_init(struct timer *t)
{
	*t = (struct timer)TIMER_INIT;
}

/* See timer.h. */
void timer_arm(struct timer *t, uint64_t delay_ns, void (*fn)(void *), void *arg)
{
	t->fn = fn;
	t->arg = arg;
	t->deadline_ns = time_ns() + delay_ns;
	uint64_t flags = cpu_save_flags_cli();
	struct timer_list *tl = &timer_lists[cpu_current()];
	spin_lock(&tl->lock);
	KASSERT(t->cpu < 0, "timer armed twice");
	struct timer **p = &tl->head;
	while (*p && (*p)->deadline_ns <= t->deadline_ns)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
	__atomic_store_n(&t->cpu, (int)cpu_current(), __ATOMIC_RELEASE);
	spin_unlock_irqrestore(&tl->lock, flags);
}

/* See timer.h. A timer that moves from armed to fired does so under its
 * list's lock, so the test below is exact. */
int timer_cancel(struct timer *t)
{
	int cpu = __atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE);
	if (cpu < 0)
		return 0;
	struct timer_list *tl = &timer_lists[cpu];
	uint64_t flags = spin_lock_irqsave(&tl->lock);
	int removed = 0;
	if (t->cpu == cpu) {
		for (struct timer **p = &tl->head; *p; p = &(*p)->next) {
			if (*p == t) {
				*p = t->next;
				removed = 1;
				break;
			}
		}
		t->next = NULL;
		t->cpu = -1;
	}
	spin_unlock_irqrestore(&tl->lock, flags);
	return removed;
}

/* See timer.h. Takes expired timers off the list one at a time and runs
 * each without the lock, so a callback may arm timers. */
void timer_tick(void)
{
	struct timer_list *tl = &timer_lists[cpu_current()];
	uint64_t now = time_ns();
	for (;;) {
		spin_lock(&tl->lock);
		struct timer *t = tl->head;
		if (!t || t->deadline_ns > now) {
			spin_unlock(&tl->lock);
			return;
		}
		tl->head = t->next;
		t->next = NULL;
		void (*fn)(void *) = t->fn;
		void *arg = t->arg;
		__atomic_store_n(&t->cpu, -1, __ATOMIC_RELEASE);
		spin_unlock(&tl->lock);
		fn(arg);
	}
}

