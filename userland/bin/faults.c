/* SPDX-License-Identifier: BSD-2-Clause */
/* faults — each kind of user fault once, each in a child process of its
 * own, which the kernel must end with a report while everything else runs
 * on:  faults          runs every case and checks how each child ended
 *      faults CASE     does one case (ptr, kptr, jump, nx, stack, ud, div,
 *                      syscall, vmwalk, spawnrace).
 * The last three are not faults: the child must exit 0.
 *  - syscall: bad system-call numbers and pointers come back as errors
 *    (ERR_NOSYS, ERR_FAULT).
 *  - vmwalk: SYS_VM_MAP calls that fail must not move where the next
 *    mapping goes. It repeats what once stopped the kernel: 64 MiB
 *    mappings over the process's page limit until a cursor that advanced
 *    on every failure would have reached the end of the map area, exactly
 *    the remainder, then on past the end (where that cursor walked over
 *    the stacks into a kernel assertion); then a small mapping must land
 *    at the lowest free address and be usable.
 *  - spawnrace: a spawn that fails half-way (each of its kernel
 *    allocations made to fail in turn, SYS_FAIL_NTH: needs `sysctl
 *    debug.fail_nth=1`) must never show its child to a sibling thread
 *    waiting in SYS_WAIT(-1) (it once could reap and free it first). */
#include <stdio.h>
#include <string.h>
#include <mosaic.h>

#define CHILD_TIMEOUT_NS (30ull * 1000000000ull)

struct fcase {
	const char *name;
	int faults;                 /* 1: must end WAIT_FAULTED; 0: must exit 0 */
	const char *what;
};

static const struct fcase cases[] = {
	{ "ptr", 1, "read through a bad pointer" },
	{ "kptr", 1, "write to a kernel address" },
	{ "jump", 1, "wild jump to unmapped memory" },
	{ "nx", 1, "jump into the (non-executable) stack" },
	{ "stack", 1, "stack overflow into the guard page" },
	{ "ud", 1, "illegal instruction" },
	{ "div", 1, "divide by zero" },
	{ "syscall", 0, "bad system-call numbers and pointers return errors" },
	{ "vmwalk", 0, "failed SYS_VM_MAP calls move nothing" },
	{ "spawnrace", 0, "a half-built child is never seen by SYS_WAIT" },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static volatile uint64_t sink;
/* Addresses and a depth the compiler cannot see through. */
static volatile uintptr_t bad_ptr = 0x10, kernel_ptr = 0xffffffff80100000ull,
			  wild_ptr = 0x3ffff000ull;
static volatile uint64_t depth_limit = ~0ull;

/* Recurses until the stack's guard page stops it. */
static __attribute__((noinline)) uint64_t deep(uint64_t n)
{
	volatile uint8_t pad[512];
	pad[0] = (uint8_t)n;
	if (n == depth_limit)
		return 0;
	return deep(n + 1) + pad[0];
}

/* Bad system calls: each must fail with the expected error. 0 if all did. */
static int bad_syscalls(void)
{
	struct { uint64_t nr, a, b; int64_t want; } t[] = {
		{ SYS_COUNT, 0, 0, ERR_NOSYS },
		{ 0xffffffffull, 0, 0, ERR_NOSYS },
		{ ~0ull, 0, 0, ERR_NOSYS },
		{ SYS_CONSOLE_WRITE, 0x10, 5, ERR_FAULT },
		{ SYS_CONSOLE_WRITE, 0xffffffff80000000ull, 16, ERR_FAULT },
		{ SYS_CONSOLE_WRITE, 0x7ffffffff000ull - 8, 64, ERR_FAULT },
		{ SYS_CONSOLE_WRITE, 0x400000, ~0ull, ERR_TOOBIG },
		{ SYS_THREAD_STATS, 0, 0xffff800000000000ull, ERR_FAULT },
		{ SYS_WAIT, (uint64_t)-1, 0xdeadbeef000ull, ERR_CHILD },
		{ SYS_SVC_LOOKUP, 0x1000, 0, ERR_FAULT },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int64_t r = syscall6(t[i].nr, t[i].a, t[i].b, 0, 0, 0, 0);
		if (r != t[i].want) {
			printf("faults: system call %lu (%lx, %lx) returned %ld, expected %s\n", t[i].nr,
			       t[i].a, t[i].b, r, strerror((int)t[i].want));
			bad = 1;
		}
	}
	return bad;
}

#define MAP_AREA_BASE  0x100000000ull      /* ulayout.h: USER_MAP_BASE */
#define MAP_AREA_LIMIT 0x400000000000ull   /* USER_MAP_LIMIT */
#define USER_HALF_TOP  0x7ffffffff000ull   /* USER_TOP */
#define BIG_MAP        (64ull << 20)

/* vmwalk: 0 if every failed mapping left the next one where it belongs. */
static int vm_walk(void)
{
	uint64_t step = BIG_MAP + 4096, calls = 0;
	int64_t first = syscall6(SYS_VM_MAP, BIG_MAP, 0, 0, 0, 0, 0);
	if (first >= 0) {
		printf("faults: vmwalk: a 64 MiB mapping fit (the page limit is higher?)\n");
		return 1;
	}
	/* Where a cursor advancing by size + guard on each failure would be. */
	for (uint64_t at = MAP_AREA_BASE + step; at + step <= MAP_AREA_LIMIT; at += step, calls++) {
		int64_t r = syscall6(SYS_VM_MAP, BIG_MAP, 0, 0, 0, 0, 0);
		if (r != first) {
			printf("faults: vmwalk: call %lu returned %s, the first %s\n", calls,
			       strerror((int)r), strerror((int)first));
			return 1;
		}
	}
	uint64_t rest = MAP_AREA_LIMIT - (MAP_AREA_BASE + (calls + 1) * step);
	int64_t r = syscall6(SYS_VM_MAP, rest, 0, 0, 0, 0, 0);
	if (r >= 0)   /* small enough to fit the page limit: a real mapping */
		vm_unmap((void *)r, rest);
	for (uint64_t at = MAP_AREA_LIMIT + 4096; at < USER_HALF_TOP; at += step, calls++)
		syscall6(SYS_VM_MAP, BIG_MAP, 0, 0, 0, 0, 0);
	int64_t small = syscall6(SYS_VM_MAP, 4096, 0, 0, 0, 0, 0);
	if (small < (int64_t)MAP_AREA_BASE || small >= (int64_t)MAP_AREA_LIMIT) {
		printf("faults: vmwalk: after %lu failed calls a page mapping returned %lx\n", calls,
		       (uint64_t)small);
		return 1;
	}
	*(volatile uint64_t *)small = 42;
	vm_unmap((void *)small, 4096);
	int64_t again = syscall6(SYS_VM_MAP, 4096, 0, 0, 0, 0, 0);
	if (again != small) {
		printf("faults: vmwalk: a page unmapped at %lx was not reused (%lx)\n",
		       (uint64_t)small, (uint64_t)again);
		return 1;
	}
	printf("faults: vmwalk: %lu failed 64 MiB mappings (%s), then a page at %lx, reused after "
	       "unmapping\n", calls + 2, strerror((int)first), (uint64_t)small);
	return 0;
}

static volatile int race_over, race_bad;

/* spawnrace's sibling: collects any child the moment it is visible; one
 * whose end says nothing (how 0) was never a started process. */
static uint64_t race_waiter(void *arg)
{
	(void)arg;
	while (!race_over) {
		struct wait_info wi = { 0 };
		int pid = wait(-1, &wi, 0);
		if (pid > 0 && wi.how == 0) {
			printf("faults: spawnrace: collected pid %d with no end recorded\n", pid);
			race_bad = 1;
		}
	}
	return 0;
}

/* spawnrace: 0 if no failed spawn was ever visible. */
static int spawn_race(void)
{
	if (fail_nth(0) == ERR_PERM) {
		printf("faults: spawnrace: needs sysctl debug.fail_nth=1\n");
		return 4;
	}
	int tid = thread_create(race_waiter, NULL, 0);
	if (tid < 0) {
		printf("faults: spawnrace: no waiter thread: %s\n", strerror(tid));
		return 1;
	}
	const char *args[] = { "hello", "race" };
	unsigned failed = 0, points = 0;
	for (int round = 0; round < 3; round++) {
		for (uint32_t n = 1; n < 100000; n++) {
			fail_nth(n);
			int pid = spawn("hello", 2, args, NULL, NULL, 0, 0, 0);
			int64_t left = fail_nth(0);
			if (pid < 0 && pid != ERR_NOMEM) {
				printf("faults: spawnrace: allocation %u failed the spawn with %s\n", n,
				       strerror(pid));
				race_bad = 1;
			}
			failed += pid < 0;
			if (left > 0) {   /* the spawn made fewer than n allocations */
				points = n - 1;
				break;
			}
		}
	}
	race_over = 1;
	thread_join(tid, NULL, IPC_FOREVER);
	while (wait(-1, NULL, 5000000000ull) > 0)
		;
	printf("faults: spawnrace: each of the %u allocations of a spawn failed in turn (%u failed "
	       "spawns), %s\n", points, failed,
	       race_bad ? "SEEN by the waiting sibling" : "none seen by the waiting sibling");
	return race_bad;
}

/* Does case name; returns only for the cases that must not fault (their
 * exit status). */
static int do_case(const char *name)
{
	if (strcmp(name, "ptr") == 0)
		sink = *(volatile uint64_t *)bad_ptr;
	else if (strcmp(name, "kptr") == 0)
		*(volatile uint64_t *)kernel_ptr = 1;
	else if (strcmp(name, "jump") == 0)
		((void (*)(void))wild_ptr)();
	else if (strcmp(name, "nx") == 0) {
		volatile uint8_t code[16] = { 0xc3 };   /* ret, on the stack */
		((void (*)(void))(uintptr_t)code)();
	} else if (strcmp(name, "stack") == 0)
		sink = deep(0);
	else if (strcmp(name, "ud") == 0)
		__asm__ volatile("ud2");
	else if (strcmp(name, "div") == 0) {
		uint64_t q = 7, zero = 0;
		__asm__ volatile("xor %%edx, %%edx; divq %1" : "+a"(q) : "r"(zero) : "rdx");
		sink = q;
	} else if (strcmp(name, "syscall") == 0)
		return bad_syscalls();
	else if (strcmp(name, "vmwalk") == 0)
		return vm_walk();
	else if (strcmp(name, "spawnrace") == 0)
		return spawn_race();
	else {
		printf("faults: unknown case '%s'\n", name);
		return 2;
	}
	printf("faults: case %s did not fault\n", name);
	return 3;
}

int main(int argc, char **argv)
{
	if (argc == 2)
		return do_case(argv[1]);
	if (argc > 2) {
		printf("usage: faults [CASE]\n");
		return 2;
	}
	unsigned caught = 0;
	for (size_t i = 0; i < NCASES; i++) {
		const char *args[] = { "faults", cases[i].name };
		int pid = spawn("faults", 2, args, NULL, NULL, 0, 0, 0);
		struct wait_info wi;
		if (pid < 0 || wait(pid, &wi, CHILD_TIMEOUT_NS) != pid) {
			printf("faults: %s: could not run or wait (%s)\n", cases[i].name,
			       strerror(pid < 0 ? pid : ERR_TIMEOUT));
			continue;
		}
		int ok = cases[i].faults ? wi.how == WAIT_FAULTED
					 : wi.how == WAIT_EXITED && wi.status == 0;
		caught += ok;
		printf("faults: %-8s %s: %s (how %u, vector/status %d, address %lx)\n", cases[i].name,
		       cases[i].what, ok ? "caught" : "NOT CAUGHT", wi.how, wi.status, wi.addr);
	}
	printf("faults: %u of %lu caught\n", caught, (uint64_t)NCASES);
	return caught == NCASES ? 0 : 1;
}
