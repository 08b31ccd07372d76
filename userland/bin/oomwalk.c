/* SPDX-License-Identifier: BSD-2-Clause */
/* oomwalk — the kernel out of memory at every allocation of a system call
 * (needs `sysctl debug.fail_nth=1`):
 *     oomwalk [spawn|thread|map|ipc]...   (default: all four)
 * For each path and n = 1, 2, ... a fresh child process arms SYS_FAIL_NTH
 * so that the n-th kernel allocation of one call fails — SYS_SPAWN of a
 * program, SYS_THREAD_CREATE, SYS_VM_MAP of 1 MiB, SYS_IPC_CALL with a
 * 1 KiB message to a server process — and checks the call failed with
 * ERR_NOMEM (or succeeded, if that allocation had a fallback) and that
 * what it returned works. The walk ends at the first n beyond the call's
 * last allocation. A fresh process per attempt starts every attempt from
 * the same state (stacks, page tables and regions an earlier attempt left
 * would change which allocations the next one makes). Whether the kernel
 * came back whole is for `ustat` to say: the QEMU test compares it before
 * and after. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define WALK_MAX 1000
#define CHILD_TIMEOUT_NS (60ull * 1000000000ull)
#define HOUR_NS (3600ull * 1000000000ull)

/* How an attempt went (the child's exit status). */
enum { ATT_DONE = 0, ATT_REFUSED = 1, ATT_SURVIVED = 2, ATT_WRONG = 3 };

/* A thread that ends at once. */
void oomwalk_exit_thread(void);
__asm__(".text\n.globl oomwalk_exit_thread\noomwalk_exit_thread:\n"
	"	mov $7, %eax\n"         /* SYS_THREAD_EXIT */
	"	syscall\n"
	"	ud2\n");
_Static_assert(SYS_THREAD_EXIT == 7, "oomwalk_exit_thread's number");

static char msg_buf[1024];

/* The call of path with the n-th allocation armed to fail; *left is the
 * count left afterwards (0: the failure happened). Its result, or an
 * error. name: the IPC server's name. */
static int64_t armed_call(const char *path, uint32_t n, const char *name, int64_t *left)
{
	static const char *const args[] = { "hello", "oomwalk" };
	int h = strcmp(path, "ipc") == 0 ? svc_lookup(name) : 0;
	struct ipc_msg m = { .label = 1, .buf = msg_buf, .len = sizeof(msg_buf) };
	if (h < 0)
		return h;
	fail_nth(n);
	int64_t r = strcmp(path, "spawn") == 0    ? spawn("hello", 2, args, NULL, NULL, 0, 0, 0)
		  : strcmp(path, "thread") == 0 ? syscall6(SYS_THREAD_CREATE,
							   (uint64_t)oomwalk_exit_thread, 0, 0, 0, 0, 0)
		  : strcmp(path, "map") == 0    ? syscall6(SYS_VM_MAP, 1 << 20, 0, 0, 0, 0, 0)
						: ipc_call(h, &m, CHILD_TIMEOUT_NS);
	*left = fail_nth(0);
	if (strcmp(path, "ipc") == 0 && r == 0 && m.label != 2)
		return ERR_INVAL;   /* the server answers label 2 */
	return r;
}

/* One attempt in this (fresh) process: the exit status. */
static int attempt(const char *path, uint32_t n, const char *name)
{
	int64_t left = 0;
	int64_t r = armed_call(path, n, name, &left);
	if (r >= 0) {   /* it worked: use what it made */
		if (strcmp(path, "spawn") == 0)
			wait((int)r, NULL, CHILD_TIMEOUT_NS);
		else if (strcmp(path, "thread") == 0)
			thread_join((int)r, NULL, CHILD_TIMEOUT_NS);
		else if (strcmp(path, "map") == 0)
			memset((void *)r, 0xa5, 1 << 20);
		return left > 0 ? ATT_DONE : ATT_SURVIVED;
	}
	if (r == ERR_NOMEM && left == 0)
		return ATT_REFUSED;
	printf("oomwalk: %s: allocation %u: %s (count left %ld)\n", path, n, strerror((int)r), left);
	return ATT_WRONG;
}

/* The IPC server: answers every call with label 2. */
static int serve(const char *name)
{
	int ep = ep_create();
	if (ep < 0 || svc_publish(ep, name))
		return 1;
	ready();
	static char rbuf[IPC_BUF_MAX];
	struct ipc_msg m = { .rbuf = rbuf, .rcap = sizeof(rbuf) };
	int rc = ipc_recv(ep, &m, IPC_FOREVER);
	for (;;) {
		if (rc == 0) {
			m.label = 2;
			m.buf = NULL;
			m.len = 0;
		}
		rc = ipc_reply_recv(ep, &m, IPC_FOREVER);
	}
}

/* Walks path: 0 if every attempt behaved. */
static int walk(const char *path, const char *name)
{
	unsigned refused = 0, survived = 0;
	for (uint32_t n = 1; n <= WALK_MAX; n++) {
		char num[16];
		snprintf(num, sizeof(num), "%u", n);
		const char *args[] = { "oomwalk", "once", path, num, name };
		int pid = spawn("oomwalk", 5, args, NULL, NULL, 0, 0, 0);
		struct wait_info wi = { 0 };
		if (pid < 0 || wait(pid, &wi, CHILD_TIMEOUT_NS) != pid || wi.how != WAIT_EXITED ||
		    wi.status > ATT_SURVIVED) {
			printf("oomwalk: %s: attempt %u went wrong (%s, how %u, status %d)\n", path, n,
			       strerror(pid < 0 ? pid : 0), wi.how, wi.status);
			return 1;
		}
		if (wi.status == ATT_DONE) {
			printf("oomwalk: %s: allocations 1..%u each made to fail: %u refused with "
			       "ERR_NOMEM, %u survived; attempt %u made no more and worked\n", path,
			       n - 1, refused, survived, n);
			return 0;
		}
		refused += wi.status == ATT_REFUSED;
		survived += wi.status == ATT_SURVIVED;
	}
	printf("oomwalk: %s: more than %u allocations\n", path, WALK_MAX);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "once") == 0) {
		int64_t n;
		if (parse_int(argv[3], 1, WALK_MAX, &n))
			return ATT_WRONG;
		return attempt(argv[2], (uint32_t)n, argv[4]);
	}
	if (argc == 3 && strcmp(argv[1], "serve") == 0)
		return serve(argv[2]);
	if (fail_nth(0) == ERR_PERM) {
		printf("oomwalk: needs sysctl debug.fail_nth=1\n");
		return 2;
	}
	static const char *const all[] = { "spawn", "thread", "map", "ipc" };
	const char *const *paths = argc > 1 ? (const char *const *)argv + 1 : all;
	int npaths = argc > 1 ? argc - 1 : 4;
	char name[32];
	snprintf(name, sizeof(name), "oomwalk.%d", getpid());
	const char *sargs[] = { "oomwalk", "serve", name };
	int server = spawn("oomwalk", 3, sargs, NULL, NULL, 0, SPAWN_WAIT_READY, CHILD_TIMEOUT_NS);
	if (server < 0) {
		printf("oomwalk: no server: %s\n", strerror(server));
		return 1;
	}
	int bad = 0;
	for (int i = 0; i < npaths; i++) {
		int known = 0;
		for (int k = 0; k < 4; k++)
			known |= strcmp(paths[i], all[k]) == 0;
		if (!known) {
			printf("usage: oomwalk [spawn|thread|map|ipc]...\n");
			bad = 1;
			break;
		}
		bad |= walk(paths[i], name);
	}
	kill(server);
	wait(server, NULL, CHILD_TIMEOUT_NS);
	printf("oomwalk: %s\n", bad ? "FAILED" : "every path ok");
	return bad;
}
