/* SPDX-License-Identifier: BSD-2-Clause */
/* limits — hits each limit on what a process may create (docs/userland.md,
 * "Limits") and says what it saw:
 *     limits           every case, each in a child process of its own
 *     limits CASE      one case: threads, procs, handles, endpoints, pages,
 *                      mappings, names, owner, nice
 * Each case makes objects until the kernel refuses one, prints
 *     limits: CASE: N made, then ERR_X
 * gives them back, and checks that one can be made again. `nice` checks
 * the nice capability (run it with `run -n` to see it held); `owner` that
 * a service name stays its owner's until the owner ends. Exit status 0
 * when every refusal was ERR_LIMIT, ERR_QUOTA or ERR_NOSPC and everything
 * came back. */
#include <stdio.h>
#include <string.h>
#include <mosaic.h>

#define MAX_OBJECTS 4096
#define CHILD_TIMEOUT_NS (60ull * 1000000000ull)
#define HOUR_NS (3600ull * 1000000000ull)

static int64_t made[MAX_OBJECTS];

/* A thread that ends at once (its record stays until it is joined). */
void limits_exit_thread(void);
__asm__(".text\n.globl limits_exit_thread\nlimits_exit_thread:\n"
	"	mov $7, %eax\n"         /* SYS_THREAD_EXIT */
	"	syscall\n"
	"	ud2\n");
_Static_assert(SYS_THREAD_EXIT == 7, "limits_exit_thread's number");

/* Prints the refusal line; 0 if it is a limit's error. */
static int refused(const char *what, int n, int64_t err)
{
	printf("limits: %s: %d made, then %s\n", what, n, strerror((int)err));
	return err == ERR_LIMIT || err == ERR_QUOTA || err == ERR_NOSPC ? 0 : 1;
}

/* Prints why the case fails; returns 1. */
static int bad(const char *what, const char *why, int64_t err)
{
	printf("limits: %s: %s (%s)\n", what, why, strerror((int)err));
	return 1;
}

/* Threads, exited and never joined ones count too. */
static int case_threads(void)
{
	int n = 0;
	int64_t r;
	while (n < MAX_OBJECTS &&
	       (r = syscall6(SYS_THREAD_CREATE, (uint64_t)limits_exit_thread, 0, 4096, 0, 0, 0)) >= 0)
		made[n++] = r;
	int rc = refused("threads", n, r);
	if (n == 0)
		return 1;
	if (thread_join((int)made[--n], NULL, IPC_FOREVER))
		return bad("threads", "joining one failed", 0);
	if ((r = syscall6(SYS_THREAD_CREATE, (uint64_t)limits_exit_thread, 0, 4096, 0, 0, 0)) < 0)
		return bad("threads", "no thread after joining one", r);
	made[n++] = r;
	while (n)
		thread_join((int)made[--n], NULL, IPC_FOREVER);
	return rc;
}

/* Children (they sleep until killed). */
static int case_procs(void)
{
	const char *args[] = { "limits", "idle" };
	int n = 0;
	int64_t r;
	while (n < MAX_OBJECTS && (r = spawn("limits", 2, args, NULL, NULL, 0, 0, 0)) > 0)
		made[n++] = r;
	int rc = refused("procs", n, r);
	for (int i = 0; i < n; i++)
		kill((int)made[i]);
	for (int i = 0; i < n; i++)
		if (wait((int)made[i], NULL, CHILD_TIMEOUT_NS) != made[i])
			rc = bad("procs", "a child was not collected", 0);
	if ((r = spawn("limits", 2, args, NULL, NULL, 0, 0, 0)) <= 0)
		return bad("procs", "no child after collecting them", r);
	kill((int)r);
	wait((int)r, NULL, CHILD_TIMEOUT_NS);
	return rc;
}

/* Handles: one endpoint, then send handles to it from lookups. */
static int case_handles(void)
{
	char name[32];
	snprintf(name, sizeof(name), "limits.h%d", getpid());
	int ep = ep_create();
	if (ep < 0 || svc_publish(ep, name))
		return bad("handles", "no endpoint to look up", ep);
	int n = 1;
	int64_t r;
	while (n < MAX_OBJECTS && (r = svc_lookup(name)) >= 0)
		made[n++] = r;
	int rc = refused("handles", n, r);
	handle_close((int)made[n - 1]);
	if ((r = svc_lookup(name)) < 0)
		return bad("handles", "no handle after closing one", r);
	made[n - 1] = r;
	for (int i = 1; i < n; i++)
		handle_close((int)made[i]);
	return rc;
}

/* Endpoints created (each with its handle). */
static int case_endpoints(void)
{
	int n = 0;
	int64_t r;
	while (n < MAX_OBJECTS && (r = ep_create()) >= 0)
		made[n++] = r;
	int rc = refused("endpoints", n, r);
	for (int i = 0; i < n; i++)
		handle_close((int)made[i]);
	if ((r = ep_create()) < 0)
		return bad("endpoints", "no endpoint after closing them", r);
	handle_close((int)r);
	return rc;
}

/* Pages: 1 MiB mappings until the page limit; unmapped, the first
 * address comes back. */
static int case_pages(void)
{
	int n = 0;
	int64_t r;
	while (n < MAX_OBJECTS && (r = syscall6(SYS_VM_MAP, 1 << 20, 0, 0, 0, 0, 0)) >= 0)
		made[n++] = r;
	int rc = refused("pages (1 MiB mappings)", n, r);
	for (int i = 0; i < n; i++)
		vm_unmap((void *)made[i], 1 << 20);
	if (n && (r = syscall6(SYS_VM_MAP, 1 << 20, 0, 0, 0, 0, 0)) != made[0])
		return bad("pages", "the first range was not reused", r);
	vm_unmap((void *)r, 1 << 20);
	return rc;
}

/* Mappings: one page each until the region limit. */
static int case_mappings(void)
{
	int n = 0;
	int64_t r;
	while (n < MAX_OBJECTS && (r = syscall6(SYS_VM_MAP, 4096, 0, 0, 0, 0, 0)) >= 0)
		made[n++] = r;
	int rc = refused("mappings", n, r);
	for (int i = 0; i < n; i++)
		vm_unmap((void *)made[i], 4096);
	if ((r = syscall6(SYS_VM_MAP, 4096, 0, 0, 0, 0, 0)) < 0)
		return bad("mappings", "no mapping after unmapping them", r);
	vm_unmap((void *)r, 4096);
	return rc;
}

/* Service names published. */
static int case_names(void)
{
	int ep = ep_create();
	if (ep < 0)
		return bad("names", "no endpoint", ep);
	char name[32];
	int n = 0;
	int64_t r;
	do {
		snprintf(name, sizeof(name), "limits.%d.%d", getpid(), n);
	} while ((r = svc_publish(ep, name)) == 0 && ++n < MAX_OBJECTS);
	return refused("names", n, r);   /* released when this process ends */
}

/* A name stays its owner's: others get ERR_EXIST even while the owner's
 * endpoint is dead (lookups then ERR_DEAD); once the owner ends, anyone
 * may publish it. */
static int case_owner(void)
{
	char name[32];
	snprintf(name, sizeof(name), "limits.o%d", getpid());
	const char *args[] = { "limits", "publish", name };
	int ep = ep_create();
	int child = spawn("limits", 3, args, NULL, NULL, 0, SPAWN_WAIT_READY, CHILD_TIMEOUT_NS);
	if (ep < 0 || child <= 0)
		return bad("owner", "no endpoint or child", child);
	int64_t taken = svc_publish(ep, name), dead = svc_lookup(name);
	kill(child);
	wait(child, NULL, CHILD_TIMEOUT_NS);
	int64_t after = svc_publish(ep, name);
	printf("limits: owner: another's name: publish %s, lookup %s (its endpoint closed); after "
	       "it ended: publish %s\n", strerror((int)taken), strerror((int)dead),
	       strerror((int)after));
	return taken == ERR_EXIST && dead == ERR_DEAD && after == 0 ? 0 : 1;
}

/* The nice capability: raising nice always works, lowering it needs the
 * capability, and only a holder can pass it on. */
static int case_nice(void)
{
	int up = set_nice(0, 5), down = set_nice(0, 0), neg = set_nice(0, -5);
	const char *args[] = { "limits", "nicechild" };
	int child = spawn("limits", 2, args, NULL, NULL, 0, SPAWN_CAP_NICE, 0);
	struct wait_info wi = { 0 };
	if (child > 0)
		wait(child, &wi, CHILD_TIMEOUT_NS);
	int held = down == 0;
	printf("limits: nice: 0 -> 5 %s, 5 -> 0 %s, -> -5 %s; passing it on %s%s; %s\n",
	       strerror(up), strerror(down), strerror(neg), child > 0 ? "ok" : strerror(child),
	       child > 0 ? (wi.how == WAIT_EXITED && wi.status == 0 ? " (the child lowered its nice)"
								    : " (the child could NOT)")
			 : "", held ? "capability held" : "no capability");
	if (up != 0)
		return 1;
	if (held)
		return neg == 0 && child > 0 && wi.how == WAIT_EXITED && wi.status == 0 ? 0 : 1;
	return down == ERR_PERM && neg == ERR_PERM && child == ERR_PERM ? 0 : 1;
}

static const struct {
	const char *name;
	int (*fn)(void);
} cases[] = {
	{ "threads", case_threads }, { "procs", case_procs }, { "handles", case_handles },
	{ "endpoints", case_endpoints }, { "pages", case_pages }, { "mappings", case_mappings },
	{ "names", case_names }, { "owner", case_owner }, { "nice", case_nice },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "idle") == 0) {
		sleep_ns(HOUR_NS);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "nicechild") == 0)
		return set_nice(0, -5) == 0 ? 0 : 1;
	if (argc == 3 && strcmp(argv[1], "publish") == 0) {
		int ep = ep_create();
		if (ep < 0 || svc_publish(ep, argv[2]))
			return 1;
		handle_close(ep);   /* the endpoint dies; the name stays ours */
		ready();
		sleep_ns(HOUR_NS);
		return 0;
	}
	for (size_t i = 0; argc == 2 && i < NCASES; i++)
		if (strcmp(argv[1], cases[i].name) == 0)
			return cases[i].fn();
	if (argc != 1) {
		printf("usage: limits [threads|procs|handles|endpoints|pages|mappings|names|owner|nice]\n");
		return 2;
	}
	unsigned ok = 0;
	for (size_t i = 0; i < NCASES; i++) {
		const char *args[] = { "limits", cases[i].name };
		int pid = spawn("limits", 2, args, NULL, NULL, 0, SPAWN_CAP_NICE, 0);
		if (pid == ERR_PERM)   /* we hold no nice capability to pass on */
			pid = spawn("limits", 2, args, NULL, NULL, 0, 0, 0);
		struct wait_info wi = { 0 };
		if (pid < 0 || wait(pid, &wi, CHILD_TIMEOUT_NS) != pid) {
			printf("limits: %s: could not run or wait (%s)\n", cases[i].name,
			       strerror(pid < 0 ? pid : ERR_TIMEOUT));
			continue;
		}
		ok += wi.how == WAIT_EXITED && wi.status == 0;
	}
	printf("limits: %u of %lu cases as expected\n", ok, (uint64_t)NCASES);
	return ok == NCASES ? 0 : 1;
}
