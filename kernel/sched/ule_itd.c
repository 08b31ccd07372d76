/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ule_itd.c — the Thread Director class of each thread, as the thread
 * layer reports it (kernel/lib/itd_class.h): the input hmp placement
 * uses to pick the HFI column that scores CPUs for a thread.
 */
#include <sched/ule.h>
#include <lib/itd_class.h>

/* See sched.h. */
void sched_itd_class_set(struct td_sched *ts, unsigned cls)
{
	if (cls < ITD_CLASS_MAX)
		__atomic_store_n(&ts->ts_itd_class, (uint8_t)cls, __ATOMIC_RELAXED);
}
