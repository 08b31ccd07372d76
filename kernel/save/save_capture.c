/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save_capture.c — what one thread prints, kept in a buffer: the text of
 * `sysinfo`, `cpus`, `topo` and `hfi` for the files `save` writes (quiet:
 * not shown), and a `bench --save` run's output (shown as well). The tap
 * on console_write() (console.h) takes only the capturing thread's own
 * output, never an interrupt's or an NMI's that lands on its CPU while it
 * is appending, nor anything once a panic began. One capture at a time
 * (the caller holds the save lock); the buffer is the caller's, so the tap
 * never allocates.
 */
#include <save/save.h>
#include <kern/console.h>
#include <lib/string.h>
#include <thread/thread.h>

static struct save_capture *active;
static struct thread *owner;
static volatile int tap_busy;

/* console_tap: appends the owner's output; 1 when it must not show. */
static int capture_tap(const char *buf, size_t len)
{
	struct save_capture *c = __atomic_load_n(&active, __ATOMIC_ACQUIRE);
	if (!c || console_panicking() || thread_current() != owner ||
	    __atomic_exchange_n(&tap_busy, 1, __ATOMIC_ACQUIRE))
		return 0;
	size_t room = c->cap - c->len, n = len < room ? len : room;
	memcpy(c->buf + c->len, buf, n);
	c->len += n;
	c->lost += len - n;
	int quiet = c->quiet;
	__atomic_store_n(&tap_busy, 0, __ATOMIC_RELEASE);
	return quiet;
}

/* See save.h. */
void save_capture_start(struct save_capture *c, char *buf, size_t cap, int quiet)
{
	c->buf = buf;
	c->cap = cap;
	c->len = 0;
	c->lost = 0;
	c->quiet = quiet;
	owner = thread_current();
	__atomic_store_n(&console_tap, capture_tap, __ATOMIC_RELEASE);
	__atomic_store_n(&active, c, __ATOMIC_RELEASE);
}

/* See save.h. Only the owner appends, and it is here: nothing is under way. */
void save_capture_stop(struct save_capture *c)
{
	(void)c;
	__atomic_store_n(&active, NULL, __ATOMIC_RELEASE);
	owner = NULL;
}
