/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_lockup.c — `lockup soft|hard CPU SECONDS`: lock one CPU up on
 * purpose for a while, to see the watchdogs report it (kernel/shell/lockup.c;
 * the watchdogs: docs/smp.md). */
#include <shell/shell.h>
#include <shell/lockup.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/smp/smp.h>
#include <thread/thread.h>

/* Every argument checked before anything spins; the shell waits until the
 * CPU is back. Shell thread. */
static int cmd_lockup(int argc, char **argv)
{
	uint64_t cpu, seconds;
	int irqs_off;
	(void)argc;
	if (strcmp(argv[1], "soft") == 0) {
		irqs_off = 0;
	} else if (strcmp(argv[1], "hard") == 0) {
		irqs_off = 1;
	} else {
		printk("lockup: '%s' is neither soft nor hard\n", argv[1]);
		shell_usage("lockup");
		return 1;
	}
	if (shell_arg_u64("lockup", "CPU", argv[2], 0, 0, smp_cpu_count() - 1, &cpu) ||
	    shell_arg_u64("lockup", "SECONDS", argv[3], 0, 1, LOCKUP_MAX_S, &seconds))
		return 1;
	if (!smp_cpu_online((unsigned)cpu)) {
		printk("lockup: cpu %lu is not online\n", cpu);
		return 1;
	}
	if (!thread_sched_running()) {
		printk("lockup: the scheduler is off (sched=off)\n");
		return 1;
	}
	printk("lockup: cpu %lu spins %lu s with %s off\n", cpu, seconds,
	       irqs_off ? "interrupts" : "preemption");
	if (lockup_run((unsigned)cpu, irqs_off, seconds)) {
		printk("lockup: out of memory\n");
		return 1;
	}
	printk("lockup: cpu %lu is back\n", cpu);
	return 0;
}
SHELL_COMMAND(lockup, 3, 3, "soft|hard CPU SECONDS",
	      "spin on CPU for SECONDS (1..60) with preemption (soft) or interrupts (hard) off, "
	      "for the watchdogs", cmd_lockup);
