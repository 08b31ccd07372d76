/* SPDX-License-Identifier: BSD-2-Clause */
/* ipc.c — the IPC stubs: the message goes in registers (the convention of
 * include/mosaic/syscall.h), and what arrives comes back in them. */
#include <mosaic.h>

/* One IPC system call; updates m from the registers when a message was
 * received (status 0 or ERR_MSGSIZE of a receiving call). */
static int ipc_raw(uint64_t nr, int h, struct ipc_msg *m, uint64_t timeout, int receives)
{
	register uint64_t rdi __asm__("rdi") = (uint64_t)(int64_t)h;
	register uint64_t rsi __asm__("rsi") = m->label;
	register uint64_t rdx __asm__("rdx") = m->w[0];
	register uint64_t r10 __asm__("r10") = m->w[1];
	register uint64_t r8 __asm__("r8") = m->w[2];
	register uint64_t r9 __asm__("r9") = m->w[3];
	register uint64_t r12 __asm__("r12") = (uint64_t)m->buf;
	register uint64_t r13 __asm__("r13") = m->len;
	register uint64_t r14 __asm__("r14") = (uint64_t)m->rbuf;
	register uint64_t r15 __asm__("r15") = m->rcap;
	register uint64_t rbx __asm__("rbx") = timeout;
	int64_t rax = (int64_t)nr;
	__asm__ volatile("syscall"
			 : "+a"(rax), "+r"(rdi), "+r"(rsi), "+r"(rdx), "+r"(r10), "+r"(r8), "+r"(r9),
			   "+r"(r13)
			 : "r"(r12), "r"(r14), "r"(r15), "r"(rbx)
			 : "rcx", "r11", "memory");
	if (receives && (rax == 0 || rax == ERR_MSGSIZE)) {
		m->label = rsi;
		m->w[0] = rdx;
		m->w[1] = r10;
		m->w[2] = r8;
		m->w[3] = r9;
		m->rlen = r13;
		m->badge = rdi;
	}
	return (int)rax;
}

int ipc_send(int h, struct ipc_msg *m, uint64_t timeout_ns)
{
	return ipc_raw(SYS_IPC_SEND, h, m, timeout_ns, 0);
}

int ipc_recv(int h, struct ipc_msg *m, uint64_t timeout_ns)
{
	return ipc_raw(SYS_IPC_RECV, h, m, timeout_ns, 1);
}

int ipc_call(int h, struct ipc_msg *m, uint64_t timeout_ns)
{
	return ipc_raw(SYS_IPC_CALL, h, m, timeout_ns, 1);
}

int ipc_reply(struct ipc_msg *m)
{
	return ipc_raw(SYS_IPC_REPLY, -1, m, 0, 0);
}

int ipc_reply_recv(int h, struct ipc_msg *m, uint64_t timeout_ns)
{
	return ipc_raw(SYS_IPC_REPLY_RECV, h, m, timeout_ns, 1);
}
