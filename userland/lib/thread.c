/* SPDX-License-Identifier: BSD-2-Clause */
/* thread.c — threads and the mutex of the C library (see mosaic.h). */
#include <mosaic.h>
#include <stdlib.h>

struct thread_start {
	uint64_t (*fn)(void *);
	void *arg;
};

/* The first C code of a new thread: its return value ends it. */
__attribute__((used, noreturn)) static void thread_main(struct thread_start *s)
{
	uint64_t (*fn)(void *) = s->fn;
	void *arg = s->arg;
	free(s);
	thread_exit(fn(arg));
}

/* The kernel starts a thread at its entry with RSP at the (16-byte
 * aligned) top of its stack and RDI = the argument: the call gives C the
 * alignment it expects, and a zero frame pointer ends backtraces. */
void thread_entry(void);
__asm__(".text\n"
	".globl thread_entry\n"
	"thread_entry:\n"
	"	xor %ebp, %ebp\n"
	"	call thread_main\n"
	"	ud2\n");

int thread_create(uint64_t (*fn)(void *), void *arg, uint64_t stack_bytes)
{
	struct thread_start *s = malloc(sizeof(*s));
	if (!s)
		return ERR_NOMEM;
	s->fn = fn;
	s->arg = arg;
	int tid = (int)syscall6(SYS_THREAD_CREATE, (uint64_t)thread_entry, (uint64_t)s, stack_bytes,
				0, 0, 0);
	if (tid < 0)
		free(s);
	return tid;
}

void mutex_lock(struct mutex *m)
{
	for (unsigned spins = 0; __atomic_exchange_n(&m->locked, 1, __ATOMIC_ACQUIRE); spins++) {
		if (spins >= 64)
			yield();
		else
			__builtin_ia32_pause();
	}
}

void mutex_unlock(struct mutex *m)
{
	__atomic_store_n(&m->locked, 0, __ATOMIC_RELEASE);
}
