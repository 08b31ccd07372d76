/* sysfuzz — random system calls:  sysfuzz [--seed S] [--count N]
 * N calls (default 100000) with random numbers (also unknown and huge
 * ones) and random arguments: small and huge integers, and pointers into
 * its own memory (writable, read-only text, its stack), to unmapped and
 * never-mapped pages, to kernel and non-canonical addresses, and ranges
 * that run off the end of the user half. The kernel must answer each with
 * a result or an error and never crash; everything it allocated for this
 * process is freed when it ends (the QEMU test compares `ustat`). Calls
 * may write where its pointers point: its own buffer, or a part of the
 * stack nothing else uses (never its frames).
 * Not fuzzed: SYS_EXIT and SYS_THREAD_EXIT (they would end the run) and
 * the content of SYS_CONSOLE_WRITE (its buffer is always a bad pointer,
 * so the console stays readable); blocking calls get timeouts of at most
 * 100 us, SYS_WORK at most 1 ms, and new threads start at a function that
 * exits at once (a random entry would fault and end the run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define BUF_BYTES 8192
#define EXTRA_NUMBERS 8          /* unknown numbers above SYS_COUNT */

static uint64_t rng;
static uint8_t buf[BUF_BYTES] __attribute__((aligned(64)));
/* A part of the stack that main() owns and never uses: calls may write
 * there without breaking the fuzzer's own frames. */
static uint8_t *stack_scratch;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A thread the fuzzer starts: it leaves at once. */
void fuzz_thread(void);
__asm__(".text\n.globl fuzz_thread\nfuzz_thread:\n"
	"	mov $" "7" ", %eax\n"      /* SYS_THREAD_EXIT */
	"	syscall\n"
	"	ud2\n");
_Static_assert(SYS_THREAD_EXIT == 7, "fuzz_thread's number");

/* A random argument: an integer or a pointer, good or bad. */
static uint64_t arg(void)
{
	uint64_t r = next();
	switch (r % 16) {
	case 0: return 0;
	case 1: return r >> 60;                               /* small */
	case 2: return (uint64_t)-1 - (r >> 62);              /* -1, -2, ... */
	case 3: return r;                                     /* any 64 bits */
	case 4:
	case 5: return (uint64_t)buf + (r >> 32) % BUF_BYTES;  /* our memory */
	case 6: return (uint64_t)&arg + (r >> 40) % 4096;     /* our text (read-only) */
	case 7: return (uint64_t)stack_scratch + (r >> 40) % 2048;   /* our stack */
	case 8: return 0xffffffff80000000ull + (r >> 36);     /* the kernel image */
	case 9: return 0xffff800000000000ull + (r >> 24);     /* the direct map */
	case 10: return 0x0000800000000000ull + (r >> 24);    /* non-canonical */
	case 11: return 0x00007ffffffff000ull - (r >> 52);    /* the end of the user half */
	case 12: return (r >> 40) % 0x400000;                 /* below the image */
	case 13: return (r >> 50) * 8;                        /* a length */
	case 14: return 0x100000000ull + (r >> 30);           /* the vm_map area */
	default: return (r >> 54) * 4096;
	}
}

/* A timeout for a blocking call: mostly 0, at most 100 us. */
static uint64_t short_timeout(void)
{
	return next() % 4 ? 0 : next() % 100000;
}

/* One IPC call with every message register random. */
static int64_t ipc_fuzz(uint64_t nr)
{
	register uint64_t rdi __asm__("rdi") = next() % 4 ? next() % 40 : arg();
	register uint64_t rsi __asm__("rsi") = arg();
	register uint64_t rdx __asm__("rdx") = arg();
	register uint64_t r10 __asm__("r10") = arg();
	register uint64_t r8 __asm__("r8") = arg();
	register uint64_t r9 __asm__("r9") = arg();
	register uint64_t r12 __asm__("r12") = arg();
	register uint64_t r13 __asm__("r13") = next() % 2 ? next() % 5000 : arg();
	register uint64_t r14 __asm__("r14") = arg();
	register uint64_t r15 __asm__("r15") = next() % 2 ? next() % 5000 : arg();
	register uint64_t rbx __asm__("rbx") = short_timeout();
	int64_t rax = (int64_t)nr;
	__asm__ volatile("syscall"
			 : "+a"(rax), "+r"(rdi), "+r"(rsi), "+r"(rdx), "+r"(r10), "+r"(r8), "+r"(r9),
			   "+r"(r13)
			 : "r"(r12), "r"(r14), "r"(r15), "r"(rbx)
			 : "rcx", "r11", "memory");
	return rax;
}

/* One random call; returns its result. */
static int64_t one_call(void)
{
	uint64_t nr = next() % (SYS_COUNT + EXTRA_NUMBERS);
	if (nr >= SYS_COUNT && next() % 2)
		nr = next();   /* huge numbers too */
	uint64_t a[6] = { arg(), arg(), arg(), arg(), arg(), arg() };
	switch (nr) {
	case SYS_EXIT:
	case SYS_THREAD_EXIT:
		nr = SYS_GETPID;
		break;
	case SYS_WAIT:
	case SYS_THREAD_JOIN:
	case SYS_CONSOLE_READ:
		a[2] = short_timeout();
		break;
	case SYS_SLEEP:
		a[0] = short_timeout();
		break;
	case SYS_WORK:
		a[0] %= 1000000;
		break;
	case SYS_THREAD_CREATE:
		a[0] = (uint64_t)fuzz_thread;
		break;
	case SYS_CONSOLE_WRITE:
		a[0] = 0xffffffff80000000ull + (next() >> 36);
		break;
	case SYS_SPAWN:
		a[0] = 0x10 + next() % 0x1000;     /* never a real program */
		break;
	case SYS_IPC_SEND:
	case SYS_IPC_RECV:
	case SYS_IPC_CALL:
	case SYS_IPC_REPLY:
	case SYS_IPC_REPLY_RECV:
		return ipc_fuzz(nr);
	}
	return syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int main(int argc, char **argv)
{
	int64_t seed = 1, count = 100000;
	for (int i = 1; i < argc; i += 2) {
		int64_t *dst = strcmp(argv[i], "--seed") == 0    ? &seed
			     : strcmp(argv[i], "--count") == 0 ? &count : NULL;
		if (!dst || i + 1 >= argc || parse_int(argv[i + 1], 1, 1000000000, dst)) {
			printf("usage: sysfuzz [--seed S] [--count N]   (S, N: 1..1000000000)\n");
			return 2;
		}
	}
	uint8_t scratch[4096];
	stack_scratch = scratch;
	rng = (uint64_t)seed * 0x9e3779b97f4a7c15ull | 1;
	for (int i = 0; i < BUF_BYTES; i++)
		buf[i] = (uint8_t)next();
	uint64_t ok = 0, errors = 0;
	for (int64_t i = 0; i < count; i++) {
		if (one_call() >= 0)
			ok++;
		else
			errors++;
		if (i % 64 == 0)   /* refill what calls wrote, so pointers stay random */
			for (int k = 0; k < 64; k++)
				buf[next() % BUF_BYTES] = (uint8_t)next();
	}
	printf("sysfuzz: seed %ld: %ld calls, %lu succeeded, %lu returned errors; the kernel "
	       "survived\n", seed, count, ok, errors);
	return 0;
}
