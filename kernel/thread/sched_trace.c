/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_trace.c — the kernel's scheduler trace (see sched_trace.h) and the
 * kernel's side of sched_plat_trace() (kernel/sched/sched_plat.h).
 *
 * Stopping without locks: a writer marks its CPU busy, then checks that
 * recording is on; the stopper clears `recording`, then waits for every
 * CPU's busy mark to clear. Both orders are sequentially consistent, so
 * either the writer sees the stop or the stopper sees the writer.
 */
#include <thread/sched_trace.h>
#include <thread/thread.h>
#include <sched/sched_trace.h>
#include <sched/sched_plat.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/cpu/cpu.h>
#include <lib/string.h>
#include <mm/mm.h>

struct trace_name {
	uint32_t tid;
	uint32_t ready;          /* set (release) once tid and name are written */
	char name[THREAD_NAME_MAX];
};

static struct trace_ring rings[MAXCPU];
static struct trace_rec *mem;            /* every ring's slots, ncpu * size */
static uint32_t size;
static unsigned ncpu;
static int recording;
static uint32_t busy[MAXCPU];
static uint32_t gen;                     /* this trace's number: a thread's name is kept once per trace */
static uint64_t start_ns, end_ns;
static struct trace_name names[SCHED_TRACE_NAMES];
static uint32_t names_claimed, names_dropped;

/* Keeps td's name once per trace. Called at td's switch-in on its CPU,
 * the only place its trace_gen is written (one CPU runs it at a time),
 * inside put_self()'s busy mark. */
static void note_name(struct thread *td)
{
	uint32_t g = __atomic_load_n(&gen, __ATOMIC_RELAXED);
	if (td->trace_gen == g)
		return;
	td->trace_gen = g;
	uint32_t i = __atomic_fetch_add(&names_claimed, 1, __ATOMIC_RELAXED);
	if (i >= SCHED_TRACE_NAMES) {
		__atomic_add_fetch(&names_dropped, 1, __ATOMIC_RELAXED);
		return;
	}
	names[i].tid = td->id;
	memcpy(names[i].name, td->name, sizeof(names[i].name));
	__atomic_store_n(&names[i].ready, 1, __ATOMIC_RELEASE);
}

/* Appends r to the calling CPU's ring if recording, and keeps the name of
 * `named` (NULL: none). Interrupts off. */
static void put_self(const struct trace_rec *r, struct thread *named)
{
	unsigned cpu = cpu_current();
	__atomic_store_n(&busy[cpu], 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&recording, __ATOMIC_SEQ_CST) && cpu < ncpu) {
		if (named)
			note_name(named);
		trace_ring_put(&rings[cpu], r);
	}
	__atomic_store_n(&busy[cpu], 0, __ATOMIC_RELEASE);
}

/* See sched_plat.h: a core's trace point as a record of the calling
 * CPU's ring. Interrupts off, tdq locks may be held; takes none. */
void sched_plat_trace(const struct sched_trace_point *p)
{
	if (!__atomic_load_n(&recording, __ATOMIC_RELAXED))
		return;
	struct thread *td = p->ts ? (struct thread *)((char *)p->ts - __builtin_offsetof(struct thread, ts)) : NULL;
	struct trace_rec r = { p->ns, td ? td->id : 0, p->kind, p->why, (uint16_t)p->from, (uint16_t)p->to, 0 };
	put_self(&r, p->kind == SCHED_TRACE_SWITCH ? td : NULL);
}

/* See sched_trace.h. */
void sched_trace_hfi(uint64_t ns, unsigned cpu, unsigned perf, unsigned ee)
{
	if (!__atomic_load_n(&recording, __ATOMIC_RELAXED))
		return;
	struct trace_rec r = { ns, 0, SCHED_TRACE_HFI, 0, (uint16_t)cpu, (uint16_t)perf, (uint16_t)ee };
	uint64_t flags = cpu_save_flags_cli();
	put_self(&r, NULL);
	cpu_restore_flags(flags);
}

/* See sched_trace.h. */
void sched_trace_stop(void)
{
	if (!__atomic_load_n(&recording, __ATOMIC_RELAXED))
		return;
	sched_trace_points(0);
	__atomic_store_n(&recording, 0, __ATOMIC_SEQ_CST);
	for (unsigned cpu = 0; cpu < MAXCPU; cpu++)
		while (__atomic_load_n(&busy[cpu], __ATOMIC_SEQ_CST))
			cpu_pause();
	end_ns = time_ns();
}

/* See sched_trace.h. */
int sched_trace_start(uint32_t want)
{
	sched_trace_stop();
	unsigned n = smp_cpu_count();
	if (!mem || want != size || n != ncpu) {
		kfree(mem);
		size = 0;
		mem = kzalloc((size_t)n * want * sizeof(*mem));
		if (!mem)
			return -1;
		size = want;
		ncpu = n;
	}
	for (unsigned cpu = 0; cpu < ncpu; cpu++)
		trace_ring_init(&rings[cpu], mem + (size_t)cpu * size, size);
	memset(names, 0, sizeof(names));
	names_claimed = names_dropped = 0;
	__atomic_add_fetch(&gen, 1, __ATOMIC_RELAXED);
	start_ns = end_ns = time_ns();
	__atomic_store_n(&recording, 1, __ATOMIC_SEQ_CST);
	sched_trace_points(1);
	return 0;
}

/* See sched_trace.h. */
void sched_trace_get_status(struct sched_trace_status *st)
{
	*st = (struct sched_trace_status){ 0 };
	st->on = __atomic_load_n(&recording, __ATOMIC_RELAXED);
	st->size = size;
	st->ncpu = size ? ncpu : 0;
	for (unsigned cpu = 0; cpu < st->ncpu; cpu++) {
		st->events += trace_ring_written(&rings[cpu]);
		st->dropped += trace_ring_dropped(&rings[cpu]);
	}
	st->start_ns = start_ns;
	st->end_ns = st->on ? time_ns() : end_ns;
	uint32_t claimed = __atomic_load_n(&names_claimed, __ATOMIC_RELAXED);
	st->names = claimed < SCHED_TRACE_NAMES ? claimed : SCHED_TRACE_NAMES;
	st->names_dropped = __atomic_load_n(&names_dropped, __ATOMIC_RELAXED);
}

/* See sched_trace.h. */
const struct trace_ring *sched_trace_ring(unsigned cpu)
{
	return size && cpu < ncpu ? &rings[cpu] : NULL;
}

/* See sched_trace.h. A slot claimed but not yet filled reads as tid 0, "". */
int sched_trace_name(unsigned i, uint32_t *tid, const char **name)
{
	uint32_t claimed = __atomic_load_n(&names_claimed, __ATOMIC_RELAXED);
	if (i >= claimed || i >= SCHED_TRACE_NAMES)
		return -1;
	int ready = __atomic_load_n(&names[i].ready, __ATOMIC_ACQUIRE);
	*tid = ready ? names[i].tid : 0;
	*name = ready ? names[i].name : "";
	return 0;
}
