/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the scheduler trace's ring (kernel/lib/trace_ring.c):
 * empty rings, records read back in order, overwrite-oldest with every
 * overwritten record counted as dropped, rings that do not touch each
 * other (one per CPU, each bounded by its own size), and the reader's
 * refusal of a record the writer may be overwriting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <lib/trace_ring.h>

static struct trace_rec ev(uint64_t ns, uint32_t tid)
{
	return (struct trace_rec){ .ns = ns, .tid = tid, .kind = 1, .a = (uint16_t)tid };
}

/* Puts records 0..n-1 (time i, thread i) into r. */
static void put_n(struct trace_ring *r, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct trace_rec e = ev(i, i);
		trace_ring_put(r, &e);
	}
}

static void test_empty_ring_dumps_nothing(void **state)
{
	(void)state;
	struct trace_rec mem[4], out;
	struct trace_ring r;
	memset(mem, 0x5a, sizeof(mem));
	trace_ring_init(&r, mem, 4);
	assert_int_equal(trace_ring_written(&r), 0);
	assert_int_equal(trace_ring_dropped(&r), 0);
	assert_int_equal(trace_ring_first(&r), 0);
	assert_int_equal(trace_ring_get(&r, 0, &out), -1);
	assert_int_equal(trace_ring_get(&r, 1000, &out), -1);
}

static void test_records_read_back_in_order(void **state)
{
	(void)state;
	struct trace_rec mem[8], out;
	struct trace_ring r;
	trace_ring_init(&r, mem, 8);
	for (uint32_t i = 0; i < 5; i++) {
		struct trace_rec e = ev(100 + i, i + 1);
		trace_ring_put(&r, &e);
	}
	assert_int_equal(trace_ring_written(&r), 5);
	assert_int_equal(trace_ring_dropped(&r), 0);
	for (uint64_t i = 0; i < 5; i++) {
		assert_int_equal(trace_ring_get(&r, i, &out), 0);
		assert_int_equal(out.ns, 100 + i);
		assert_int_equal(out.tid, i + 1);
	}
	assert_int_equal(trace_ring_get(&r, 5, &out), -1);   /* not written yet */
}

static void test_wrap_keeps_newest_and_counts_dropped(void **state)
{
	(void)state;
	struct trace_rec mem[4], out;
	struct trace_ring r;
	trace_ring_init(&r, mem, 4);
	put_n(&r, 11);
	assert_int_equal(trace_ring_written(&r), 11);
	assert_int_equal(trace_ring_dropped(&r), 7);
	assert_int_equal(trace_ring_first(&r), 7);
	for (uint64_t i = 0; i < 7; i++)
		assert_int_equal(trace_ring_get(&r, i, &out), -1);   /* overwritten */
	/* The oldest kept slot is the one the writer fills next: a reader
	 * cannot know the writer is idle, so it refuses it. */
	assert_int_equal(trace_ring_get(&r, 7, &out), -1);
	for (uint64_t i = 8; i < 11; i++) {
		assert_int_equal(trace_ring_get(&r, i, &out), 0);
		assert_int_equal(out.ns, i);
	}
}

static void test_exactly_full_ring_keeps_all(void **state)
{
	(void)state;
	struct trace_rec mem[3], out;
	struct trace_ring r;
	trace_ring_init(&r, mem, 3);
	put_n(&r, 2);
	/* two of three slots: the writer's next slot is free, so both are safe */
	assert_int_equal(trace_ring_get(&r, 0, &out), 0);
	assert_int_equal(trace_ring_get(&r, 1, &out), 0);
	struct trace_rec e = ev(2, 2);
	trace_ring_put(&r, &e);
	assert_int_equal(trace_ring_dropped(&r), 0);
	assert_int_equal(trace_ring_get(&r, 0, &out), -1);   /* the next write's slot */
	assert_int_equal(trace_ring_get(&r, 2, &out), 0);
}

static void test_per_cpu_rings_are_independent_and_bounded(void **state)
{
	(void)state;
	enum { NCPU = 3, CAP = 5 };
	/* one block of memory cut into per-CPU rings as the kernel does, with a
	 * guard record after each ring that must never be written */
	static struct trace_rec mem[NCPU * (CAP + 1)];
	struct trace_ring r[NCPU];
	memset(mem, 0, sizeof(mem));
	for (int c = 0; c < NCPU; c++) {
		trace_ring_init(&r[c], mem + c * (CAP + 1), CAP);
		mem[c * (CAP + 1) + CAP] = ev(~0ull, 0xdead);
	}
	for (uint32_t i = 0; i < 1000; i++) {   /* CPU 0 floods its ring */
		struct trace_rec e = ev(i, 7);
		trace_ring_put(&r[0], &e);
	}
	struct trace_rec e = ev(42, 9);
	trace_ring_put(&r[2], &e);
	assert_int_equal(trace_ring_dropped(&r[0]), 1000 - CAP);
	assert_int_equal(trace_ring_written(&r[1]), 0);
	assert_int_equal(trace_ring_dropped(&r[1]), 0);
	assert_int_equal(trace_ring_written(&r[2]), 1);
	assert_int_equal(trace_ring_dropped(&r[2]), 0);
	struct trace_rec out;
	assert_int_equal(trace_ring_get(&r[2], 0, &out), 0);
	assert_int_equal(out.tid, 9);
	assert_int_equal(out.ns, 42);
	for (int c = 0; c < NCPU; c++) {
		assert_int_equal(mem[c * (CAP + 1) + CAP].ns, ~0ull);
		assert_int_equal(mem[c * (CAP + 1) + CAP].tid, 0xdead);
	}
}

static void test_restart_empties_the_ring(void **state)
{
	(void)state;
	struct trace_rec mem[2], out;
	struct trace_ring r;
	trace_ring_init(&r, mem, 2);
	put_n(&r, 9);
	trace_ring_init(&r, mem, 2);
	assert_int_equal(trace_ring_written(&r), 0);
	assert_int_equal(trace_ring_dropped(&r), 0);
	assert_int_equal(trace_ring_get(&r, 0, &out), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_ring_dumps_nothing),
		cmocka_unit_test(test_records_read_back_in_order),
		cmocka_unit_test(test_wrap_keeps_newest_and_counts_dropped),
		cmocka_unit_test(test_exactly_full_ring_keeps_all),
		cmocka_unit_test(test_per_cpu_rings_are_independent_and_bounded),
		cmocka_unit_test(test_restart_empties_the_ring),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
