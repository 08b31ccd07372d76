/* cmd_user.c — `run` and `kill`: user programs from the shell, and the
 * process table that `ps` prints after the threads (docs/userland.md). */
#include <shell.h>
#include <console.h>
#include <printk.h>
#include <string.h>
#include <mm.h>
#include <time.h>
#include <thread.h>
#include <user.h>
#include "cmd_thread.h"

#define RUN_POLL_NS (50ull * 1000000ull)   /* how often a foreground run looks for a key */
#define PS_PROCS_MAX 64
#define KEY_CTRL_C 3

/* Waits for the foreground program pid to end and reports how. At the
 * console Ctrl-C kills it, and so does any key while it has not asked for
 * console input (then keys are its own); a boot script's run waits to the
 * end. Shell thread. */
static int run_wait(const char *name, int pid)
{
	struct wait_info wi;
	int interactive = !shell_scripted(), killed = 0;
	for (;;) {
		int rc = user_wait_kernel(pid, RUN_POLL_NS, &wi);
		if (rc == pid)
			break;
		if (rc != ERR_TIMEOUT) {
			printk("run: waiting for pid %d: %s\n", pid, user_strerror(rc));
			return 1;
		}
		char c;
		if (interactive && !killed && console_peekc(&c) &&
		    (c == KEY_CTRL_C || !user_reads_console(pid))) {
			console_trygetc(&c);
			killed = user_kill(pid) == 0;
		}
	}
	char how[96];
	user_describe_end(&wi, how, sizeof(how));
	printk("run: %s (pid %d) %s\n", name, pid, how);
	return wi.how == WAIT_EXITED && wi.status == 0 ? 0 : 1;
}

/* `run [-b] [-n] PROGRAM [ARGS]`: start a program of the boot archive
 * with PROGRAM ARGS as its argv; in the foreground the shell waits for it,
 * with -b it runs on and its end is reported on the console; -n gives it
 * the nice capability (as init has). Shell thread. */
static int cmd_run(int argc, char **argv)
{
	int background = 0, first = 1;
	unsigned flags = 0;
	for (; first < argc && argv[first][0] == '-'; first++) {
		if (strcmp(argv[first], "-b") == 0) {
			background = 1;
		} else if (strcmp(argv[first], "-n") == 0) {
			flags |= USER_RUN_NICE;
		} else {
			printk("run: unknown option '%s'\n", argv[first]);
			shell_usage("run");
			return 1;
		}
	}
	if (first >= argc) {
		shell_usage("run");
		return 1;
	}
	char **args = argv + first;
	int pid = user_spawn_kernel(args[0], argc - first, args,
				    flags | (background ? 0 : USER_RUN_FOREGROUND));
	if (pid < 0) {
		printk("run: %s: %s\n", args[0], user_strerror(pid));
		return 1;
	}
	if (background) {
		printk("run: %s started as pid %d\n", args[0], pid);
		return 0;
	}
	return run_wait(args[0], pid);
}
SHELL_COMMAND(run, 1, SHELL_ARGS_MAX, "[-b] [-n] PROGRAM [ARGS]",
	      "run a user program of the boot archive (-b: in the background; -n: with the nice "
	      "capability); at the console Ctrl-C (or any key, if it reads none) kills it", cmd_run);

/* `kill PID`: end a process. Shell thread. */
static int cmd_kill(int argc, char **argv)
{
	uint64_t pid;
	(void)argc;
	if (shell_arg_u64("kill", "PID", argv[1], 0, 1, INT32_MAX, &pid))
		return 1;
	int rc = user_kill((int)pid);
	if (rc) {
		printk("kill: %lu: %s\n", pid, user_strerror(rc));
		return 1;
	}
	return 0;
}
SHELL_COMMAND(kill, 1, 1, "PID", "kill a user process (its threads leave at their next tick)",
	      cmd_kill);

/* See cmd_thread.h. */
void cmd_ps_procs(void)
{
	if (!user_ready())
		return;
	struct proc_info *pi = kcalloc(PS_PROCS_MAX, sizeof(*pi));
	if (!pi) {
		printk("ps: out of memory for the process table\n");
		return;
	}
	static const char *const states[] = { "live", "dying", "zombie" };
	size_t n = user_proc_snapshot(pi, PS_PROCS_MAX);
	printk("%5s %5s %-16s %-6s %5s %7s %7s  %s\n", "PID", "PPID", "PROGRAM", "STATE", "HNDL",
	       "PAGES", "AGE(s)", "THREADS");
	uint64_t now = time_ns();
	for (size_t i = 0; i < n; i++) {
		const struct proc_info *p = &pi[i];
		printk("%5d %5d %-16s %-6s %5u %7u %7lu ", p->pid, p->ppid, p->name,
		       p->state >= 0 && p->state < 3 ? states[p->state] : "?", p->handles, p->pages,
		       (uint64_t)((now - p->start_ns) / 1000000000u));
		for (uint32_t t = 0; t < p->nthreads && t < 8; t++)
			printk(" %u", p->tids[t]);
		if (p->nthreads > 8)
			printk(" ... (%u)", p->nthreads);
		printk("\n");
	}
	printk("%lu processes\n", (uint64_t)n);
	kfree(pi);
}

/* `ustat`: what user mode holds, for checking that nothing leaks: the
 * processes and their pages, the threads, and the kernel's memory in use
 * without its reserves (the heap's free blocks, the pool of kernel stacks
 * kept for new threads and the kernel's page-table pages, which only grow
 * to the most ever used at once), which must come back to the same value
 * once programs have ended; then each limit of user objects with its use
 * and refusals. Shell thread. */
static int cmd_ustat(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	uint64_t procs, pages, created, exited, freed;
	struct pmm_stats p;
	struct heap_stats h;
	user_counts(&procs, &pages);
	thread_counts(&created, &exited, &freed);
	pmm_get_stats(&p);
	heap_get_stats(&h);
	uint64_t pooled = thread_pool_stacks() * THREAD_STACK_PAGES * 4096;
	uint64_t tables = vmm_table_bytes();
	uint64_t net = p.total_bytes - p.free_bytes - h.arena_bytes + h.used_bytes - pooled - tables;
	printk("ustat: processes %lu, user pages %lu, threads live %lu, heap allocations %lu, "
	       "memory in use %lu bytes (without %lu bytes of pooled stacks, %lu of free heap and "
	       "%lu of kernel page tables)\n", procs, pages, created - freed, h.allocations, net,
	       pooled, h.arena_bytes - h.used_bytes, tables);
	user_print_limits();
	return 0;
}
SHELL_COMMAND(ustat, 0, 0, "",
	      "user processes and pages, live threads, kernel memory in use without its reserves "
	      "(for leak checks), the limits of user objects and their refusals", cmd_ustat);
