/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uproc.h — processes, their threads, address spaces, handles and waits:
 * the structures the files of kernel/user/ share (docs/userland.md).
 *
 * Locking. One spinlock, user_lock, guards everything of this layer that
 * more than one thread touches: the process table and every process's
 * state, thread list and handle table, the jobs' tree, references and
 * kill marks, the endpoints and their queues, the service names, and
 * every wait (struct uwait). Like seL4's kernel
 * lock on SMP it keeps the rules simple: an IPC rendezvous, a kill and a
 * wake-up are each one critical section, so no wake-up is lost between a
 * test and a sleep. It is held only for short bookkeeping (never while
 * copying user memory or allocating pages); it nests outside the
 * scheduler's and the timers' locks. Page-table changes of one address
 * space take that space's sleeping mutex instead (struct uvm).
 */
#ifndef MOSAIC_USER_UPROC_H
#define MOSAIC_USER_UPROC_H
#include <stdint.h>
#include <stddef.h>
#include <mosaic/syscall.h>
#include <user/ulimit.h>
#include <user/uvm.h>
#include <sync/mutex.h>
#include <arch/x86_64/spinlock.h>
#include <sync/timer.h>
#include <thread/thread.h>
#include <arch/x86_64/trap/trap.h>

extern struct spinlock user_lock;

/* ---- waits (uwait.c) ---- */

enum { UW_WAITING = 0, UW_WOKEN, UW_TIMEOUT, UW_KILLED, UW_AGAIN };

/* A thread waiting in this layer: on its kernel stack while it sleeps,
 * queued on a channel or on none (woken by whoever holds a pointer to
 * it). */
struct uwait {
	struct thread *td;
	struct uwait *next;
	struct uchan *chan;              /* where it is queued, NULL if nowhere */
	int state;                       /* UW_* (user_lock) */
	struct timer timer;
	int timer_armed;
	volatile int timer_done;         /* the timeout callback is finished with this record */
};

/* A FIFO of waiters. */
struct uchan {
	struct uwait *head, *tail;
};

#define UWAIT_FOREVER UINT64_MAX

/* Sleep on ch (NULL: on no channel) until a waker, the deadline (absolute
 * time_ns(); UWAIT_FOREVER) or, for a thread of a process, a kill. Caller
 * holds user_lock (taken with spin_lock_irqsave), which is released while
 * it sleeps and held again on return. Returns UW_WOKEN, UW_TIMEOUT,
 * UW_KILLED (the process is being killed: checked first, so a killed
 * thread never sleeps), or UW_AGAIN (woken by something else: test the
 * condition again). */
int uwait_sleep(struct uchan *ch, struct uwait *w, uint64_t deadline);
/* Wake w (queued on a channel or none) with UW_WOKEN. user_lock held. */
void uwait_wake(struct uwait *w);
/* Wake the oldest / every waiter of ch. user_lock held. */
struct uwait *uchan_pop(struct uchan *ch);
void uchan_wake_all(struct uchan *ch);
/* Deadline of a relative timeout (IPC_FOREVER → UWAIT_FOREVER). */
uint64_t uwait_deadline(uint64_t timeout_ns);

/* ---- address spaces: uvm.h ---- */

/* uelf.c: load the program in file[0..size) into the new vm and set
 * *entry: 0, ERR_NOEXEC (err says why), or ERR_NOMEM. */
int uelf_load(struct uvm *vm, const uint8_t *file, uint64_t size, uint64_t *entry, char *err,
	      size_t err_size);
/* user_boot.c: the boot archive's file called name, or NULL. */
struct archive_file;
const struct archive_file *user_archive_find(const char *name);

/* ---- endpoints and handles (ipc*.c, handle.c) ---- */

struct endpoint {
	uint32_t id;                     /* shown by `ps`; never reused */
	uint32_t refs;                   /* handles, names, operations under way */
	uint32_t recv_refs;              /* handles with HANDLE_RECV */
	int dead;                        /* no receiver can ever come: every wait fails */
	struct uchan senders, receivers;
	struct proc *owner;              /* its creator, charged for it (UL_ENDPOINTS); NULL once gone */
	struct endpoint *owner_next;     /* owner->owned */
	struct ujob *job;                /* its creator's job, charged until it is freed (a reference) */
};

struct handle {
	struct endpoint *ep;             /* NULL: free slot */
	uint32_t rights;                 /* HANDLE_* */
};

/* ---- threads and processes (proc*.c, uthread.c) ---- */

struct ipc_wait;
struct proc;

enum { UT_LIVE = 0, UT_EXITED };

struct uthread {
	struct thread *td;
	struct proc *proc;
	uint32_t tid;                    /* td->id */
	uint32_t index;                  /* 0: the first thread */
	int state;                       /* UT_* */
	int joining;                     /* a sibling waits in SYS_THREAD_JOIN */
	uint64_t exit_value;
	struct ustack *stack;
	struct uchan join_chan;
	struct ipc_wait *reply_to;       /* the caller waiting for this thread's reply */
	int reply_lost;                  /* that caller gave up (timeout, killed) */
	uint64_t entry, sp, arg0, arg1, arg2;   /* its first entry into user mode */
	struct uthread *next;            /* proc->threads */
	/* x87/SSE registers while the thread does not run (FXSAVE layout). */
	uint8_t fpu[512] __attribute__((aligned(16)));
};
#define UTHREAD_FPU_FCW 0                /* FXSAVE: x87 control word */
#define UTHREAD_FPU_MXCSR 24             /* FXSAVE: MXCSR */

enum { PROC_LIVE = 0, PROC_DYING, PROC_ZOMBIE };

#define PROC_CAP_NICE 0x1                /* may lower its threads' nice value (raise their priority) */
#define PROC_CAP_OPERATOR 0x2            /* its charges may take the operator's reserve (init) */

struct proc {
	int pid, ppid;
	struct proc *parent;             /* NULL: the kernel (shell, boot) or an orphan */
	struct ujob *job;                /* its job, for its whole life (a reference until freed) */
	char name[PROC_NAME_MAX];
	int state;                       /* PROC_* */
	int killed;                      /* its threads leave at their next return to user mode */
	struct wait_info result;         /* how it ended; the first cause wins */
	int ready;                       /* SYS_READY called */
	int detached;                    /* nobody waits: freed once it is a zombie */
	int kernel_child;                /* started by the kernel: its end is reported on the console */
	int foreground;                  /* the shell waits for it: it may read the console */
	int reads_console;               /* it has asked for input: keys but Ctrl-C are its */
	int nlive;                       /* threads not exited */
	uint32_t caps;                   /* PROC_CAP_* */
	uint32_t use[UL_COUNT];          /* what it holds, by ulimit kind (pages, mappings: in vm) */
	struct endpoint *owned;          /* endpoints it created that are alive */
	uint32_t next_index;
	uint64_t start_ns;
	struct uthread *threads;         /* records not yet freed */
	struct uvm vm;
	struct handle handles[HANDLES_MAX];
	struct uchan child_chan;         /* its threads in SYS_WAIT */
	struct uchan ready_chan;         /* a spawner waiting for SYS_READY */
	struct proc *next;               /* the process table */
	struct proc *reap_next;
};

/* The calling thread's record / process (NULL in a kernel thread). */
struct uthread *uthread_self(void);
struct proc *proc_self(void);

/* proc.c */
struct proc *proc_find(int pid);                  /* user_lock held */
/* Give p the next pid and add it to the table. user_lock held. */
void proc_insert_locked(struct proc *p);
/* Mark p killed (how: WAIT_KILLED, WAIT_FAULTED, WAIT_EXITED with status,
 * addr) and wake every thread of it so it leaves. The first call decides
 * the result. user_lock held. */
void proc_kill_locked(struct proc *p, uint32_t how, int32_t status, uint64_t addr);
/* A thread of p is gone: the last one hands p to the reaper. user_lock held. */
void proc_thread_gone_locked(struct proc *p);
/* Wake the waiters for p's end (its parent's SYS_WAIT, the shell). user_lock held. */
void proc_notify_end_locked(struct proc *p);
/* Remove a zombie from the table and free it. user_lock held. */
void proc_free_locked(struct proc *p);
/* Start the reaper thread. Boot. */
void proc_reaper_start(void);
/* The channel the kernel's own waits for its children sleep on. */
extern struct uchan proc_kernel_child_chan;

/* The children of p matching pid (-1: any): the first after `after`
 * (NULL: the first of all), or NULL. user_lock held. */
struct proc *proc_child(struct proc *p, int pid, struct proc *after);
/* Kill job j and every job below it: mark them killed, so that no
 * process can join them from now on, and kill every process in them.
 * user_lock held. */
void proc_kill_job_locked(struct ujob *j);
/* Kill p, or its whole job when p leads the job (its first process; a
 * job p was started in by the shell, init or SPAWN_NEW_JOB). user_lock
 * held. */
void proc_kill_tree_locked(struct proc *p);

/* ---- jobs (ujob.c; their counts and quotas: ulimit.h) ---- */

/* A zeroed job record; NULL when out of memory. Any lock state. */
struct ujob *ujob_alloc(void);
/* Make j, from ujob_alloc(), a job below parent (the root: &ujob_root)
 * for the program name, with the kern.user.*_job quotas (none of its own
 * when unbounded: the operator's job) and one reference, its first
 * process's. Charges may be taken in it from now on; nobody else sees it
 * until ujob_link_locked(). The caller keeps parent alive meanwhile. No
 * lock. */
void ujob_init(struct ujob *j, struct ujob *parent, const char name[PROC_NAME_MAX], int unbounded);
/* Give j, from ujob_init(), its id and its leader's pid, take a reference
 * on its parent and put it on the job list. user_lock held. */
void ujob_link_locked(struct ujob *j, int leader);
/* Take / drop a reference of j (the root has none); the last one frees
 * it, which must hold nothing then, and drops its parent's. user_lock. */
void ujob_get(struct ujob *j);
void ujob_put(struct ujob *j);
/* 1 if j or a job above it was killed: no process may join it. user_lock. */
int ujob_dead(const struct ujob *j);
/* 1 if j is top or below it. user_lock held. */
int ujob_within(const struct ujob *j, const struct ujob *top);
/* The job with this id (0: the root), or NULL; the next job of the list
 * after `after` (NULL: the first), or NULL. user_lock held. */
struct ujob *ujob_find(uint32_t id);
struct ujob *ujob_next(const struct ujob *after);

/* proc_spawn.c: start program prog (a name in the boot archive) with args
 * as a child of parent (NULL: the kernel), its handles 0..n-1 copies of
 * parent's handles pass[i] with rights prights[i] (and the parent's), in
 * the parent's job or a new one. kflags: PROC_FOREGROUND and
 * PROC_DETACHED (kernel children), PROC_GIVE_NICE (the child gets
 * PROC_CAP_NICE; the caller checked it may give it), PROC_NEW_JOB,
 * PROC_OPERATOR (init). Returns the pid, or an ERR_* code (ERR_DEAD: the
 * job it would join was killed): then the child was never visible to
 * anyone. A refused program file is reported on the console, at a limited
 * rate, with its reason. Thread context, no lock. */
#define PROC_FOREGROUND 0x1   /* the shell waits for it: it may read the console */
#define PROC_DETACHED   0x2   /* nobody waits: freed when it ends, its end reported */
#define PROC_GIVE_NICE  0x4   /* it holds PROC_CAP_NICE */
#define PROC_NEW_JOB    0x8   /* it starts a job below its parent's (the kernel's always) */
#define PROC_OPERATOR   0x10  /* it holds PROC_CAP_OPERATOR, its job no quota of its own (init) */
struct uargs;
int proc_spawn(struct proc *parent, const char *prog, const struct uargs *args,
	       const int32_t *pass, const uint32_t *prights, uint32_t n, unsigned kflags);

/* uthread.c */
/* A thread record that will start at entry with RSP = sp and RDI, RSI,
 * RDX = a0..a2 on stack; NULL when out of memory. */
struct uthread *uthread_new(struct ustack *stack, uint64_t entry, uint64_t sp, uint64_t a0,
			    uint64_t a1, uint64_t a2);
/* The kernel thread that will run ut in p, made but not started (named
 * after the program, "prog/N" for the N-th; nice and CPU mask inherited
 * from the caller when it is a thread of p); NULL when out of memory.
 * first: p's first thread. Thread context, no lock. */
struct thread *uthread_prepare(struct proc *p, struct uthread *ut, int first);
/* Link ut, run by the prepared td, into p and charge p a thread: 0, or
 * ERR_LIMIT / ERR_QUOTA / ERR_NOSPC (thread limits), ERR_SRCH (p is being
 * killed; never for the first thread, p is not visible yet). The caller then
 * launches td, or on failure discards it. user_lock held. */
int uthread_link_locked(struct proc *p, struct uthread *ut, struct thread *td, int first);
/* A new thread of the calling process p, started: 0 with its tid in *tid,
 * or an error of uthread_link_locked() or ERR_NOMEM; on failure ut is
 * freed and its stack given back. Thread context, no lock. */
int uthread_start(struct proc *p, struct uthread *ut, uint32_t *tid);
/* End the calling thread of a process (value for a joiner). Never returns. */
void uthread_exit(uint64_t value) __attribute__((noreturn));
/* The thread tid of p, or NULL. user_lock held. */
struct uthread *uthread_find(struct proc *p, uint32_t tid);
/* Unlink an exited thread's record from p (a joiner or the reaper takes
 * it) and uncharge it. user_lock held. */
void uthread_unlink_locked(struct proc *p, struct uthread *ut);
/* Free an unlinked thread's record once its kernel thread is gone, and
 * give its stack back. */
void uthread_free(struct uthread *ut);

/* handle.c — user_lock held for all. */
/* Free slot of p for ep with rights (takes a reference, charges a
 * handle): the handle, or ERR_LIMIT / ERR_QUOTA / ERR_NOSPC. */
int handle_install(struct proc *p, struct endpoint *ep, uint32_t rights);
/* p's endpoint behind h if the handle has all of rights; else NULL. */
struct endpoint *handle_get(struct proc *p, int64_t h, uint32_t rights);
/* Close h: ERR_BADH if it is not one. */
int handle_close(struct proc *p, int64_t h);
/* Close every handle of p. */
void handle_close_all(struct proc *p);
/* Drop one reference of ep (freed at 0, its owner uncharged). */
void endpoint_put(struct endpoint *ep);
/* A new endpoint record with one reference and no owner yet; NULL when
 * out of memory. Any lock state (it allocates: call it before taking
 * user_lock). */
struct endpoint *endpoint_alloc(void);
/* Charge ep, just allocated, to owner, its creator, and its job (which ep
 * then holds a reference of): 0, or ERR_LIMIT / ERR_QUOTA / ERR_NOSPC
 * (then free ep with kfree(), it was never anyone's). */
int endpoint_adopt(struct endpoint *ep, struct proc *owner);
/* ep will never have a receiver again: fail every wait on it (ERR_DEAD). */
void endpoint_kill(struct endpoint *ep);
/* p is gone: the endpoints it made stop counting against it (they live
 * on while others hold handles, in the system-wide count). */
void endpoint_disown_all(struct proc *p);
/* svc.c: the names p published are free again (p is gone). */
void svc_release(struct proc *p);

/* ipc.c: a thread leaves: fail the caller waiting for its reply. */
void ipc_thread_gone(struct uthread *ut);

/* usercopy.c: the only ways into user memory (checked ranges, faults
 * caught): 0 or ERR_FAULT. */
int copy_from_user(void *dst, uint64_t src, uint64_t n);
int copy_to_user(uint64_t dst, const void *src, uint64_t n);
/* A user string with its NUL in at most max bytes: its length, ERR_FAULT
 * or ERR_TOOBIG. */
int64_t copy_str_from_user(char *dst, uint64_t src, uint64_t max);

/* syscall.c: a system call's handler reads its arguments from the frame
 * and returns RAX (the IPC calls also write other registers). */
typedef int64_t (*syscall_fn)(struct trap_frame *tf);
extern const syscall_fn syscall_table[SYS_COUNT];

#endif
