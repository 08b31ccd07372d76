/* SPDX-License-Identifier: BSD-2-Clause */
/* trace_ring.c — a single-writer overwrite-oldest event ring (see trace_ring.h). */
#include <lib/trace_ring.h>

/* See trace_ring.h. */
void trace_ring_init(struct trace_ring *r, struct trace_rec *mem, uint32_t cap)
{
	r->rec = mem;
	r->cap = cap;
	__atomic_store_n(&r->written, 0, __ATOMIC_RELEASE);
}

/* See trace_ring.h. The slot is filled before the count that publishes it. */
void trace_ring_put(struct trace_ring *r, const struct trace_rec *ev)
{
	uint64_t i = __atomic_load_n(&r->written, __ATOMIC_RELAXED);
	r->rec[i % r->cap] = *ev;
	__atomic_store_n(&r->written, i + 1, __ATOMIC_RELEASE);
}

/* See trace_ring.h. */
uint64_t trace_ring_written(const struct trace_ring *r)
{
	return __atomic_load_n(&r->written, __ATOMIC_ACQUIRE);
}

/* See trace_ring.h. */
uint64_t trace_ring_dropped(const struct trace_ring *r)
{
	uint64_t n = trace_ring_written(r);
	return n > r->cap ? n - r->cap : 0;
}

/* See trace_ring.h. */
uint64_t trace_ring_first(const struct trace_ring *r)
{
	return trace_ring_dropped(r);
}

/* See trace_ring.h. After the copy, the writer may be filling record
 * `written` (the count not yet advanced), whose slot is that of record
 * written - cap: a record is safe only if it is newer than that. */
int trace_ring_get(const struct trace_ring *r, uint64_t i, struct trace_rec *out)
{
	if (i >= trace_ring_written(r))
		return -1;
	*out = r->rec[i % r->cap];
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	uint64_t now = __atomic_load_n(&r->written, __ATOMIC_RELAXED);
	return now - i < r->cap ? 0 : -1;
}
