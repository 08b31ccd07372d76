/* SPDX-License-Identifier: BSD-2-Clause */
/* syscall.c — the system-call table and its dispatcher (the numbers and
 * conventions: include/mosaic/syscall.h; docs/userland.md). */
#include <user/uproc.h>
#include <user/ulayout.h>
#include <kern/printk.h>
#include <user/user.h>
#include <arch/x86_64/arch_hooks.h>

int64_t sys_exit(struct trap_frame *tf);
int64_t sys_spawn(struct trap_frame *tf);
int64_t sys_wait(struct trap_frame *tf);
int64_t sys_kill(struct trap_frame *tf);
int64_t sys_getpid(struct trap_frame *tf);
int64_t sys_ready(struct trap_frame *tf);
int64_t sys_thread_create(struct trap_frame *tf);
int64_t sys_thread_exit(struct trap_frame *tf);
int64_t sys_thread_join(struct trap_frame *tf);
int64_t sys_gettid(struct trap_frame *tf);
int64_t sys_sleep(struct trap_frame *tf);
int64_t sys_yield(struct trap_frame *tf);
int64_t sys_set_affinity(struct trap_frame *tf);
int64_t sys_get_affinity(struct trap_frame *tf);
int64_t sys_set_nice(struct trap_frame *tf);
int64_t sys_thread_stats(struct trap_frame *tf);
int64_t sys_console_write(struct trap_frame *tf);
int64_t sys_console_read(struct trap_frame *tf);
int64_t sys_time(struct trap_frame *tf);
int64_t sys_cpu(struct trap_frame *tf);
int64_t sys_cpu_info(struct trap_frame *tf);
int64_t sys_work(struct trap_frame *tf);
int64_t sys_vm_map(struct trap_frame *tf);
int64_t sys_ep_create(struct trap_frame *tf);
int64_t sys_handle_close(struct trap_frame *tf);
int64_t sys_svc_publish(struct trap_frame *tf);
int64_t sys_svc_lookup(struct trap_frame *tf);
int64_t sys_ipc_send(struct trap_frame *tf);
int64_t sys_ipc_recv(struct trap_frame *tf);
int64_t sys_ipc_call(struct trap_frame *tf);
int64_t sys_ipc_reply(struct trap_frame *tf);
int64_t sys_ipc_reply_recv(struct trap_frame *tf);
int64_t sys_vm_unmap(struct trap_frame *tf);
int64_t sys_fail_nth(struct trap_frame *tf);

/* See uproc.h. Every entry is filled (user_init() checks). */
const syscall_fn syscall_table[SYS_COUNT] = {
	[SYS_EXIT] = sys_exit,
	[SYS_SPAWN] = sys_spawn,
	[SYS_WAIT] = sys_wait,
	[SYS_KILL] = sys_kill,
	[SYS_GETPID] = sys_getpid,
	[SYS_READY] = sys_ready,
	[SYS_THREAD_CREATE] = sys_thread_create,
	[SYS_THREAD_EXIT] = sys_thread_exit,
	[SYS_THREAD_JOIN] = sys_thread_join,
	[SYS_GETTID] = sys_gettid,
	[SYS_SLEEP] = sys_sleep,
	[SYS_YIELD] = sys_yield,
	[SYS_SET_AFFINITY] = sys_set_affinity,
	[SYS_GET_AFFINITY] = sys_get_affinity,
	[SYS_SET_NICE] = sys_set_nice,
	[SYS_THREAD_STATS] = sys_thread_stats,
	[SYS_CONSOLE_WRITE] = sys_console_write,
	[SYS_CONSOLE_READ] = sys_console_read,
	[SYS_TIME] = sys_time,
	[SYS_CPU] = sys_cpu,
	[SYS_CPU_INFO] = sys_cpu_info,
	[SYS_WORK] = sys_work,
	[SYS_VM_MAP] = sys_vm_map,
	[SYS_EP_CREATE] = sys_ep_create,
	[SYS_HANDLE_CLOSE] = sys_handle_close,
	[SYS_SVC_PUBLISH] = sys_svc_publish,
	[SYS_SVC_LOOKUP] = sys_svc_lookup,
	[SYS_IPC_SEND] = sys_ipc_send,
	[SYS_IPC_RECV] = sys_ipc_recv,
	[SYS_IPC_CALL] = sys_ipc_call,
	[SYS_IPC_REPLY] = sys_ipc_reply,
	[SYS_IPC_REPLY_RECV] = sys_ipc_reply_recv,
	[SYS_VM_UNMAP] = sys_vm_unmap,
	[SYS_FAIL_NTH] = sys_fail_nth,
};

/* Called by syscall.asm with interrupts on, tf the user's registers. An
 * unknown number returns ERR_NOSYS. On the way out a thread of a killed
 * process leaves, and so does one whose return address could not be
 * returned to with SYSRET (at or above USER_TOP: see syscall.asm). */
void syscall_dispatch(struct trap_frame *tf)
{
	uint64_t nr = tf->rax;
	tf->rax = nr < SYS_COUNT ? (uint64_t)syscall_table[nr](tf) : (uint64_t)(int64_t)ERR_NOSYS;
	user_return_check();
	if (tf->rip >= USER_TOP) {
		static PRINTK_RATE(bad_returns, "user: bad system-call returns");
		struct uthread *ut = uthread_self();
		printk_rated(&bad_returns, "user: pid %d (%s) thread %u: system call returning to %lx, "
			     "beyond the user half; process killed\n", ut->proc->pid, ut->proc->name,
			     ut->tid, tf->rip);
		uint64_t flags = spin_lock_irqsave(&user_lock);
		proc_kill_locked(ut->proc, WAIT_FAULTED, 13, tf->rip);
		spin_unlock_irqrestore(&user_lock, flags);
		uthread_exit(0);
	}
}
