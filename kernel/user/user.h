/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * user.h — user mode as the rest of the kernel sees it: boot, the hooks of
 * the trap path and the thread layer, and what the shell needs (run, kill,
 * ps). The implementation is kernel/user/; docs/userland.md describes it.
 */
#ifndef MOSAIC_USER_H
#define MOSAIC_USER_H
#include <stddef.h>
#include <stdint.h>
#include <mosaic/boot_info.h>
#include <mosaic/syscall.h>

struct thread;
struct trap_frame;

/* Unpack the boot archive (the module userland.cpio), set up the CPUs for
 * user mode, start the reaper and, unless init=off, the first process,
 * init, with the lines of init.rc as its arguments; waits (at most 10 s)
 * until init says it is ready, so its first output comes before the
 * shell's prompt. Boot CPU, after thread_boot() and work_calibrate(). */
void user_init(const struct boot_info *bi);
/* 1 once user_init() has set everything up. */
int user_ready(void);

/* ---- hooks ---- */

/* An exception in user mode (trap.c): report it on one line (pid, name,
 * fault, address, user backtrace), end the thread's process with
 * WAIT_FAULTED, and leave. Interrupts off; never returns. */
void user_fault(struct trap_frame *tf, uint64_t addr) __attribute__((noreturn));
/* On the way back to user mode (interrupts, system calls): a thread whose
 * process is being killed leaves here instead. */
void user_return_check(void);
/* The thread layer's switch hook (thread.h, registered by kernel/main.c):
 * the CPU's user-mode state (FPU registers, CR3, the kernel stack of
 * ring-3 entries) from cur to next. Interrupts off. */
void user_thread_switch(unsigned cpu, struct thread *cur, struct thread *next, uint64_t now);
struct thread_info;
/* The thread layer's info hook: the pid of td's process into out->pid,
 * 0 for a kernel thread (`ps`). */
void user_thread_info(const struct thread *td, struct thread_info *out);

/* ---- the shell ---- */

/* Start a program of the boot archive with argv[0..argc) as a child of the
 * kernel. Returns its pid, or an ERR_* code (see user_strerror()). With
 * USER_RUN_FOREGROUND it may read the console and the caller then waits
 * with user_wait_kernel(); otherwise its end is reported on the console.
 * USER_RUN_NICE gives it the nice capability (it may raise its threads'
 * priority, and pass that on), as init has. */
#define USER_RUN_FOREGROUND 0x1
#define USER_RUN_NICE       0x2
int user_spawn_kernel(const char *prog, int argc, char **argv, unsigned flags);
/* Wait up to timeout_ns for the kernel's child pid to end and collect it:
 * its pid, ERR_TIMEOUT, or ERR_CHILD. */
int user_wait_kernel(int pid, uint64_t timeout_ns, struct wait_info *out);
/* Kill process pid (any; the kernel may), with its whole job when it
 * leads one (every program the shell or init started leads its own): 0,
 * or ERR_SRCH. The processes are gone once their threads have left (a
 * few ticks). */
int user_kill(int pid);
/* The job of process pid, 0 when there is no such process. */
uint32_t user_job_of(int pid);
/* The processes of job id and the jobs below it (zombies too), or -1 when
 * there is no such job (any more). */
int user_job_procs(uint32_t id);
/* Kill job id and every job below it: 0, ERR_SRCH (no such job) or
 * ERR_PERM (the root job, 0). */
int user_kill_job(uint32_t id);
/* Whether the foreground process pid has asked for console input (so
 * keys other than Ctrl-C are its own). */
int user_reads_console(int pid);
/* The end of a process in words ("exited with status 0", "killed",
 * "faulted: page fault at 0x10"). */
void user_describe_end(const struct wait_info *wi, char *buf, size_t len);
/* Short text of an ERR_* code. */
const char *user_strerror(int err);

struct proc_info {
	int pid, ppid;
	uint32_t job;
	char name[PROC_NAME_MAX];
	int state;                       /* 0 live, 1 dying, 2 zombie */
	uint32_t nthreads;
	uint32_t tids[8];                /* the first eight threads */
	uint32_t pages;                  /* pages held (memory and page tables) */
	uint32_t handles;
	uint64_t start_ns;
};
/* Fill up to max records, oldest process first; returns how many. */
size_t user_proc_snapshot(struct proc_info *out, size_t max);
/* A job (docs/userland.md, "Jobs"): what it and the jobs below it hold of
 * each kind of object, in the order of `ustat`'s limits, and its quotas
 * (< 0: none of its own). */
#define JOB_INFO_KINDS 7
struct job_info {
	uint32_t id, parent;
	int leader;                      /* pid of its first process */
	int killed;                      /* it or a job above it was killed */
	char name[PROC_NAME_MAX];        /* its first program */
	uint64_t use[JOB_INFO_KINDS];
	int64_t quota[JOB_INFO_KINDS];
};
/* Fill up to max records, newest job first; returns how many. */
size_t user_job_snapshot(struct job_info *out, size_t max);
/* The name of the k-th kind of job_info (k < JOB_INFO_KINDS): "threads"... */
const char *user_limit_name(unsigned k);
/* Processes alive (not yet freed) and user pages held by all of them. */
void user_counts(uint64_t *procs, uint64_t *pages);
/* One line per kind of object a process can create: its limits per
 * process and in all, how many exist, and how often each limit refused
 * one (`ustat`). */
void user_print_limits(void);

#endif
