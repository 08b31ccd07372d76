/*
 * ulimit.h — limits on what processes may create (docs/userland.md,
 * "Limits"): for each kind of kernel object a process can make, a limit
 * per process and a system-wide total, both sysctls
 * (kern.user.KIND_per_proc, kern.user.KIND_total). A refusal is never a
 * panic or a silent drop: the caller gets ERR_LIMIT (its own limit) or
 * ERR_NOSPC (the total), and the refusal is counted for `ustat`.
 *
 * Counting. The system-wide count of each kind is atomic; a process's own
 * count is a field the caller passes, guarded by the caller's lock
 * (user_lock for most kinds, the address space's lock for pages). A NULL
 * count charges the total only: the kernel, the parent of the processes
 * it starts, has no limit of its own.
 *
 * Portable: also built into the host harnesses.
 */
#ifndef MOSAIC_USER_ULIMIT_H
#define MOSAIC_USER_ULIMIT_H
#include <stdint.h>

/* Size of the service-name table: the highest kern.user.names_total. */
#define SVC_TOTAL_MAX 64

enum ulimit_kind {
	UL_THREADS,        /* threads of a process, exited unjoined ones included */
	UL_PROCS,          /* per process: its children not yet collected; total: all processes */
	UL_HANDLES,        /* handles in use */
	UL_ENDPOINTS,      /* endpoints created and still alive */
	UL_PAGES,          /* user pages: program, stacks, mappings, page tables */
	UL_MAPPINGS,       /* SYS_VM_MAP regions */
	UL_NAMES,          /* published service names */
	UL_COUNT
};

/* One kind's limits, use and refusals (a copy for printing). */
struct ulimit_info {
	const char *name;            /* "threads", ... as in the sysctl names */
	int64_t per_proc, total;     /* the limits */
	uint64_t in_use;             /* system-wide */
	uint64_t refused_proc, refused_total;
};

/* Take n objects of kind k for a process whose count is *use (NULL: only
 * the total applies): 0 with both counts raised, or ERR_LIMIT / ERR_NOSPC
 * with nothing changed and the refusal counted. The caller holds the lock
 * that guards *use. */
int ulimit_charge(enum ulimit_kind k, uint32_t *use, uint32_t n);
/* Give n objects of kind k back (as charged). Same lock. */
void ulimit_uncharge(enum ulimit_kind k, uint32_t *use, uint32_t n);
/* n objects of kind k stay (still in the total) but no longer count
 * against the process whose count is *use: an orphaned child, an
 * endpoint outliving its creator. The lock of *use held. */
void ulimit_disown(enum ulimit_kind k, uint32_t *use, uint32_t n);
/* The per-process limit of kind k now. Lock-free. */
int64_t ulimit_per_proc(enum ulimit_kind k);
/* Set the system-wide page total (boot: from the memory the kernel has
 * free then). */
void ulimit_set_pages_total(int64_t pages);
/* A copy of kind k's numbers. Lock-free (each number read atomically). */
void ulimit_get(enum ulimit_kind k, struct ulimit_info *out);

#endif
