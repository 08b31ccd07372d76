/* SPDX-License-Identifier: BSD-2-Clause */
/* sysfuzz — random system calls, one at a time or in sequences:
 *     sysfuzz [--seed S] [--count N]
 *     sysfuzz --procs P --rounds R [--seed S]
 *
 * Single calls (the first form): N calls (default 100000) with random
 * numbers (also unknown and huge ones) and random arguments: small and
 * huge integers, and pointers into its own memory (writable, read-only
 * text, its stack), to unmapped and never-mapped pages, to kernel and
 * non-canonical addresses, and ranges that run off the end of the user
 * half. The kernel must answer each with a result or an error and never
 * crash; everything it allocated for this process is freed when it ends
 * (the QEMU test compares `ustat`). Calls may write where its pointers
 * point: its own buffer, or a part of the stack nothing else uses (never
 * its frames). Not fuzzed: SYS_EXIT and SYS_THREAD_EXIT (they would end
 * the run) and the content of SYS_CONSOLE_WRITE (its buffer is always a
 * bad pointer, so the console stays readable); blocking calls get
 * timeouts of at most 100 us, SYS_WORK at most 1 ms, and new threads start
 * at a function that exits at once (a random entry would fault and end the
 * run). The program itself never uses malloc, so a random SYS_VM_UNMAP
 * takes nothing it needs.
 *
 * Sequences (the second form): P worker processes at once, each R rounds
 * of a randomly chosen sequence that drives one kind of object to its
 * limit and back (sysfuzz_seq below): map walks to the page limit with
 * partial unmaps, spawn storms of short-lived, faulting and idle children
 * (some killed, some left to be orphaned), threads created and left
 * unjoined, many service names published and looked up, IPC calls to
 * servers that are killed while calls wait, job trees that grow and refill
 * while their jobs are killed at random, and bursts of single calls.
 * Each step's result must be one its call can give. */
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

/* count single calls; the successes in *ok. */
static uint64_t single_calls(int64_t count, uint64_t *ok)
{
	uint64_t errors = 0;
	*ok = 0;
	for (int64_t i = 0; i < count; i++) {
		if (one_call() >= 0)
			(*ok)++;
		else
			errors++;
		if (i % 64 == 0)   /* refill what calls wrote, so pointers stay random */
			for (int k = 0; k < 64; k++)
				buf[next() % BUF_BYTES] = (uint8_t)next();
	}
	return errors;
}

/* ---- sequences ---- */

#define SEQ_TIMEOUT_NS (10ull * 1000000000ull)
#define MAP_BASE  0x100000000ull      /* ulayout.h: USER_MAP_BASE */
#define MAP_LIMIT 0x400000000000ull   /* USER_MAP_LIMIT */
#define SEQ_OBJECTS 64
#define SEQ_CALLERS 2

static int seq_failed;   /* a step returned what its call never may */

/* Checks one result: ok says whether r is one its call may give. */
static void seq_expect(const char *what, int64_t r, int ok)
{
	if (ok)
		return;
	printf("sysfuzz: %s returned %s (%ld)\n", what, strerror((int)r), r);
	seq_failed = 1;
}

/* The errors of running into a limit or a quota, or out of memory (a
 * random SYS_FAIL_NTH of an earlier burst may make any allocation fail). */
static int seq_limit(int64_t r)
{
	return r == ERR_LIMIT || r == ERR_QUOTA || r == ERR_NOSPC || r == ERR_NOMEM;
}

/* Mappings of random sizes up to the page limit, some partly unmapped,
 * then all unmapped; three times. */
static void seq_maps(void)
{
	static uint64_t addr[SEQ_OBJECTS], size[SEQ_OBJECTS];
	for (int pass = 0; pass < 3; pass++) {
		int n = 0;
		while (n < SEQ_OBJECTS) {
			uint64_t sz = next() % 8 == 0 ? 64ull << 20 : (1 + next() % 4096) * 4096;
			int64_t r = syscall6(SYS_VM_MAP, sz, 0, 0, 0, 0, 0);
			if (r < 0) {
				seq_expect("SYS_VM_MAP", r, seq_limit(r));
				break;
			}
			seq_expect("SYS_VM_MAP", r, (uint64_t)r >= MAP_BASE && (uint64_t)r % 4096 == 0 &&
						      (uint64_t)r + sz <= MAP_LIMIT);
			*(volatile uint8_t *)(r + sz - 1) = 1;
			addr[n] = (uint64_t)r;
			size[n++] = sz;
		}
		for (int i = 0; i < n; i++) {
			uint64_t pages = size[i] / 4096, first = next() % pages;
			uint64_t len = (1 + next() % (pages - first)) * 4096;
			int r = next() % 2 ? vm_unmap((void *)(addr[i] + first * 4096), len) : 0;
			seq_expect("SYS_VM_UNMAP (part)", r, r == 0 || seq_limit(r));
		}
		for (int i = 0; i < n; i++) {
			int r = vm_unmap((void *)addr[i], size[i]);
			seq_expect("SYS_VM_UNMAP", r, r == 0);
		}
	}
}

/* Children that exit, sleep a little, fault or idle; the idle ones are
 * killed, some others collected, the rest left to end on their own. */
static void seq_spawns(void)
{
	static int pid[SEQ_OBJECTS], kind[SEQ_OBJECTS];
	int n = 0;
	while (n < SEQ_OBJECTS) {
		char k[4] = { (char)('0' + next() % 4), 0 };
		const char *args[] = { "sysfuzz", "--child", k };
		int r = spawn("sysfuzz", 3, args, NULL, NULL, 0, 0, 0);
		if (r < 0) {
			seq_expect("SYS_SPAWN", r, seq_limit(r));
			break;
		}
		kind[n] = k[0] - '0';
		pid[n++] = r;
	}
	for (int i = 0; i < n; i++) {
		if (kind[i] == 3 || next() % 4 == 0) {
			int r = kill(pid[i]);
			seq_expect("SYS_KILL", r, r == 0 || r == ERR_SRCH);
		}
		if (kind[i] == 3 || next() % 2) {
			int r = wait(pid[i], NULL, SEQ_TIMEOUT_NS);
			seq_expect("SYS_WAIT", r, r == pid[i] || r == ERR_CHILD);
		}
	}
}

/* Threads that exit at once, left unjoined up to the limit; half joined,
 * more made, then all joined. */
static void seq_threads(void)
{
	static int64_t tid[SEQ_OBJECTS];
	int n = 0;
	for (int round = 0; round < 2; round++) {
		while (n < SEQ_OBJECTS) {
			int64_t r = syscall6(SYS_THREAD_CREATE, (uint64_t)fuzz_thread, 0,
					     4096 * (1 + next() % 16), 0, 0, 0);
			if (r < 0) {
				seq_expect("SYS_THREAD_CREATE", r, seq_limit(r));
				break;
			}
			tid[n++] = r;
		}
		for (int i = n - 1; i >= 0; i--) {
			if (round == 0 && next() % 2)
				continue;
			int r = thread_join((int)tid[i], NULL, SEQ_TIMEOUT_NS);
			seq_expect("SYS_THREAD_JOIN", r, r == 0);
			tid[i] = tid[--n];
		}
	}
}

/* The pid of the sequence run a worker belongs to (--run): service names
 * carry it, so workers of runs going on at once (the shell's and torture's)
 * never publish the same name. */
static int64_t seq_run;

/* Names published up to the limit, looked up (ours and other workers' of
 * this run), the endpoint closed (names stay ours: lookups ERR_DEAD), then
 * bound to a new endpoint. */
static void seq_names(int me)
{
	char name[SVC_NAME_MAX];
	int ep = ep_create();
	if (ep < 0) {
		seq_expect("SYS_EP_CREATE", ep, seq_limit(ep));
		return;
	}
	for (int k = 0; k < 8; k++) {
		snprintf(name, sizeof(name), "sysfuzz.%ld.%d.%d", seq_run, me, k);
		int r = svc_publish(ep, name);
		seq_expect("SYS_SVC_PUBLISH", r, r == 0 || seq_limit(r));
	}
	for (int k = 0; k < 16; k++) {
		snprintf(name, sizeof(name), "sysfuzz.%ld.%d.%d", seq_run, (int)(next() % 8) + 1,
			 (int)(next() % 8));
		int h = svc_lookup(name);
		seq_expect("SYS_SVC_LOOKUP", h, h >= 0 || h == ERR_NOENT || h == ERR_DEAD || seq_limit(h));
		if (h >= 0)
			handle_close(h);
	}
	handle_close(ep);
	snprintf(name, sizeof(name), "sysfuzz.%ld.%d.0", seq_run, me);
	int h = svc_lookup(name);
	seq_expect("SYS_SVC_LOOKUP (dead)", h, h == ERR_DEAD || h == ERR_NOENT);
	ep = ep_create();
	if (ep >= 0) {
		int r = svc_publish(ep, name);
		seq_expect("SYS_SVC_PUBLISH (again)", r, r == 0 || seq_limit(r));
		handle_close(ep);
	}
}

static volatile int seq_server_gone;
static int seq_call_handle;

/* A caller thread of seq_ipc(): calls until the server is gone. */
__attribute__((used, noreturn)) static void seq_caller(void *arg)
{
	(void)arg;
	static char msg[256];
	while (!seq_server_gone) {
		struct ipc_msg m = { .label = 7, .buf = msg, .len = next() % sizeof(msg) };
		int r = ipc_call(seq_call_handle, &m, 1000000 * (1 + next() % 20));
		seq_expect("SYS_IPC_CALL", r, r == 0 || r == ERR_DEAD || r == ERR_TIMEOUT || seq_limit(r));
		if (r == ERR_DEAD)
			break;
	}
	thread_exit(0);
}
void seq_caller_entry(void);
__asm__(".text\n.globl seq_caller_entry\nseq_caller_entry:\n"
	"	xor %ebp, %ebp\n"
	"	call seq_caller\n"
	"	ud2\n");

/* A server child that answers calls on its endpoint (published as
 * "sysfuzz.sPID") and ends after a few, or is killed while calls wait:
 * its endpoint dies with it, and every call waiting fails with ERR_DEAD. */
static void seq_ipc(void)
{
	const char *args[] = { "sysfuzz", "--serve", next() % 2 ? "5" : "1000000" };
	int server = spawn("sysfuzz", 3, args, NULL, NULL, 0, SPAWN_WAIT_READY, SEQ_TIMEOUT_NS);
	seq_expect("SYS_SPAWN (server)", server, server > 0 || seq_limit(server));
	char name[SVC_NAME_MAX];
	snprintf(name, sizeof(name), "sysfuzz.s%d", server);
	int ep = server > 0 ? svc_lookup(name) : -1;
	if (server > 0)
		seq_expect("SYS_SVC_LOOKUP (server)", ep, ep >= 0 || ep == ERR_NOENT || ep == ERR_DEAD ||
							    seq_limit(ep));
	seq_call_handle = ep;
	seq_server_gone = 0;
	int64_t tid[SEQ_CALLERS];
	int n = 0;
	for (; server > 0 && ep >= 0 && n < SEQ_CALLERS; n++)
		if ((tid[n] = syscall6(SYS_THREAD_CREATE, (uint64_t)seq_caller_entry, 0, 0, 0, 0, 0)) < 0)
			break;
	if (server > 0) {
		sleep_ns(1000000 * (next() % 30));
		kill(server);
		int r = wait(server, NULL, SEQ_TIMEOUT_NS);
		seq_expect("SYS_WAIT (server)", r, r == server);
	}
	seq_server_gone = 1;
	for (int i = 0; i < n; i++)
		thread_join((int)tid[i], NULL, SEQ_TIMEOUT_NS);
	if (ep >= 0)
		handle_close(ep);
}

#define TREE_ROOTS 4
#define TREE_DEPTH 3

/* A node of a job tree (--node D): below depth 0 it starts 1..3 children
 * of depth D - 1, each in a job of its own or in this one, then for a
 * while kills one of them now and then (its job with it when it leads
 * one) and starts another in its place, as a tree that refills would; then
 * it idles until it is killed. Results are not checked here: a node dies
 * with its job at any moment. */
static int seq_node(int64_t depth)
{
	static int kids[3];
	char d[8];
	snprintf(d, sizeof(d), "%ld", depth - 1);
	const char *args[] = { "sysfuzz", "--node", d };
	int n = depth > 0 ? 1 + (int)(next() % 3) : 0;
	for (int i = 0; i < n; i++)
		kids[i] = spawn("sysfuzz", 3, args, NULL, NULL, 0, next() % 2 ? SPAWN_NEW_JOB : 0, 0);
	for (int round = 0; round < 8 && n; round++) {
		sleep_ns(1000000 * (1 + next() % 10));
		int i = (int)(next() % (uint64_t)n);
		if (kids[i] > 0 && next() % 2) {
			kill(kids[i]);
			wait(kids[i], NULL, SEQ_TIMEOUT_NS);
			kids[i] = spawn("sysfuzz", 3, args, NULL, NULL, 0, next() % 2 ? SPAWN_NEW_JOB : 0, 0);
		}
	}
	sleep_ns(3600ull * 1000000000ull);
	return 0;
}

/* Job trees: up to TREE_ROOTS children, each leading a job of its own,
 * grow trees of nodes (seq_node) that refill as they kill; each root is
 * killed at a random moment, which must end its whole tree (the QEMU test
 * checks that nothing stays), and collected as killed. */
static void seq_jobs(void)
{
	static int roots[TREE_ROOTS];
	char d[8];
	snprintf(d, sizeof(d), "%d", 1 + (int)(next() % TREE_DEPTH));
	const char *args[] = { "sysfuzz", "--node", d };
	int n = 0;
	while (n < TREE_ROOTS) {
		int r = spawn("sysfuzz", 3, args, NULL, NULL, 0, SPAWN_NEW_JOB, 0);
		if (r < 0) {
			seq_expect("SYS_SPAWN (job)", r, seq_limit(r));
			break;
		}
		roots[n++] = r;
	}
	for (int i = 0; i < n; i++) {
		sleep_ns(1000000 * (next() % 40));
		int r = kill(roots[i]);
		seq_expect("SYS_KILL (job)", r, r == 0);
		struct wait_info wi = { 0 };
		r = wait(roots[i], &wi, SEQ_TIMEOUT_NS);
		seq_expect("SYS_WAIT (job)", r, r == roots[i] && wi.how == WAIT_KILLED);
	}
}

static volatile uintptr_t seq_bad_ptr = 16;   /* never mapped; opaque to the compiler */

/* A child of a sequence: --child K (0 exit, 1 sleep, 2 fault, 3 idle),
 * --serve N (publish an endpoint as "sysfuzz.sPID", answer N calls, exit)
 * or --node D (a node of a job tree). */
static int seq_child(const char *how, const char *n)
{
	if (strcmp(how, "--node") == 0) {
		int64_t depth;
		return parse_int(n, 0, TREE_DEPTH, &depth) ? 2 : seq_node(depth);
	}
	if (strcmp(how, "--serve") == 0) {
		int64_t calls;
		static char rbuf[256];
		char name[SVC_NAME_MAX];
		struct ipc_msg m = { .rbuf = rbuf, .rcap = sizeof(rbuf) };
		int ep = ep_create();
		snprintf(name, sizeof(name), "sysfuzz.s%d", getpid());
		if (parse_int(n, 1, 1000000000, &calls) || ep < 0 || svc_publish(ep, name))
			return 2;
		ready();
		int r = ipc_recv(ep, &m, IPC_FOREVER);
		while (calls-- > 0 && (r == 0 || r == ERR_MSGSIZE)) {
			m.buf = NULL;
			m.len = 0;
			r = ipc_reply_recv(ep, &m, IPC_FOREVER);
		}
		return 0;
	}
	switch (n[0]) {
	case '1': sleep_ns(1000000 * (1 + next() % 20)); return 0;
	case '2': return (int)*(volatile uint64_t *)seq_bad_ptr;   /* the kernel ends us */
	case '3': sleep_ns(3600ull * 1000000000ull); return 0;
	default: return 0;
	}
}

/* One worker: rounds random sequences; 0 if every step was sane. */
static int seq_worker(int64_t rounds, int me)
{
	for (int64_t r = 0; r < rounds; r++) {
		switch (next() % 7) {
		case 0: seq_maps(); break;
		case 1: seq_spawns(); break;
		case 2: seq_threads(); break;
		case 3: seq_names(me); break;
		case 4: seq_ipc(); break;
		case 5: seq_jobs(); break;
		default: {
			uint64_t ok;
			single_calls(2000, &ok);
			fail_nth(0);   /* a random arming must not outlive the burst */
			break;
		}
		}
	}
	return seq_failed;
}

/* P workers at once, each with its own seed; 0 if all were sane. */
static int seq_main(int64_t procs, int64_t rounds, int64_t seed)
{
	static int pid[16];
	if (procs > 16)
		procs = 16;
	char r[16], run[16];
	snprintf(r, sizeof(r), "%ld", rounds);
	snprintf(run, sizeof(run), "%d", getpid());
	for (int i = 0; i < procs; i++) {
		char s[16], w[16];
		snprintf(s, sizeof(s), "%ld", seed * 100 + i);
		snprintf(w, sizeof(w), "%d", i + 1);
		const char *args[] = { "sysfuzz", "--worker", w, "--rounds", r, "--seed", s, "--run", run };
		pid[i] = spawn("sysfuzz", 9, args, NULL, NULL, 0, 0, 0);
		if (pid[i] < 0)
			printf("sysfuzz: worker %d: %s\n", i + 1, strerror(pid[i]));
	}
	int bad = 0;
	for (int i = 0; i < procs; i++) {
		struct wait_info wi = { 0 };
		if (pid[i] < 0 || wait(pid[i], &wi, IPC_FOREVER) != pid[i] || wi.how != WAIT_EXITED ||
		    wi.status != 0) {
			printf("sysfuzz: worker %d ended badly (how %u, status %d)\n", i + 1, wi.how,
			       wi.status);
			bad = 1;
		}
	}
	printf("sysfuzz: seed %ld: %ld workers x %ld rounds of sequences: %s\n", seed, procs, rounds,
	       bad ? "FAILED" : "every step sane; the kernel survived");
	return bad;
}

int main(int argc, char **argv)
{
	int64_t seed = 1, count = 100000, procs = 0, rounds = 0, worker = 0;
	if (argc == 3 && (strcmp(argv[1], "--child") == 0 || strcmp(argv[1], "--serve") == 0 ||
			  strcmp(argv[1], "--node") == 0)) {
		rng = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull | 1;
		return seq_child(argv[1], argv[2]);
	}
	for (int i = 1; i < argc; i += 2) {
		int64_t *dst = strcmp(argv[i], "--seed") == 0     ? &seed
			     : strcmp(argv[i], "--count") == 0  ? &count
			     : strcmp(argv[i], "--procs") == 0  ? &procs
			     : strcmp(argv[i], "--rounds") == 0 ? &rounds
			     : strcmp(argv[i], "--worker") == 0 ? &worker
			     : strcmp(argv[i], "--run") == 0    ? &seq_run : NULL;
		if (!dst || i + 1 >= argc || parse_int(argv[i + 1], 1, 1000000000, dst)) {
			printf("usage: sysfuzz [--seed S] [--count N] | --procs P --rounds R [--seed S]"
			       "   (1..1000000000)\n");
			return 2;
		}
	}
	uint8_t scratch[4096];
	stack_scratch = scratch;
	rng = (uint64_t)seed * 0x9e3779b97f4a7c15ull | 1;
	for (int i = 0; i < BUF_BYTES; i++)
		buf[i] = (uint8_t)next();
	if (worker)
		return seq_worker(rounds ? rounds : 1, (int)worker);
	if (procs || rounds)
		return seq_main(procs ? procs : 1, rounds ? rounds : 1, seed);
	uint64_t ok, errors = single_calls(count, &ok);
	printf("sysfuzz: seed %ld: %ld calls, %lu succeeded, %lu returned errors; the kernel "
	       "survived\n", seed, count, ok, errors);
	return 0;
}
