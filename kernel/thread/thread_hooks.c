/* SPDX-License-Identifier: BSD-2-Clause */
/* thread_hooks.c — the thread layer's hook points (thread.h): what the
 * layers above it do at every switch and add to a thread's record, so the
 * thread layer itself never calls them. Registered at boot
 * (kernel/main.c) before any thread switches; afterwards only read. */
#include <thread/thread.h>
#include <kern/panic.h>

#define THREAD_HOOKS_MAX 4

static thread_leave_hook leave_hooks[THREAD_HOOKS_MAX];
static thread_switch_hook switch_hooks[THREAD_HOOKS_MAX];
static thread_info_hook info_hooks[THREAD_HOOKS_MAX];
static unsigned n_leave, n_switch, n_info;

/* Appends fn to hooks[*n]; what names the kind in a panic. Boot-time. */
static void hook_add(void **hooks, unsigned *n, void *fn, const char *what)
{
	if (thread_sched_running())
		panic("thread: a %s hook registered after the scheduler started", what);
	if (*n == THREAD_HOOKS_MAX)
		panic("thread: more than %d %s hooks", THREAD_HOOKS_MAX, what);
	hooks[(*n)++] = fn;
}

/* See thread.h. */
void thread_hook_leave(thread_leave_hook fn)
{
	hook_add((void **)leave_hooks, &n_leave, (void *)fn, "leave");
}

/* See thread.h. */
void thread_hook_switch(thread_switch_hook fn)
{
	hook_add((void **)switch_hooks, &n_switch, (void *)fn, "switch");
}

/* See thread.h. */
void thread_hook_info(thread_info_hook fn)
{
	hook_add((void **)info_hooks, &n_info, (void *)fn, "info");
}

/* See thread.h. Interrupts off. */
void thread_hooks_leave(struct thread *cur)
{
	for (unsigned i = 0; i < n_leave; i++)
		leave_hooks[i](cur);
}

/* See thread.h. Interrupts off. */
void thread_hooks_switch(unsigned cpu, struct thread *cur, struct thread *next, uint64_t now)
{
	for (unsigned i = 0; i < n_switch; i++)
		switch_hooks[i](cpu, cur, next, now);
}

/* See thread.h. Under the thread list lock. */
void thread_hooks_info(const struct thread *td, struct thread_info *out)
{
	for (unsigned i = 0; i < n_info; i++)
		info_hooks[i](td, out);
}
