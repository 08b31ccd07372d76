/* SPDX-License-Identifier: BSD-2-Clause */
/* ulimit.c — the limits of what processes may create, and their counts in
 * processes and jobs (see ulimit.h), each limit a sysctl. */
#include <user/ulimit.h>
#include <mosaic/syscall.h>
#include <kern/printk.h>
#include <lib/sysctl.h>
#include <user/user.h>

struct ulimit {
	const char *name;
	int64_t per_proc, job, total, reserve;   /* sysctls: plain aligned words */
	uint64_t refused_proc, refused_job, refused_total;   /* atomic */
};

/* The defaults (docs/userland.md, "Limits"). The page numbers are set at
 * boot from the memory free then (ulimit_set_pages_total()). */
static struct ulimit limits[UL_COUNT] = {
	[UL_THREADS] = { "threads", THREADS_MAX, 512, 1024, 64 },
	[UL_PROCS] = { "procs", 32, 64, 128, 16 },
	[UL_HANDLES] = { "handles", HANDLES_MAX, 1024, 2048, 64 },
	[UL_ENDPOINTS] = { "endpoints", 16, 256, 512, 16 },
	[UL_PAGES] = { "pages", 16384, 32768, 65536, 4096 },
	[UL_MAPPINGS] = { "mappings", 1024, 32768, 65536, 1024 },
	[UL_NAMES] = { "names", 4, 16, SVC_TOTAL_MAX, 8 },
};

/* See ulimit.h. Its quotas are the totals, read where they are used. */
struct ujob ujob_root = { .id = 0 };

#define UL_SYSCTL(kind, nm, pmax, tmax, what)                                                    \
	SYSCTL_INT(kern_user_##nm##_per_proc, "kern.user." #nm "_per_proc",                     \
		   &limits[kind].per_proc, 1, 0, pmax, what " one process may hold");           \
	SYSCTL_INT(kern_user_##nm##_job, "kern.user." #nm "_job", &limits[kind].job, 1, 0, tmax, \
		   what " the processes of a job started from now on (and of the jobs below "   \
		   "it) may hold together");                                                    \
	SYSCTL_INT(kern_user_##nm##_total, "kern.user." #nm "_total", &limits[kind].total, 1, 0, \
		   tmax, what " all processes together may hold");                              \
	SYSCTL_INT(kern_user_##nm##_reserve, "kern.user." #nm "_reserve", &limits[kind].reserve, \
		   1, 0, tmax, "of the total of " what ", the part only the operator (the shell, " \
		   "init) may take")
UL_SYSCTL(UL_THREADS, threads, 4096, 65536, "threads (exited, unjoined ones too)");
UL_SYSCTL(UL_PROCS, procs, 4096, 65536, "processes (per process: children not yet collected)");
UL_SYSCTL(UL_HANDLES, handles, HANDLES_MAX, 1 << 20, "handles");
UL_SYSCTL(UL_ENDPOINTS, endpoints, 1 << 20, 1 << 20, "endpoints created and alive");
UL_SYSCTL(UL_PAGES, pages, 1 << 24, 1 << 28, "user pages (program, stacks, mappings, page tables)");
UL_SYSCTL(UL_MAPPINGS, mappings, 1 << 20, 1 << 24, "SYS_VM_MAP regions");
UL_SYSCTL(UL_NAMES, names, SVC_TOTAL_MAX, SVC_TOTAL_MAX, "published service names");

static int64_t ulimit_load(const int64_t *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

/* What job j may hold of kind k; < 0: no quota of its own. The root's
 * is the total, less the reserve unless the caller may take it. */
static int64_t ulimit_quota(const struct ujob *j, enum ulimit_kind k)
{
	if (j != &ujob_root)
		return j->quota[k];
	int64_t total = ulimit_load(&limits[k].total);
	return ulimit_reserve_allowed() ? total : total - ulimit_load(&limits[k].reserve);
}

/* Raises j's count of kind k by n if it stays within quota (< 0: always).
 * Compare-and-swap, so concurrent charges never take it past the quota.
 * 1 if taken. */
static int ulimit_take(struct ujob *j, enum ulimit_kind k, uint32_t n, int64_t quota)
{
	uint64_t now = __atomic_load_n(&j->use[k], __ATOMIC_RELAXED);
	do {
		if (quota >= 0 && (int64_t)(now + n) > quota)
			return 0;
	} while (!__atomic_compare_exchange_n(&j->use[k], &now, now + n, 0, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return 1;
}

/* Lowers the counts of kind k by n from j up to, not including, stop. */
static void ulimit_give_back(struct ujob *j, struct ujob *stop, enum ulimit_kind k, uint32_t n)
{
	for (; j != stop; j = j->parent)
		__atomic_fetch_sub(&j->use[k], n, __ATOMIC_RELAXED);
}

/* See ulimit.h. A job refusal rolls back the jobs below the refusing one;
 * a refusal is counted in the kind's numbers and at the refusing job. */
int ulimit_charge(enum ulimit_kind k, struct ujob *job, uint32_t *use, uint32_t n)
{
	struct ulimit *l = &limits[k];
	if (use && (int64_t)*use + n > ulimit_load(&l->per_proc)) {
		__atomic_fetch_add(&l->refused_proc, 1, __ATOMIC_RELAXED);
		return ERR_LIMIT;
	}
	struct ujob *first = job ? job : &ujob_root;
	for (struct ujob *j = first; j; j = j->parent) {
		if (ulimit_take(j, k, n, ulimit_quota(j, k)))
			continue;
		ulimit_give_back(first, j, k, n);
		__atomic_fetch_add(&j->refused[k], 1, __ATOMIC_RELAXED);
		int err = j == &ujob_root ? ERR_NOSPC : ERR_QUOTA;
		__atomic_fetch_add(err == ERR_NOSPC ? &l->refused_total : &l->refused_job, 1,
				   __ATOMIC_RELAXED);
		ulimit_report_refusal(k, j, err);
		return err;
	}
	if (use)
		*use += n;
	return 0;
}

/* See ulimit.h. */
void ulimit_uncharge(enum ulimit_kind k, struct ujob *job, uint32_t *use, uint32_t n)
{
	ulimit_give_back(job ? job : &ujob_root, NULL, k, n);
	if (use)
		*use -= n;
}

/* See ulimit.h. */
void ulimit_disown(enum ulimit_kind k, uint32_t *use, uint32_t n)
{
	(void)k;
	*use -= n;
}

/* See ulimit.h. */
void ulimit_job_quotas(struct ujob *job, int unbounded)
{
	for (int k = 0; k < UL_COUNT; k++)
		job->quota[k] = unbounded ? -1 : ulimit_load(&limits[k].job);
}

/* See ulimit.h. */
void ulimit_set_pages_total(int64_t pages)
{
	__atomic_store_n(&limits[UL_PAGES].total, pages, __ATOMIC_RELAXED);
	__atomic_store_n(&limits[UL_PAGES].job, pages / 2, __ATOMIC_RELAXED);
	__atomic_store_n(&limits[UL_PAGES].reserve, pages / 16, __ATOMIC_RELAXED);
}

/* See ulimit.h. */
void ulimit_get(enum ulimit_kind k, struct ulimit_info *out)
{
	const struct ulimit *l = &limits[k];
	*out = (struct ulimit_info){
		.name = l->name,
		.per_proc = ulimit_load(&l->per_proc),
		.job = ulimit_load(&l->job),
		.total = ulimit_load(&l->total),
		.reserve = ulimit_load(&l->reserve),
		.in_use = __atomic_load_n(&ujob_root.use[k], __ATOMIC_RELAXED),
		.refused_proc = __atomic_load_n(&l->refused_proc, __ATOMIC_RELAXED),
		.refused_job = __atomic_load_n(&l->refused_job, __ATOMIC_RELAXED),
		.refused_total = __atomic_load_n(&l->refused_total, __ATOMIC_RELAXED),
	};
}

/* See ulimit.h. */
const char *ulimit_name(enum ulimit_kind k)
{
	return limits[k].name;
}

/* See user.h: the kinds of job_info are ulimit.h's (proc.c checks). */
const char *user_limit_name(unsigned k)
{
	return ulimit_name((enum ulimit_kind)k);
}

/* See user.h. */
void user_print_limits(void)
{
	for (int k = 0; k < UL_COUNT; k++) {
		struct ulimit_info i;
		ulimit_get((enum ulimit_kind)k, &i);
		printk("ustat: %-9s limit %ld per process, %ld per job, %ld in all, %ld reserved; %lu in "
		       "use; refused %lu (process limit), %lu (job quota), %lu (total)\n", i.name,
		       i.per_proc, i.job, i.total, i.reserve, i.in_use, i.refused_proc, i.refused_job,
		       i.refused_total);
	}
}
