/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_user.c — `run`, `kill` and `jobs`: user programs from the shell,
 * each in a job of its own, and the process table that `ps` prints after
 * the threads (docs/userland.md). */
#include <shell/shell.h>
#include <dev/console_input.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <arch/x86_64/clock/time.h>
#include <thread/thread.h>
#include <user/user.h>
#include <shell/cmd_thread.h>

#define RUN_POLL_NS (50ull * 1000000ull)   /* how often a foreground run looks for a key */
#define KILL_POLL_NS (10ull * 1000000ull)    /* how often `kill -j` looks for the job's processes */
#define KILL_WAIT_NS (10000ull * 1000000ull) /* and for how long */
#define PS_PROCS_MAX 64
#define JOBS_MAX 64
#define KEY_CTRL_C 3

/* Waits for the foreground program pid to end and reports how. At the
 * console Ctrl-C kills it with its job (all it started), and so does any
 * key while it has not asked for console input (then keys are its own); a
 * boot script's run waits to the end. Shell thread. */
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
 * with PROGRAM ARGS as its argv, in a job of its own; in the foreground
 * the shell waits for it, with -b it runs on and its end is reported on
 * the console; -n gives it the nice capability (as init has). Shell
 * thread. */
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
		printk("run: %s started as pid %d in job %u\n", args[0], pid, user_job_of(pid));
		return 0;
	}
	return run_wait(args[0], pid);
}
SHELL_COMMAND(run, 1, SHELL_ARGS_MAX, "[-b] [-n] PROGRAM [ARGS]",
	      "run a user program of the boot archive in a job of its own (-b: in the background; "
	      "-n: with the nice capability); at the console Ctrl-C (or any key, if it reads none) "
	      "kills it and all it started", cmd_run);

/* Waits (at most KILL_WAIT_NS) until the processes of the killed job id
 * are gone and says how long that took in guest time. Shell thread. */
static int kill_job_wait(uint32_t id, int procs)
{
	uint64_t start = time_ns();
	int left;
	while ((left = user_job_procs(id)) > 0 && time_ns() - start < KILL_WAIT_NS)
		thread_sleep_ns(KILL_POLL_NS);
	uint64_t ms = (time_ns() - start) / 1000000;
	if (left > 0) {
		printk("kill: job %u: %d of its %d processes still there after %lu ms (zombies "
		       "whose parent is outside the job, or threads that did not leave)\n", id, left,
		       procs, ms);
		return 1;
	}
	printk("kill: job %u: its %d processes ended within %lu ms\n", id, procs, ms);
	return 0;
}

/* `kill PID` / `kill -j JOB`: end a process (with its job when it leads
 * one: every program the shell or init started does), or a job and the
 * jobs below it, then wait until its processes are gone. Shell thread. */
static int cmd_kill(int argc, char **argv)
{
	uint64_t id;
	int job = argc == 3 && strcmp(argv[1], "-j") == 0;
	if (argc == 3 && !job) {
		printk("kill: unknown option '%s'\n", argv[1]);
		shell_usage("kill");
		return 1;
	}
	if (shell_arg_u64("kill", job ? "JOB" : "PID", argv[argc - 1], 0, 1, INT32_MAX, &id))
		return 1;
	int procs = job ? user_job_procs((uint32_t)id) : 0;
	int rc = job ? user_kill_job((uint32_t)id) : user_kill((int)id);
	if (rc) {
		printk("kill: %s%lu: %s\n", job ? "job " : "", id,
		       rc == ERR_SRCH && job ? "no such job" : user_strerror(rc));
		return 1;
	}
	return job ? kill_job_wait((uint32_t)id, procs) : 0;
}
SHELL_COMMAND(kill, 1, 2, "PID | -j JOB",
	      "kill a user process, with all it started when it leads a job (programs run from "
	      "the shell do); or a whole job (`jobs`), waiting until its processes are gone",
	      cmd_kill);

/* `jobs`: every job with what it and the jobs below it hold of each kind
 * and its quota of it ("-": none of its own). Shell thread. */
static int cmd_jobs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!user_ready()) {
		printk("jobs: no user mode\n");
		return 1;
	}
	struct job_info *ji = kcalloc(JOBS_MAX, sizeof(*ji));
	if (!ji) {
		printk("jobs: out of memory for the job table\n");
		return 1;
	}
	size_t n = user_job_snapshot(ji, JOBS_MAX);
	printk("%5s %6s %6s %-16s %-6s  held/quota of", "JOB", "PARENT", "LEADER", "PROGRAM", "STATE");
	for (unsigned k = 0; k < JOB_INFO_KINDS; k++)
		printk(" %s", user_limit_name(k));
	printk("\n");
	for (size_t i = 0; i < n; i++) {
		const struct job_info *j = &ji[i];
		printk("%5u %6u %6d %-16s %-6s ", j->id, j->parent, j->leader, j->name,
		       j->killed ? "killed" : "live");
		for (int k = 0; k < JOB_INFO_KINDS; k++) {
			if (j->quota[k] < 0)
				printk(" %lu/-", j->use[k]);
			else
				printk(" %lu/%ld", j->use[k], j->quota[k]);
		}
		printk("\n");
	}
	printk("%lu jobs\n", (uint64_t)n);
	kfree(ji);
	return 0;
}
SHELL_COMMAND(jobs, 0, 0, "",
	      "the jobs of user programs: what each holds with the jobs below it, and its quotas",
	      cmd_jobs);

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
	printk("%5s %5s %5s %-16s %-6s %5s %7s %7s  %s\n", "PID", "PPID", "JOB", "PROGRAM", "STATE",
	       "HNDL", "PAGES", "AGE(s)", "THREADS");
	uint64_t now = time_ns();
	for (size_t i = 0; i < n; i++) {
		const struct proc_info *p = &pi[i];
		printk("%5d %5d %5u %-16s %-6s %5u %7u %7lu ", p->pid, p->ppid, p->job, p->name,
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
