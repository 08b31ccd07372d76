/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ulimit.h — limits on what processes may create (docs/userland.md,
 * "Limits" and "Jobs"). For each kind of kernel object a process can make
 * there are four numbers, all sysctls: a limit per process
 * (kern.user.KIND_per_proc), the quota a new job gets (KIND_job), the
 * system-wide total (KIND_total) and the operator's reserve (KIND_reserve),
 * the part of the total that only the operator's charges may take. A
 * refusal is never a panic or a silent drop: the caller gets ERR_LIMIT
 * (its process's limit), ERR_QUOTA (the quota of its job or of a job above
 * it) or ERR_NOSPC (the total), and the refusal is counted for `ustat`.
 *
 * Jobs. Every process belongs to a job (struct ujob, ujob.h); jobs form a
 * tree under the root job, whose quota is the total. A charge is taken at
 * the process, then at its job and at every job above it up to the root,
 * each within its quota, or nowhere: so the processes of a job and of all
 * jobs below it together never hold more than the job's quota, whoever
 * their parents are (an orphan stays in its job).
 *
 * Counting. The counts of jobs are atomic; a process's own count is a
 * field the caller passes, guarded by the caller's lock (user_lock for
 * most kinds, the address space's lock for pages). A NULL count charges
 * the jobs only; a NULL job is the root job.
 *
 * Portable: also built into the host harnesses.
 */
#ifndef MOSAIC_USER_ULIMIT_H
#define MOSAIC_USER_ULIMIT_H
#include <stdint.h>
#include <mosaic/syscall.h>

/* Size of the service-name table: the highest kern.user.names_total. */
#define SVC_TOTAL_MAX 64

enum ulimit_kind {
	UL_THREADS,        /* threads of a process, exited unjoined ones included */
	UL_PROCS,          /* per process: its children not yet collected; jobs: their processes */
	UL_HANDLES,        /* handles in use */
	UL_ENDPOINTS,      /* endpoints created and still alive */
	UL_PAGES,          /* user pages: program, stacks, mappings, page tables */
	UL_MAPPINGS,       /* SYS_VM_MAP regions */
	UL_NAMES,          /* published service names */
	UL_COUNT
};

/* A job: the counts of everything its processes and the jobs below it
 * hold. The accounting fields are ulimit.c's; the life of a job (its
 * references, its kill) is ujob.c's. */
struct ujob {
	uint32_t id;                     /* never reused; 0: the root job */
	struct ujob *parent;             /* NULL: the root job */
	int64_t quota[UL_COUNT];         /* < 0: none of its own (the root: the totals) */
	uint64_t use[UL_COUNT];          /* atomic */
	uint64_t refused[UL_COUNT];      /* atomic: charges its quota refused */
	/* ujob.c, under user_lock */
	uint32_t refs;                   /* processes until freed, jobs below, endpoints charged to it */
	int killed;                      /* no process may join it or a job below it any more */
	int leader;                      /* pid of its first process */
	char name[PROC_NAME_MAX];        /* the program of its first process */
	struct ujob *next;               /* every job but the root */
};

/* The root job: what all processes together hold. */
extern struct ujob ujob_root;

/* One kind's limits, use and refusals (a copy for printing). */
struct ulimit_info {
	const char *name;            /* "threads", ... as in the sysctl names */
	int64_t per_proc, job, total, reserve;   /* the limits */
	uint64_t in_use;             /* system-wide */
	uint64_t refused_proc, refused_job, refused_total;
};

/* Take n objects of kind k for a process whose count is *use (NULL: none)
 * in job (NULL: the root): 0 with every count raised, or ERR_LIMIT /
 * ERR_QUOTA / ERR_NOSPC with nothing changed and the refusal counted (and
 * reported, at a limited rate: ulimit_report_refusal()). The root's quota
 * is the total less the reserve unless ulimit_reserve_allowed(). The
 * caller holds the lock that guards *use. */
int ulimit_charge(enum ulimit_kind k, struct ujob *job, uint32_t *use, uint32_t n);
/* Give n objects of kind k back (as charged). Same lock. */
void ulimit_uncharge(enum ulimit_kind k, struct ujob *job, uint32_t *use, uint32_t n);
/* n objects of kind k stay (still in their jobs) but no longer count
 * against the process whose count is *use: an orphaned child, an endpoint
 * outliving its creator. The lock of *use held. */
void ulimit_disown(enum ulimit_kind k, uint32_t *use, uint32_t n);
/* Set job's quotas to the kern.user.*_job values now (a new job), or to
 * none of its own (the operator's job: bounded by the totals only). */
void ulimit_job_quotas(struct ujob *job, int unbounded);
/* Set the system-wide page total (boot: from the memory the kernel has
 * free then), a job's page quota to half of it and the reserve to a
 * sixteenth. */
void ulimit_set_pages_total(int64_t pages);
/* A copy of kind k's numbers. Lock-free (each number read atomically). */
void ulimit_get(enum ulimit_kind k, struct ulimit_info *out);
/* The name of kind k ("threads", ...). */
const char *ulimit_name(enum ulimit_kind k);

/* Supplied by the environment (the kernel, or a host harness): */
/* 1 if the calling thread makes the operator's charges: a kernel thread
 * (the shell, torture) or a process holding the operator capability
 * (init); they may take the reserve. */
int ulimit_reserve_allowed(void);
/* A charge was refused (err): report it on the console at a limited rate.
 * Any context a charge is made in. */
void ulimit_report_refusal(enum ulimit_kind k, struct ujob *job, int err);

#endif
