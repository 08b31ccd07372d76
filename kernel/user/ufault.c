/* SPDX-License-Identifier: BSD-2-Clause */
/* ufault.c — an exception in user mode: one line on the console naming
 * the process, the thread, the fault, its address and a backtrace of the
 * user stack (frame pointers, read through copy_from_user()), at a limited
 * rate (printk_rated(): a program that faults in a loop cannot flood the
 * log), then the process is killed with WAIT_FAULTED. Nothing but that
 * process is touched: the kernel goes on. */
#include <user/uproc.h>
#include <user/ulayout.h>
#include <kern/printk.h>
#include <lib/strbuf.h>
#include <user/user.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/trap/trap.h>

#define UFAULT_FRAMES 8

/* What a page fault was, in words: a stack overflow (the guard page below
 * a stack), a jump to memory that is not code, or a bad pointer. */
static const char *ufault_page_kind(struct proc *p, uint64_t err, uint64_t addr)
{
	if (uvm_in_guard(&p->vm, addr))
		return "stack overflow (guard page)";
	if (err & 16)
		return err & 1 ? "jump to non-executable memory" : "jump to unmapped memory";
	if (addr >= USER_TOP)
		return err & 2 ? "write to a kernel or non-canonical address"
			       : "read of a kernel or non-canonical address";
	if (err & 1)
		return err & 2 ? "write to read-only memory" : "read of protected memory";
	return err & 2 ? "write to unmapped memory" : "read of unmapped memory";
}

/* Appends up to UFAULT_FRAMES return addresses found by walking the saved
 * frame pointers from rbp, while they stay in user memory and climb. */
static void ufault_backtrace(struct strbuf *sb, uint64_t rip, uint64_t rbp)
{
	strbuf_printf(sb, "; backtrace %lx", rip);
	for (int n = 1; n < UFAULT_FRAMES && rbp && !(rbp & 7); n++) {
		uint64_t frame[2];
		if (copy_from_user(frame, rbp, sizeof(frame)) || !frame[1])
			break;
		strbuf_printf(sb, " %lx", frame[1]);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

/* See user.h. */
void user_fault(struct trap_frame *tf, uint64_t addr)
{
	static PRINTK_RATE(user_faults, "user: faults");
	struct uthread *ut = uthread_self();
	struct proc *p = ut->proc;
	char line[256];
	struct strbuf sb;
	strbuf_init(&sb, line, sizeof(line));
	strbuf_printf(&sb, "user: pid %d (%s) thread %u: %s", p->pid, p->name, ut->tid,
		      trap_exception_name(tf->vector));
	if (tf->vector == 14)
		strbuf_printf(&sb, ": %s at %lx", ufault_page_kind(p, tf->error_code, addr), addr);
	strbuf_printf(&sb, ", rip %lx", tf->rip);
	ufault_backtrace(&sb, tf->rip, tf->rbp);
	printk_rated(&user_faults, "%s%s; process killed\n", line, strbuf_ok(&sb) ? "" : "...");
	uint64_t flags = spin_lock_irqsave(&user_lock);
	proc_kill_locked(p, WAIT_FAULTED, (int32_t)tf->vector, addr);
	spin_unlock_irqrestore(&user_lock, flags);
	uthread_exit(0);
}
