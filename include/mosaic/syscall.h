/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mosaic/syscall.h — the system-call interface: numbers, register
 * conventions, error codes, limits and the structures that cross it.
 *
 * Shared by the kernel (kernel/user/) and userland (userland/lib/): plain
 * fixed-width types only. docs/userland.md describes every call.
 *
 * Calling convention (the `syscall` instruction): RAX = number; arguments
 * in RDI, RSI, RDX, R10, R8, R9; the result in RAX: >= 0 on success, one
 * of the negative ERR_* codes otherwise. RCX and R11 are clobbered (the
 * CPU uses them for the return address and flags); every other register
 * is preserved, except that the IPC calls use more registers for the
 * message (below). An unknown number returns ERR_NOSYS.
 *
 * IPC calls (SYS_IPC_*): the message travels in registers.
 *   in:  RDI handle, RSI label, RDX R10 R8 R9 words 0..3,
 *        R12 send buffer, R13 its length, R14 receive buffer, R15 its
 *        capacity, RBX timeout (ns; IPC_FOREVER waits forever, 0 never
 *        blocks)
 *   out: RAX status, RSI label, RDX R10 R8 R9 words 0..3, R13 bytes the
 *        sender sent in its buffer, RDI the sender's badge (receive:
 *        pid << 32 | tid; a reply: 0)
 * Registers not listed are preserved.
 */
#ifndef MOSAIC_SYSCALL_H
#define MOSAIC_SYSCALL_H
#include <stdint.h>

/* ---- numbers ---- */
enum sys_number {
	SYS_EXIT = 0,          /* (int status 0..255): ends the process; ERR_INVAL if out of range */
	SYS_SPAWN,             /* (const struct spawn_req *) -> pid */
	SYS_WAIT,              /* (int pid or -1, struct wait_info *, uint64_t timeout_ns) -> pid */
	SYS_KILL,              /* (int pid): a child of the caller, with its job if it leads one -> 0 */
	SYS_GETPID,            /* () -> pid */
	SYS_READY,             /* (): wake a spawner waiting with SPAWN_WAIT_READY -> 0 */
	SYS_THREAD_CREATE,     /* (entry, arg, stack bytes or 0) -> tid; entry(arg) in the new thread */
	SYS_THREAD_EXIT,       /* (uint64_t value): ends the calling thread */
	SYS_THREAD_JOIN,       /* (tid, uint64_t *value or 0, uint64_t timeout_ns) -> 0 */
	SYS_GETTID,            /* () -> tid */
	SYS_SLEEP,             /* (uint64_t ns) -> 0 */
	SYS_YIELD,             /* () -> 0 */
	SYS_SET_AFFINITY,      /* (tid or 0, const uint64_t *mask, uint64_t bytes) -> 0 */
	SYS_GET_AFFINITY,      /* (tid or 0, uint64_t *mask, uint64_t bytes) -> 0 */
	SYS_SET_NICE,          /* (tid or 0, int nice -20..20) -> 0; below the thread's nice
				* now needs the nice capability (ERR_PERM) */
	SYS_THREAD_STATS,      /* (tid or 0, struct thread_stats *) -> 0 */
	SYS_CONSOLE_WRITE,     /* (const char *buf, uint64_t len) -> len */
	SYS_CONSOLE_READ,      /* (char *buf, uint64_t len, uint64_t timeout_ns) -> bytes */
	SYS_TIME,              /* () -> ns since boot (monotonic) */
	SYS_CPU,               /* () -> the CPU the caller runs on */
	SYS_CPU_INFO,          /* (cpu, struct cpu_info *) -> number of CPUs */
	SYS_WORK,              /* (uint64_t ns <= WORK_CALL_NS_MAX): ns of P-core work -> ns counted (>= ns) */
	SYS_VM_MAP,            /* (uint64_t bytes): fresh zeroed RW memory -> its address */
	SYS_EP_CREATE,         /* () -> handle (send and receive) */
	SYS_HANDLE_CLOSE,      /* (handle) -> 0 */
	SYS_SVC_PUBLISH,       /* (handle with receive right, const char *name) -> 0 */
	SYS_SVC_LOOKUP,        /* (const char *name) -> new handle (send only) */
	SYS_IPC_SEND,          /* message to a receiver; blocks until it is taken */
	SYS_IPC_RECV,          /* next message; a call leaves the caller waiting for our reply */
	SYS_IPC_CALL,          /* send, then wait for the reply (into the receive buffer) */
	SYS_IPC_REPLY,         /* (the message only) answer the call we received last */
	SYS_IPC_REPLY_RECV,    /* reply (if a call is pending), then receive */
	SYS_VM_UNMAP,          /* (addr, bytes): unmap SYS_VM_MAP memory in [addr, addr + bytes) -> 0 */
	SYS_FAIL_NTH,          /* (n): the calling thread's n-th kernel allocation from now fails
				* (0: none) -> the count left before (0: it happened); needs
				* sysctl debug.fail_nth=1 (ERR_PERM otherwise) */
	SYS_COUNT
};

/* ---- errors (RAX < 0) ---- */
#define ERR_INVAL    (-1)    /* an argument is out of its range */
#define ERR_FAULT    (-2)    /* a pointer (or pointer + length) is not the caller's memory */
#define ERR_NOSYS    (-3)    /* no such system call */
#define ERR_NOMEM    (-4)    /* the kernel is out of memory */
#define ERR_PERM     (-5)    /* not allowed (e.g. not a child, not the console's owner) */
#define ERR_NOENT    (-6)    /* no such program or service name */
#define ERR_SRCH     (-7)    /* no such process or thread (of the caller) */
#define ERR_CHILD    (-8)    /* nothing to wait for */
#define ERR_BADH     (-9)    /* not a handle of the caller, or without the right needed */
#define ERR_TIMEOUT  (-10)   /* the timeout passed first (0: the call would have blocked) */
#define ERR_DEAD     (-11)   /* the peer or endpoint went away */
#define ERR_NOSPC    (-12)   /* a system-wide total is reached (sysctl kern.user.*_total) */
#define ERR_EXIST    (-13)   /* the name is taken */
#define ERR_MSGSIZE  (-14)   /* the buffer sent does not fit the receiver's */
#define ERR_NOREPLY  (-15)   /* no call to reply to */
#define ERR_TOOBIG   (-16)   /* a string or list is longer than its limit */
#define ERR_NOEXEC   (-17)   /* the program file is not a valid executable */
#define ERR_BUSY     (-18)   /* the thread is already being joined */
#define ERR_LIMIT    (-19)   /* over the process's own limit (sysctl kern.user.*_per_proc) */
#define ERR_QUOTA    (-20)   /* over the quota of its job or of a job above it (kern.user.*_job) */

/* ---- limits ----
 * Fixed sizes of the interface. The limits on what a process may create
 * (threads, children, handles, endpoints, pages, mappings, service names)
 * are sysctls, kern.user.*_per_proc, *_job, *_total and *_reserve
 * (docs/userland.md, "Limits" and "Jobs"); the per-process maxima here
 * are their upper bounds. */
#define PROC_NAME_MAX      32              /* program name, with its NUL */
#define SPAWN_ARGC_MAX     32              /* argv[0] included */
#define SPAWN_ARG_MAX      256             /* one argument, with its NUL */
#define SPAWN_ARGS_TOTAL   4096            /* all arguments, with their NULs */
#define SPAWN_HANDLES_MAX  8
#define HANDLES_MAX        32              /* handle slots of one process */
#define THREADS_MAX        64              /* threads of one process, exited unjoined ones too */
#define SVC_NAME_MAX       32              /* service name, with its NUL */
#define IPC_BUF_MAX        4096            /* bytes of a message's buffer */
#define TIMEOUT_MAX_NS     (3600ull * 1000000000ull)   /* an hour; longer: IPC_FOREVER */
#define IPC_FOREVER        (~0ull)
#define SLEEP_MAX_NS       TIMEOUT_MAX_NS
#define WORK_CALL_NS_MAX   100000000ull    /* 100 ms of work per SYS_WORK (a kill waits no longer) */
#define STACK_DEFAULT      (64u * 1024)    /* a new thread's stack */
#define STACK_MAX          (1024u * 1024)
#define MAIN_STACK_SIZE    (256u * 1024)   /* the first thread's stack */
#define CONSOLE_WRITE_MAX  4096            /* bytes per SYS_CONSOLE_WRITE */
#define CONSOLE_READ_MAX   256

/* ---- structures ---- */

/* SYS_SPAWN: run program `path` (a name in the boot archive) with argv
 * (argc strings, argv[0] included). handles[i] of the caller becomes the
 * child's handle i, with the rights rights[i] & the caller's. */
#define SPAWN_WAIT_READY 0x1   /* return once the child called SYS_READY (or ended), or after ready_timeout_ns */
#define SPAWN_CAP_NICE   0x2   /* the child gets the nice capability (the caller must hold it) */
#define SPAWN_NEW_JOB    0x4   /* the child starts a job of its own below the caller's: it and
				* all it starts are charged to that job too, and killing the
				* child kills the job */
struct spawn_req {
	const char *path;
	const char *const *argv;
	uint32_t argc;
	uint32_t flags;
	const int32_t *handles;
	const uint32_t *rights;    /* HANDLE_* per handle */
	uint32_t nhandles;
	uint32_t reserved;         /* 0 */
	uint64_t ready_timeout_ns;
};

#define HANDLE_SEND 0x1
#define HANDLE_RECV 0x2

/* SYS_WAIT: how a process ended. */
#define WAIT_EXITED  1         /* status = its exit status */
#define WAIT_FAULTED 2         /* status = the exception vector, addr = the faulting address */
#define WAIT_KILLED  3         /* killed (SYS_KILL, the shell); status 0 */
struct wait_info {
	int32_t pid;
	uint32_t how;
	int32_t status;
	uint32_t reserved;
	uint64_t addr;
};

/* SYS_THREAD_STATS: the scheduler's view of one thread of the caller. */
#define CORE_UNKNOWN 0
#define CORE_P       1
#define CORE_E       2
#define CORE_LPE     3
struct thread_stats {
	uint32_t tid;
	int32_t cpu;               /* CPU running it now, -1 if not running */
	int32_t last_cpu;          /* CPU it ran on last */
	int32_t pri, nice;
	uint32_t score;            /* ULE interactivity score 0..100 */
	uint32_t pctcpu;           /* %CPU in hundredths */
	uint32_t has_work;         /* 1: work_ns is the work clock (emulated machines) */
	uint64_t run_ns;           /* CPU time */
	uint64_t work_ns;          /* work done, ns of lone P-core work */
	uint64_t migrations, switches;
	uint64_t run_ns_core[4];   /* run time by core type (CORE_*) */
	uint64_t run_ns_smt_busy;  /* run time while an SMT sibling was busy */
};

/* SYS_CPU_INFO */
struct cpu_info {
	uint32_t online;
	uint32_t core_type;        /* CORE_* */
	uint32_t core_id;          /* CPUs with equal core_id are SMT siblings */
	uint32_t reserved;
};

#endif
