/* SPDX-License-Identifier: BSD-2-Clause */
/* syscall.c — the system-call stubs (include/mosaic/syscall.h). */
#include <mosaic.h>

/* See mosaic.h. */
int64_t syscall6(uint64_t nr, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
		 uint64_t f)
{
	register uint64_t r10 __asm__("r10") = d;
	register uint64_t r8 __asm__("r8") = e;
	register uint64_t r9 __asm__("r9") = f;
	int64_t r;
	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return r;
}

#define SC0(n) syscall6(n, 0, 0, 0, 0, 0, 0)
#define SC1(n, a) syscall6(n, (uint64_t)(a), 0, 0, 0, 0, 0)
#define SC2(n, a, b) syscall6(n, (uint64_t)(a), (uint64_t)(b), 0, 0, 0, 0)
#define SC3(n, a, b, c) syscall6(n, (uint64_t)(a), (uint64_t)(b), (uint64_t)(c), 0, 0, 0)

void exit(int status)
{
	for (;;)
		SC1(SYS_EXIT, status & 255);
}

int spawn(const char *program, int argc, const char *const *argv, const int32_t *handles,
	  const uint32_t *rights, uint32_t nhandles, uint32_t flags, uint64_t ready_timeout_ns)
{
	struct spawn_req r = { .path = program, .argv = argv, .argc = (uint32_t)argc,
			       .flags = flags, .handles = handles, .rights = rights,
			       .nhandles = nhandles, .ready_timeout_ns = ready_timeout_ns };
	return (int)SC1(SYS_SPAWN, &r);
}

int wait(int pid, struct wait_info *out, uint64_t timeout_ns)
{
	return (int)SC3(SYS_WAIT, (int64_t)pid, out, timeout_ns);
}

int kill(int pid) { return (int)SC1(SYS_KILL, pid); }
int getpid(void) { return (int)SC0(SYS_GETPID); }
int ready(void) { return (int)SC0(SYS_READY); }

void thread_exit(uint64_t value)
{
	for (;;)
		SC1(SYS_THREAD_EXIT, value);
}

int thread_join(int tid, uint64_t *value, uint64_t timeout_ns)
{
	return (int)SC3(SYS_THREAD_JOIN, tid, value, timeout_ns);
}

int gettid(void) { return (int)SC0(SYS_GETTID); }
int sleep_ns(uint64_t ns) { return (int)SC1(SYS_SLEEP, ns); }
int yield(void) { return (int)SC0(SYS_YIELD); }

int set_affinity(int tid, const uint64_t *mask, uint64_t bytes)
{
	return (int)SC3(SYS_SET_AFFINITY, tid, mask, bytes);
}

int get_affinity(int tid, uint64_t *mask, uint64_t bytes)
{
	return (int)SC3(SYS_GET_AFFINITY, tid, mask, bytes);
}

int set_nice(int tid, int nice) { return (int)SC2(SYS_SET_NICE, tid, (int64_t)nice); }
int thread_stats(int tid, struct thread_stats *out) { return (int)SC2(SYS_THREAD_STATS, tid, out); }

int pin_to_cpu(unsigned cpu)
{
	uint64_t mask[4] = { 0 };
	if (cpu >= 256)
		return ERR_INVAL;
	mask[cpu / 64] = 1ull << (cpu % 64);
	return set_affinity(0, mask, sizeof(mask));
}

int64_t console_write(const char *buf, uint64_t len) { return SC2(SYS_CONSOLE_WRITE, buf, len); }

int64_t console_read(char *buf, uint64_t len, uint64_t timeout_ns)
{
	return SC3(SYS_CONSOLE_READ, buf, len, timeout_ns);
}

uint64_t time_ns(void) { return (uint64_t)SC0(SYS_TIME); }
int current_cpu(void) { return (int)SC0(SYS_CPU); }
int cpu_info(unsigned cpu, struct cpu_info *out) { return (int)SC2(SYS_CPU_INFO, cpu, out); }

int64_t work(uint64_t ns)
{
	int64_t done = 0;
	while (ns) {
		uint64_t step = ns < WORK_CALL_NS_MAX ? ns : WORK_CALL_NS_MAX;
		int64_t rc = SC1(SYS_WORK, step);
		if (rc < 0)
			return rc;
		done += rc;
		ns -= step;
	}
	return done;
}

void *vm_map(uint64_t bytes)
{
	int64_t r = SC1(SYS_VM_MAP, bytes);
	return r < 0 ? NULL : (void *)r;
}

int vm_unmap(void *addr, uint64_t bytes) { return (int)SC2(SYS_VM_UNMAP, addr, bytes); }
int64_t fail_nth(uint32_t n) { return SC1(SYS_FAIL_NTH, n); }

int ep_create(void) { return (int)SC0(SYS_EP_CREATE); }
int handle_close(int h) { return (int)SC1(SYS_HANDLE_CLOSE, h); }
int svc_publish(int h, const char *name) { return (int)SC2(SYS_SVC_PUBLISH, h, name); }
int svc_lookup(const char *name) { return (int)SC1(SYS_SVC_LOOKUP, name); }
