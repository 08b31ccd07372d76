/* faults — each kind of user fault once, each in a child process of its
 * own, which the kernel must end with a report while everything else runs
 * on:  faults          runs every case and checks how each child ended
 *      faults CASE     does one case (ptr, kptr, jump, nx, stack, ud, div,
 *                      syscall).
 * `syscall` is not a fault: bad system-call numbers and pointers must come
 * back as errors (ERR_NOSYS, ERR_FAULT) and the child exits 0. */
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

/* Does case name; returns only for `syscall` (its exit status). */
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
