/* SPDX-License-Identifier: BSD-2-Clause */
/* ulimit_kernel.c — what the limits (ulimit.h) ask of the kernel: who
 * makes the operator's charges, and the report of a refused charge. */
#include <user/uproc.h>
#include <kern/printk.h>

/* See ulimit.h. A kernel thread charges only when it starts a program
 * (the shell's `run`, torture); init holds the operator capability. */
int ulimit_reserve_allowed(void)
{
	struct proc *p = proc_self();
	return !p || (p->caps & PROC_CAP_OPERATOR);
}

/* See ulimit.h. Refusals of a job's quota or of the total are the
 * operator's business: one line each, at a limited rate (a program that
 * retries a refused spawn in a loop cannot flood the log). A process's own
 * limit is its own: counted only. */
void ulimit_report_refusal(enum ulimit_kind k, struct ujob *job, int err)
{
	static PRINTK_RATE(refusals, "user: refused charges");
	struct proc *p = proc_self();
	char who[64] = "the kernel";
	if (p)
		ksnprintf(who, sizeof(who), "pid %d (%s)", p->pid, p->name);
	if (err == ERR_QUOTA)
		printk_rated(&refusals, "user: %s: job %u (%s) reached its %s quota of %ld\n", who,
			     job->id, job->name, ulimit_name(k), job->quota[k]);
	else if (err == ERR_NOSPC)
		printk_rated(&refusals, "user: %s: the system's %s are all in use\n", who,
			     ulimit_name(k));
}
