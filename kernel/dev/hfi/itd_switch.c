/* SPDX-License-Identifier: BSD-2-Clause */
/* itd_switch.c — Thread Director at the context switch, registered as
 * two of the thread layer's hook points (thread.h, kernel/main.c): the
 * class the hardware saw for the thread leaving a CPU goes into its
 * history (itd_hist.h), an adopted class to the scheduler
 * (sched_itd_class_set()), and the CPU's history is reset before the next
 * thread runs (the driver: itd.c; docs/hfi.md). */
#include <thread/thread.h>
#include <dev/hfi/itd.h>

/* See itd.h. */
void itd_switch_leave(struct thread *td)
{
	unsigned cls;
	int r = itd_read(&cls);
	if (r == 0)
		itd_hist_invalid(&td->itd);
	else if (r > 0 && itd_hist_feed(&td->itd, cls))
		sched_itd_class_set(&td->ts, td->itd.cls);
}

/* See itd.h. */
void itd_switch_enter(unsigned cpu, struct thread *cur, struct thread *next, uint64_t now)
{
	(void)cpu;
	(void)cur;
	(void)next;
	(void)now;
	itd_hreset();
}

_Static_assert(ITD_DRV_CLASSES == ITD_CLASS_MAX, "the driver counts every class");
