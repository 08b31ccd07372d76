/*
 * user.h — user mode as the rest of the kernel sees it: boot, the hooks of
 * the trap path and the thread layer, and what the shell needs (run, kill,
 * ps). The implementation is kernel/user/; docs/userland.md describes it.
 */
#ifndef MOSAIC_USER_H
#define MOSAIC_USER_H
#include <stddef.h>
#include <stdint.h>
#include <boot_info.h>
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
/* CR3 of a thread of a process (user_cpu.c, at every switch to it). */
uint64_t user_thread_cr3(const struct thread *td);
/* The FXSAVE area (512 bytes, 16-byte aligned) of a thread of a
 * process: its x87/SSE registers while it does not run (user_cpu.c). */
void *user_thread_fpu(struct thread *td);
/* pid of a thread's process, 0 for a kernel thread (`ps`). */
int user_thread_pid(const struct thread *td);

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
/* Kill process pid (any; the kernel may): 0, or ERR_SRCH. The process
 * is gone once its threads have left (a few ticks). */
int user_kill(int pid);
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
/* Processes alive (not yet freed) and user pages held by all of them. */
void user_counts(uint64_t *procs, uint64_t *pages);
/* One line per kind of object a process can create: its limits per
 * process and in all, how many exist, and how often each limit refused
 * one (`ustat`). */
void user_print_limits(void);

#endif
