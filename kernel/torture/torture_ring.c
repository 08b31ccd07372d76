/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_ring.c — per-CPU rings of recent torture operations (see
 * torture_ring.h). Each CPU writes only its own ring; a spinlock per ring
 * keeps a reader's copy whole.
 */
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/spinlock.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>
#include <torture/torture_ring.h>

#define RING_LEN 12   /* operations kept per CPU */

struct ring_event {
	uint64_t ns;
	uint32_t tid;
	uint8_t op;
	int64_t arg;
};

struct ring {
	struct spinlock lock;
	uint64_t count;                  /* operations ever noted */
	struct ring_event ev[RING_LEN];
};

static struct ring rings[MAXCPU];

static const char *const op_names[TOP_NOPS] = {
	"create", "join", "sleep", "wake", "yield", "nice", "pin", "unpin",
	"spawn", "reap", "knob", "hfi", "bench", "check",
};

/* See torture_ring.h. */
const char *torture_op_name(unsigned op)
{
	return op < TOP_NOPS ? op_names[op] : "?";
}

/* See torture_ring.h. */
void torture_ring_reset(void)
{
	for (unsigned c = 0; c < MAXCPU; c++) {
		rings[c].lock = (struct spinlock)SPINLOCK_INIT("torture ring");
		rings[c].count = 0;
	}
}

/* See torture_ring.h. */
void torture_note(enum torture_op op, int64_t arg)
{
	struct ring_event e = { time_ns(), thread_id(thread_current()), (uint8_t)op, arg };
	preempt_disable();
	struct ring *r = &rings[cpu_current()];
	uint64_t flags = spin_lock_irqsave(&r->lock);
	r->ev[r->count++ % RING_LEN] = e;
	spin_unlock_irqrestore(&r->lock, flags);
	preempt_enable();
}

/* See torture_ring.h. */
void torture_ring_dump(void)
{
	for (unsigned c = 0; c < smp_cpu_count() && c < MAXCPU; c++) {
		struct ring copy;
		uint64_t flags = spin_lock_irqsave(&rings[c].lock);
		copy = rings[c];
		spin_unlock_irqrestore(&rings[c].lock, flags);
		uint64_t first = copy.count > RING_LEN ? copy.count - RING_LEN : 0;
		printk("torture: cpu %u, last %lu of %lu operations:\n", c, (unsigned long)(copy.count - first),
		       (unsigned long)copy.count);
		for (uint64_t i = first; i < copy.count; i++) {
			const struct ring_event *e = &copy.ev[i % RING_LEN];
			printk("  %lu.%06lu s  tid %u  %s %ld\n", (unsigned long)(e->ns / 1000000000ull),
			       (unsigned long)(e->ns % 1000000000ull / 1000), e->tid, torture_op_name(e->op),
			       (long)e->arg);
		}
	}
}
