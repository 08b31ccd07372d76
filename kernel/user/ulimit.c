/* ulimit.c — the limits of what processes may create and their counts
 * (see ulimit.h), each limit a sysctl. */
#include "ulimit.h"
#include <mosaic/syscall.h>
#include <printk.h>
#include <sysctl.h>
#include <user.h>

struct ulimit {
	const char *name;
	int64_t per_proc, total;         /* sysctls: plain aligned words */
	uint64_t in_use;                 /* atomic */
	uint64_t refused_proc, refused_total;   /* atomic */
};

/* The defaults (docs/userland.md, "Limits"). The page total is set at
 * boot from the memory free then (ulimit_set_pages_total()). */
static struct ulimit limits[UL_COUNT] = {
	[UL_THREADS] = { "threads", THREADS_MAX, 1024 },
	[UL_PROCS] = { "procs", 32, 128 },
	[UL_HANDLES] = { "handles", HANDLES_MAX, 2048 },
	[UL_ENDPOINTS] = { "endpoints", 16, 512 },
	[UL_PAGES] = { "pages", 16384, 65536 },
	[UL_MAPPINGS] = { "mappings", 1024, 65536 },
	[UL_NAMES] = { "names", 4, SVC_TOTAL_MAX },
};

#define UL_SYSCTL(kind, nm, pmax, tmax, what)                                                    \
	SYSCTL_INT(kern_user_##nm##_per_proc, "kern.user." #nm "_per_proc",                     \
		   &limits[kind].per_proc, 1, 0, pmax, what " one process may hold");           \
	SYSCTL_INT(kern_user_##nm##_total, "kern.user." #nm "_total", &limits[kind].total, 1, 0, \
		   tmax, what " all processes together may hold")
UL_SYSCTL(UL_THREADS, threads, 4096, 65536, "threads (exited, unjoined ones too)");
UL_SYSCTL(UL_PROCS, procs, 4096, 65536, "children not yet collected (total: processes)");
UL_SYSCTL(UL_HANDLES, handles, HANDLES_MAX, 1 << 20, "handles");
UL_SYSCTL(UL_ENDPOINTS, endpoints, 1 << 20, 1 << 20, "endpoints created and alive");
UL_SYSCTL(UL_PAGES, pages, 1 << 24, 1 << 28, "user pages (program, stacks, mappings, page tables)");
UL_SYSCTL(UL_MAPPINGS, mappings, 1 << 20, 1 << 24, "SYS_VM_MAP regions");
UL_SYSCTL(UL_NAMES, names, SVC_TOTAL_MAX, SVC_TOTAL_MAX, "published service names");

/* See ulimit.h. The total is raised by compare-and-swap, so concurrent
 * charges never take it past its limit. */
int ulimit_charge(enum ulimit_kind k, uint32_t *use, uint32_t n)
{
	struct ulimit *l = &limits[k];
	int64_t per_proc = __atomic_load_n(&l->per_proc, __ATOMIC_RELAXED);
	int64_t total = __atomic_load_n(&l->total, __ATOMIC_RELAXED);
	if (use && (int64_t)*use + n > per_proc) {
		__atomic_fetch_add(&l->refused_proc, 1, __ATOMIC_RELAXED);
		return ERR_LIMIT;
	}
	uint64_t now = __atomic_load_n(&l->in_use, __ATOMIC_RELAXED);
	do {
		if ((int64_t)(now + n) > total) {
			__atomic_fetch_add(&l->refused_total, 1, __ATOMIC_RELAXED);
			return ERR_NOSPC;
		}
	} while (!__atomic_compare_exchange_n(&l->in_use, &now, now + n, 0, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	if (use)
		*use += n;
	return 0;
}

/* See ulimit.h. */
void ulimit_uncharge(enum ulimit_kind k, uint32_t *use, uint32_t n)
{
	__atomic_fetch_sub(&limits[k].in_use, n, __ATOMIC_RELAXED);
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
int64_t ulimit_per_proc(enum ulimit_kind k)
{
	return __atomic_load_n(&limits[k].per_proc, __ATOMIC_RELAXED);
}

/* See ulimit.h. */
void ulimit_set_pages_total(int64_t pages)
{
	__atomic_store_n(&limits[UL_PAGES].total, pages, __ATOMIC_RELAXED);
}

/* See ulimit.h. */
void ulimit_get(enum ulimit_kind k, struct ulimit_info *out)
{
	const struct ulimit *l = &limits[k];
	*out = (struct ulimit_info){
		.name = l->name,
		.per_proc = __atomic_load_n(&l->per_proc, __ATOMIC_RELAXED),
		.total = __atomic_load_n(&l->total, __ATOMIC_RELAXED),
		.in_use = __atomic_load_n(&l->in_use, __ATOMIC_RELAXED),
		.refused_proc = __atomic_load_n(&l->refused_proc, __ATOMIC_RELAXED),
		.refused_total = __atomic_load_n(&l->refused_total, __ATOMIC_RELAXED),
	};
}

/* See user.h. */
void user_print_limits(void)
{
	for (int k = 0; k < UL_COUNT; k++) {
		struct ulimit_info i;
		ulimit_get((enum ulimit_kind)k, &i);
		printk("ustat: %-9s limit %ld per process, %ld in all; %lu in use; refused %lu "
		       "(process limit), %lu (total)\n", i.name, i.per_proc, i.total, i.in_use,
		       i.refused_proc, i.refused_total);
	}
}
