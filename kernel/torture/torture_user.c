/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_user.c — the user-process stressor: short programs of the boot
 * archive (faults that must fault; system-call fuzzing, and sequences of
 * IPC, spawn and memory calls, that must survive),
 * at most TORTURE_USER_SLOTS at once and one start per USER_GAP_NS in all,
 * each waited for and checked for how it ended.
 */
#include <user/user.h>
#include <arch/x86_64/clock/time.h>
#include <kern/printk.h>
#include <torture/torture_int.h>

#define USER_GAP_NS  100000000ull        /* at most ten starts a second */
#define USER_WAIT_NS 60000000000ull      /* a program that runs longer is a violation */

static const char seed_arg[] = "SEED";   /* an argument replaced by a random seed */

struct user_case {
	const char *argv[8];
	int argc;
	int faults;   /* 1: must end by a fault; 0: must exit with status 0 */
};

static const struct user_case cases[] = {
	{ { "faults", "ud" }, 2, 1 },
	{ { "faults", "div" }, 2, 1 },
	{ { "faults", "ptr" }, 2, 1 },
	{ { "faults", "nx" }, 2, 1 },
	{ { "faults", "syscall" }, 2, 0 },
	{ { "sysfuzz", "--seed", seed_arg, "--count", "300" }, 5, 0 },
	/* a sequence worker: objects to their limits and back, IPC calls to
	 * servers killed while calls wait, spawn storms */
	{ { "sysfuzz", "--procs", "1", "--rounds", "2", "--seed", seed_arg }, 7, 0 },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static uint64_t next_start_ns;   /* the earliest time of the next start (atomic) */

/* Takes a slot and the start time, or returns 0 when either is not free. */
static int claim(struct torture_pass *p)
{
	uint64_t now = time_ns(), next = __atomic_load_n(&next_start_ns, __ATOMIC_RELAXED);
	if (now < next || !__atomic_compare_exchange_n(&next_start_ns, &next, now + USER_GAP_NS, 0,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return 0;
	if (__atomic_sub_fetch(&p->user_slots, 1, __ATOMIC_ACQ_REL) < 0) {
		__atomic_add_fetch(&p->user_slots, 1, __ATOMIC_RELEASE);
		return 0;
	}
	return 1;
}

/* See torture_int.h. */
void torture_user_op(struct torture_pass *p, uint64_t *rng)
{
	if (!claim(p))
		return;
	const struct user_case *c = &cases[torture_rand(rng) % NCASES];
	char seed[24];
	char *argv[8];
	ksnprintf(seed, sizeof(seed), "%lu", (unsigned long)(torture_rand(rng) % 1000000 + 1));
	for (int i = 0; i < c->argc; i++)
		argv[i] = c->argv[i] == seed_arg ? seed : (char *)c->argv[i];
	int pid = user_spawn_kernel(argv[0], c->argc, argv, USER_RUN_FOREGROUND);
	if (pid < 0) {   /* out of memory or a limit: the kernel said no, cleanly */
		__atomic_add_fetch(&p->refused, 1, __ATOMIC_RELAXED);
		torture_count(p, TOP_SPAWN, pid);
	} else {
		__atomic_add_fetch(&p->spawned, 1, __ATOMIC_RELAXED);
		torture_count(p, TOP_SPAWN, pid);
		struct wait_info wi;
		int rc = user_wait_kernel(pid, USER_WAIT_NS, &wi);
		if (rc != pid) {
			torture_fail(p, "a user process did not end in time (pid, rc)", pid, rc);
			user_kill(pid);
			rc = user_wait_kernel(pid, USER_WAIT_NS, &wi);
		}
		if (rc == pid) {
			__atomic_add_fetch(&p->reaped, 1, __ATOMIC_RELAXED);
			torture_count(p, TOP_REAP, wi.how);
			int ok = c->faults ? wi.how == WAIT_FAULTED : wi.how == WAIT_EXITED && wi.status == 0;
			if (!ok)
				torture_fail(p, c->faults ? "a faulting program did not fault (how, status)"
							  : "a program did not exit 0 (how, status)",
					     (long)wi.how, wi.status);
		}
	}
	__atomic_add_fetch(&p->user_slots, 1, __ATOMIC_RELEASE);
}
