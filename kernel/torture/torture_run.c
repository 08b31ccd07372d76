/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_run.c — one torture pass (torture.h): it turns kern.sched.debug
 * and witness on, starts a worker per online CPU, and itself flips the
 * switches, drives the HFI device and checks every CPU's run queues until
 * the time is up; then it stops and joins the workers, puts everything
 * back and checks that the pass left nothing behind: its threads joined,
 * every thread created since the start exited, every process reaped, the
 * kernel heap as it was and every physical page accounted for. Shell
 * thread only.
 */
#include <mm/mm.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <lib/sysctl.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>
#include <user/user.h>
#include <sched/sched.h>
#include <torture/torture_int.h>

#define CONTROL_PERIOD_NS 2000000ull   /* the controller's round (rounded up to a tick) */
#define SETTLE_NS 100000000ull         /* for the reaper after the workers ended */

extern const struct sysctl_oid __sysctl_start[], __sysctl_end[];
static const struct sysctl_set kernel_set = { __sysctl_start, __sysctl_end };

static struct torture_worker workers[MAXCPU];
static int first_failure_dumped;

/* Everything the pass must give back, sampled before and after. */
struct torture_books {
	uint64_t created, exited, freed, pooled;
	uint64_t procs, user_pages;
	uint64_t page_tables;                   /* bytes of the kernel's page tables */
	struct heap_stats heap;
	struct pmm_stats pmm;
	uint64_t checks;
};

static void books_sample(struct torture_books *b)
{
	thread_counts(&b->created, &b->exited, &b->freed);
	b->pooled = thread_pool_stacks();
	user_counts(&b->procs, &b->user_pages);
	heap_get_stats(&b->heap);
	pmm_get_stats(&b->pmm);
	b->page_tables = vmm_table_bytes();
	b->checks = sched_checks_done();
}

/* See torture_int.h. */
void torture_count(struct torture_pass *p, enum torture_op op, int64_t arg)
{
	__atomic_add_fetch(&p->ops[op], 1, __ATOMIC_RELAXED);
	torture_note(op, arg);
}

/* See torture_int.h. */
void torture_fail(struct torture_pass *p, const char *what, long a, long b)
{
	__atomic_add_fetch(&p->violations, 1, __ATOMIC_RELAXED);
	printk("torture: VIOLATION (seed %lu): %s: %ld, %ld\n", (unsigned long)p->opts.seed, what, a, b);
	if (!__atomic_exchange_n(&first_failure_dumped, 1, __ATOMIC_RELAXED))
		torture_ring_dump();
}

/* Sets sysctl name to value, the old value into old (NULL: not kept). */
static void set_sysctl(const char *name, const char *value, char *old, size_t len)
{
	struct sysctl_ref r;
	char why[128];
	if (sysctl_find(&kernel_set, name, &r)) {
		if (old)
			old[0] = 0;
		return;
	}
	if (old)
		sysctl_format(&r, old, len);
	if (sysctl_write(&r, value, why, sizeof(why)))
		printk("torture: %s=%s: %s\n", name, value, why);
}

/* The workers, one per online CPU, each starting there. 0, or -1 when
 * none could be made. */
static int start_workers(struct torture_pass *p)
{
	p->workers = workers;
	p->nworkers = 0;
	for (unsigned c = 0; c < smp_cpu_count() && c < MAXCPU; c++) {
		if (!smp_cpu_online(c))
			continue;
		struct torture_worker *w = &workers[p->nworkers];
		memset(w, 0, sizeof(*w));
		w->pass = p;
		w->index = p->nworkers++;
		w->rng = p->opts.seed * 0x9e3779b97f4a7c15ull + c + 1;
		sem_init(&w->token, 1, "torture token");
	}
	for (unsigned i = 0; i < p->nworkers; i++) {
		workers[i].td = thread_create("torture", torture_worker_main, &workers[i], NULL);
		if (!workers[i].td) {
			printk("torture: out of memory for worker %u\n", i);
			p->nworkers = i;
			break;
		}
		__atomic_add_fetch(&p->created, 1, __ATOMIC_RELAXED);
	}
	return p->nworkers ? 0 : -1;
}

/* Checks every online CPU's run queues once. */
static void check_queues(struct torture_pass *p)
{
	p->checks += thread_check_queues();
	torture_count(p, TOP_CHECK, 0);
}

/* Stops the workers (a token for anyone waiting in the wake ring) and
 * joins them. */
static void stop_workers(struct torture_pass *p)
{
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < p->nworkers; i++)
		sem_post(&workers[i].token);
	for (unsigned i = 0; i < p->nworkers; i++) {
		thread_join(workers[i].td);
		__atomic_add_fetch(&p->joined, 1, __ATOMIC_RELAXED);
	}
}

/* Bytes of memory the pass may keep by design: new stacks in the thread
 * stack pool, heap arena growth, and the kernel page tables mapping them. */
static uint64_t books_kept(const struct torture_books *a, const struct torture_books *b)
{
	return (b->pooled - a->pooled) * THREAD_STACK_PAGES * PAGE_SIZE + (b->heap.arena_bytes - a->heap.arena_bytes) +
	       (b->page_tables - a->page_tables);
}

/* Compares what the pass must have given back; a violation for each
 * difference. */
static void check_books(struct torture_pass *p, const struct torture_books *a, const struct torture_books *b)
{
	if (p->created != p->joined)
		torture_fail(p, "kernel threads created != joined", (long)p->created, (long)p->joined);
	if (b->created - a->created != b->exited - a->exited)
		torture_fail(p, "threads created since the start != exited", (long)(b->created - a->created),
			     (long)(b->exited - a->exited));
	if (p->spawned != p->reaped)
		torture_fail(p, "user processes spawned != reaped", (long)p->spawned, (long)p->reaped);
	if (a->procs != b->procs || a->user_pages != b->user_pages)
		torture_fail(p, "processes or user pages not back (procs, pages now)", (long)b->procs,
			     (long)b->user_pages);
	if (a->heap.allocations != b->heap.allocations || a->heap.used_bytes != b->heap.used_bytes)
		torture_fail(p, "kernel heap not back (allocations before, after)", (long)a->heap.allocations,
			     (long)b->heap.allocations);
	uint64_t kept = books_kept(a, b);
	if (a->pmm.free_bytes - b->pmm.free_bytes != kept)
		torture_fail(p, "physical pages unaccounted for (bytes gone, bytes kept by pools)",
			     (long)(a->pmm.free_bytes - b->pmm.free_bytes), (long)kept);
}

/* The closing report. */
static void report(const struct torture_pass *p, const struct torture_books *a, const struct torture_books *b,
		   uint64_t ran_ns)
{
	printk("torture: operations:");
	for (unsigned op = 0; op < TOP_NOPS; op++)
		printk(" %s %lu", torture_op_name(op), (unsigned long)p->ops[op]);
	printk("\n");
	printk("torture: invariant checks %lu (the pass's own %lu); violations %d\n",
	       (unsigned long)(b->checks - a->checks), (unsigned long)p->checks, p->violations);
	printk("torture: kernel threads created %lu = joined %lu + alive 0; since the start %lu created, "
	       "%lu exited\n", (unsigned long)p->created, (unsigned long)p->joined,
	       (unsigned long)(b->created - a->created), (unsigned long)(b->exited - a->exited));
	printk("torture: user processes spawned %lu = reaped %lu + alive 0 (refused %lu); processes %lu -> "
	       "%lu, user pages %lu -> %lu\n", (unsigned long)p->spawned, (unsigned long)p->reaped,
	       (unsigned long)p->refused, (unsigned long)a->procs, (unsigned long)b->procs,
	       (unsigned long)a->user_pages, (unsigned long)b->user_pages);
	printk("torture: kernel heap %lu allocations / %lu bytes -> %lu / %lu; free memory %lu -> %lu KiB "
	       "(%lu KiB kept by the stack pool, heap arena and page tables)\n",
	       (unsigned long)a->heap.allocations, (unsigned long)a->heap.used_bytes,
	       (unsigned long)b->heap.allocations, (unsigned long)b->heap.used_bytes,
	       (unsigned long)(a->pmm.free_bytes >> 10), (unsigned long)(b->pmm.free_bytes >> 10),
	       (unsigned long)(books_kept(a, b) >> 10));
	printk("torture: largest wake-up delay past a sleep's end %lu us; ran %lu ms\n",
	       (unsigned long)(p->max_wake_ns / 1000), (unsigned long)(ran_ns / 1000000));
	if (p->violations)
		printk("torture: FAILED: %d violations; reproduce with torture --seed %lu\n", p->violations,
		       (unsigned long)p->opts.seed);
	else
		printk("torture: passed, 0 violations\n");
}

/* See torture.h. */
int torture_run(const struct torture_opts *o)
{
	static struct torture_pass pass;
	struct torture_pass *p = &pass;
	struct torture_books before, after;
	char old_debug[SYSCTL_VALUE_MAX], old_witness[SYSCTL_VALUE_MAX];
	memset(p, 0, sizeof(*p));
	p->opts = *o;
	p->user_slots = TORTURE_USER_SLOTS;
	first_failure_dumped = 0;
	torture_ring_reset();
	thread_reap();
	books_sample(&before);
	set_sysctl("kern.sched.debug", "1", old_debug, sizeof(old_debug));
	set_sysctl("debug.witness", "1", old_witness, sizeof(old_witness));
	if (o->stressors & TORTURE_KNOBS)
		torture_knobs_save();
	p->start_ns = time_ns();
	p->deadline_ns = p->start_ns + o->time_ns;
	uint64_t rng = o->seed * 0xd1342543de82ef95ull + 7;
	if ((o->stressors & (TORTURE_THREADS | TORTURE_USER | TORTURE_BENCH)) && start_workers(p))
		torture_fail(p, "no worker thread could be made", 0, 0);
	printk("torture: seed %lu, %lu ms, %u workers; kern.sched.debug=1 debug.witness=1\n",
	       (unsigned long)o->seed, (unsigned long)(o->time_ns / 1000000), p->nworkers);
	while (time_ns() < p->deadline_ns) {
		if (o->stressors & TORTURE_KNOBS)
			torture_knobs_flip(p, &rng);
		if (o->stressors & TORTURE_HFI)
			torture_hfi_drive(p, &rng);
		check_queues(p);
		thread_sleep_ns(CONTROL_PERIOD_NS);
	}
	stop_workers(p);
	uint64_t ran = time_ns() - p->start_ns;
	if (o->stressors & TORTURE_KNOBS)
		torture_knobs_restore();
	if (o->stressors & TORTURE_HFI)
		torture_hfi_restore();
	check_queues(p);
	thread_sleep_ns(SETTLE_NS);
	thread_reap();
	set_sysctl("debug.witness", old_witness[0] ? old_witness : "0", NULL, 0);
	set_sysctl("kern.sched.debug", old_debug[0] ? old_debug : "0", NULL, 0);
	books_sample(&after);
	check_books(p, &before, &after);
	report(p, &before, &after, ran);
	return p->violations;
}

/* See torture.h. */
int torture_parse_stressors(const char *list, unsigned *mask, char *err, size_t len)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{ "threads", TORTURE_THREADS }, { "user", TORTURE_USER }, { "knobs", TORTURE_KNOBS },
		{ "hfi", TORTURE_HFI }, { "bench", TORTURE_BENCH }, { "all", TORTURE_ALL },
	};
	*mask = 0;
	for (const char *s = list; *s;) {
		size_t n = 0;
		while (s[n] && s[n] != ',')
			n++;
		unsigned k = 0;
		while (k < sizeof(names) / sizeof(names[0]) &&
		       (strlen(names[k].name) != n || strncmp(names[k].name, s, n)))
			k++;
		if (k == sizeof(names) / sizeof(names[0])) {
			ksnprintf(err, len, "'%.*s' is not a stressor (threads, user, knobs, hfi, bench, all)",
				  (int)(n < 24 ? n : 24), s);
			return -1;
		}
		*mask |= names[k].bit;
		s += n + (s[n] == ',');
	}
	if (!*mask) {
		ksnprintf(err, len, "no stressor named");
		return -1;
	}
	return 0;
}
