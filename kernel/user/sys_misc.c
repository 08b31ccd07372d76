/* SPDX-License-Identifier: BSD-2-Clause */
/* sys_misc.c — the console, time, CPUs, work(W) and fault-injection system calls
 * (include/mosaic/syscall.h; docs/userland.md); memory: sys_vm.c. */
#include <user/uproc.h>
#include <user/ucheck.h>
#include <kern/console.h>
#include <dev/console_input.h>
#include <mm/fail_nth.h>
#include <mm/mm.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <bench/work.h>

#define CONSOLE_POLL_NS 20000000ull   /* a console read looks for input every 20 ms */
#define CTRL_C 3

/* SYS_CONSOLE_WRITE(buf, len <= CONSOLE_WRITE_MAX): written whole, in one
 * piece (no other output lands inside it). */
int64_t sys_console_write(struct trap_frame *tf)
{
	uint64_t len = tf->rsi;
	if (len > CONSOLE_WRITE_MAX)
		return ERR_TOOBIG;
	if (len == 0)
		return ucheck_range(tf->rdi, 0);
	char *buf = kmalloc(len);
	if (!buf)
		return ERR_NOMEM;
	int rc = copy_from_user(buf, tf->rdi, len);
	if (!rc)
		console_write(buf, len);
	kfree(buf);
	return rc ? rc : (int64_t)len;
}

/* SYS_CONSOLE_READ(buf, len, timeout): the bytes typed so far (at least
 * one: it waits up to timeout for the first), only for the process the
 * shell runs in the foreground. A Ctrl-C is never read: the shell takes
 * it to kill the program. */
int64_t sys_console_read(struct trap_frame *tf)
{
	uint64_t ubuf = tf->rdi, len = tf->rsi, timeout = tf->rdx;
	char buf[CONSOLE_READ_MAX];
	int rc = ucheck_timeout(timeout);
	if (!rc && (len == 0 || len > CONSOLE_READ_MAX))
		rc = ERR_INVAL;
	if (!rc)
		rc = ucheck_range(ubuf, len);
	if (rc)
		return rc;
	struct proc *p = proc_self();
	uint64_t deadline = uwait_deadline(timeout), n = 0;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	if (!p->foreground)
		rc = ERR_PERM;
	p->reads_console = !rc;
	while (!rc) {
		char c;
		while (n < len && console_peekc(&c) && c != CTRL_C && console_trygetc(&c))
			buf[n++] = c;
		if (n)
			break;
		uint64_t now = time_ns(), step = now + CONSOLE_POLL_NS;
		struct uwait w;
		int r = uwait_sleep(NULL, &w, step < deadline ? step : deadline);
		if (r == UW_KILLED || (r == UW_TIMEOUT && time_ns() >= deadline))
			rc = ERR_TIMEOUT;
	}
	spin_unlock_irqrestore(&user_lock, flags);
	if (rc)
		return rc;
	return copy_to_user(ubuf, buf, n) ? ERR_FAULT : (int64_t)n;
}

/* SYS_TIME: ns since boot. */
int64_t sys_time(struct trap_frame *tf)
{
	(void)tf;
	return (int64_t)time_ns();
}

/* SYS_CPU: the CPU the caller runs on (it may move right after). */
int64_t sys_cpu(struct trap_frame *tf)
{
	(void)tf;
	return cpu_current();
}

/* SYS_CPU_INFO(cpu, struct cpu_info *): the number of CPUs. */
int64_t sys_cpu_info(struct trap_frame *tf)
{
	uint64_t cpu = tf->rdi;
	if (cpu >= smp_cpu_count())
		return ERR_INVAL;
	const struct cpu_desc *d = smp_cpu_desc((unsigned)cpu);
	struct cpu_info ci = { .online = (uint32_t)smp_cpu_online((unsigned)cpu) };
	if (d) {
		static const uint32_t types[] = { [CPU_CORE_UNKNOWN] = CORE_UNKNOWN,
						  [CPU_CORE_P] = CORE_P, [CPU_CORE_E] = CORE_E,
						  [CPU_CORE_LPE] = CORE_LPE };
		ci.core_type = d->core_type < 4 ? types[d->core_type] : CORE_UNKNOWN;
		ci.core_id = d->core_id;
	}
	int rc = copy_to_user(tf->rsi, &ci, sizeof(ci));
	return rc ? rc : (int64_t)smp_cpu_count();
}

/* SYS_WORK(ns <= WORK_CALL_NS_MAX): work(W) in the caller's thread, on its
 * work clock (docs/hfi.md); the ns of work its clock counted (>= ns). */
int64_t sys_work(struct trap_frame *tf)
{
	if (tf->rdi > WORK_CALL_NS_MAX)
		return ERR_INVAL;
	int64_t done = work_counted(tf->rdi);
	return done < 0 ? ERR_INVAL : done;
}

/* SYS_FAIL_NTH(n <= UINT32_MAX): the calling thread's n-th kernel
 * allocation from now fails (fail_nth.h); the count left before. Only
 * while `sysctl debug.fail_nth=1`. */
int64_t sys_fail_nth(struct trap_frame *tf)
{
	if (!fail_nth_enabled())
		return ERR_PERM;
	if (tf->rdi > UINT32_MAX)
		return ERR_INVAL;
	return fail_nth_arm((uint32_t)tf->rdi);
}
