/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mosaic.h — Mosaic's own part of the C library: the system calls, threads,
 * IPC, time and work (docs/userland.md). Every function returns what the
 * kernel returns: >= 0 on success, a negative ERR_* code
 * (include/mosaic/syscall.h) otherwise; strerror() names it.
 */
#ifndef MOSAIC_LIBC_MOSAIC_H
#define MOSAIC_LIBC_MOSAIC_H
#include <stddef.h>
#include <stdint.h>
#include <mosaic/syscall.h>

/* The raw instruction, for programs that want every register (sysfuzz). */
int64_t syscall6(uint64_t nr, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
		 uint64_t f);

/* ---- processes ---- */
__attribute__((noreturn)) void exit(int status);
/* Start program with argv[0..argc); pass handles (NULL, 0: none) with the
 * given rights; flags SPAWN_WAIT_READY waits up to ready_timeout_ns. */
int spawn(const char *program, int argc, const char *const *argv, const int32_t *handles,
	  const uint32_t *rights, uint32_t nhandles, uint32_t flags, uint64_t ready_timeout_ns);
int wait(int pid, struct wait_info *out, uint64_t timeout_ns);
int kill(int pid);
int getpid(void);
int ready(void);
/* How many handles the spawner passed (they are 0..n-1). */
extern uint32_t handles_given;

/* ---- threads ---- */
/* Start fn(arg) in a new thread with a stack of stack_bytes (0: 64 KiB);
 * its tid. fn returning ends the thread with its return value. */
int thread_create(uint64_t (*fn)(void *), void *arg, uint64_t stack_bytes);
__attribute__((noreturn)) void thread_exit(uint64_t value);
int thread_join(int tid, uint64_t *value, uint64_t timeout_ns);
int gettid(void);
int sleep_ns(uint64_t ns);
int yield(void);
/* CPU masks of up to 256 CPUs: bit c of word c / 64. */
int set_affinity(int tid, const uint64_t *mask, uint64_t bytes);
int get_affinity(int tid, uint64_t *mask, uint64_t bytes);
int set_nice(int tid, int nice);
int thread_stats(int tid, struct thread_stats *out);
/* Pin the calling thread to one CPU. */
int pin_to_cpu(unsigned cpu);

/* A lock for threads of one process: spins briefly, then yields. */
struct mutex {
	volatile int locked;
};
#define MUTEX_INIT { 0 }
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);

/* ---- console, time, CPUs, work ---- */
int64_t console_write(const char *buf, uint64_t len);
int64_t console_read(char *buf, uint64_t len, uint64_t timeout_ns);
uint64_t time_ns(void);
int current_cpu(void);
/* The number of CPUs; info of cpu in *out. */
int cpu_info(unsigned cpu, struct cpu_info *out);
/* ns of P-core work on the calling thread's work clock (any amount: done in
 * steps of at most WORK_CALL_NS_MAX). Returns the ns of work the clock
 * counted (at least ns: a step can run past its target) or an error < 0. */
int64_t work(uint64_t ns);
void *vm_map(uint64_t bytes);
/* Give back the memory of vm_map() in [addr, addr + bytes): 0 or an error. */
int vm_unmap(void *addr, uint64_t bytes);
/* Tests only (sysctl debug.fail_nth=1): the calling thread's n-th kernel
 * allocation from now fails; returns the count that was left (0: the
 * armed failure happened), or ERR_PERM when not allowed. */
int64_t fail_nth(uint32_t n);

/* ---- IPC ---- */
/* One message: a label and four words travel in registers; buf/len is an
 * optional buffer (at most IPC_BUF_MAX bytes) copied to the receiver's
 * rbuf/rcap. On receipt label, w, rlen (the bytes the sender sent) and
 * badge (the sender: pid << 32 | tid; 0 for a reply) are filled in. */
struct ipc_msg {
	uint64_t label;
	uint64_t w[4];
	const void *buf;
	uint64_t len;
	void *rbuf;
	uint64_t rcap;
	uint64_t rlen;
	uint64_t badge;
};
int ep_create(void);
int handle_close(int h);
int svc_publish(int h, const char *name);
int svc_lookup(const char *name);
int ipc_send(int h, struct ipc_msg *m, uint64_t timeout_ns);
int ipc_recv(int h, struct ipc_msg *m, uint64_t timeout_ns);
/* Send m, then wait for the reply, which replaces m's label, words, rlen. */
int ipc_call(int h, struct ipc_msg *m, uint64_t timeout_ns);
int ipc_reply(struct ipc_msg *m);
/* Reply with m (if a call is held), then receive into m. */
int ipc_reply_recv(int h, struct ipc_msg *m, uint64_t timeout_ns);

/* ---- helpers ---- */
const char *strerror(int err);
/* a * b / c without overflow of the product (c > 0; the result must fit). */
uint64_t muldiv64(uint64_t a, uint64_t b, uint64_t c);
/* Sort n values ascending. */
void sort_u64(uint64_t *v, size_t n);
/* "P", "E", "LP-E" or "-" for a CORE_* type. */
const char *core_name(uint32_t type);

#endif
