/* SPDX-License-Identifier: BSD-2-Clause */
/* unmapstorm — threads of one process that map and unmap memory as fast as
 * they can, each pinned to a CPU of its own (docs/userland.md, "Address
 * spaces"):
 *     unmapstorm [--threads N] [--time S]
 * N threads (default: one per CPU) for S seconds (default 5), then one
 * line per thread with its rounds (map 16 KiB, write it, unmap it) and the
 * longest round, and a summary of the fewest and most rounds. Each unmap
 * takes the address space's lock and has every CPU that runs the space
 * drop its TLB entries; when the lock is held across that shootdown and
 * handed to whoever grabs it first, some threads starve. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define WORKERS_MAX 32
#define ROUND_BYTES (16u * 1024)

struct worker {
	unsigned cpu;
	uint64_t rounds, longest_ns;
	int tid, error;
};

static struct worker workers[WORKERS_MAX];
static volatile int stop;

static uint64_t worker_main(void *arg)
{
	struct worker *w = arg;
	pin_to_cpu(w->cpu);
	while (!stop) {
		uint64_t t0 = time_ns();
		volatile uint8_t *p = vm_map(ROUND_BYTES);
		if (!p) {
			w->error = ERR_NOMEM;
			break;
		}
		for (unsigned off = 0; off < ROUND_BYTES; off += 4096)
			p[off] = 1;
		if ((w->error = vm_unmap((void *)p, ROUND_BYTES)))
			break;
		uint64_t dt = time_ns() - t0;
		if (dt > w->longest_ns)
			w->longest_ns = dt;
		w->rounds++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cpu_info ci;
	int64_t ncpu = cpu_info(0, &ci), threads = ncpu, secs = 5;
	for (int i = 1; i < argc; i += 2) {
		int64_t *dst = strcmp(argv[i], "--threads") == 0 ? &threads
			     : strcmp(argv[i], "--time") == 0  ? &secs : NULL;
		if (!dst || i + 1 >= argc || parse_int(argv[i + 1], 1, dst == &secs ? 600 : WORKERS_MAX, dst)) {
			printf("usage: unmapstorm [--threads N] [--time S]   (N 1..%d, S 1..600)\n", WORKERS_MAX);
			return 2;
		}
	}
	for (int64_t i = 0; i < threads; i++) {
		workers[i].cpu = (unsigned)(i % ncpu);
		if ((workers[i].tid = thread_create(worker_main, &workers[i], 0)) < 0) {
			printf("unmapstorm: thread %ld: %s\n", i, strerror(workers[i].tid));
			return 1;
		}
	}
	sleep_ns((uint64_t)secs * 1000000000ull);
	stop = 1;
	uint64_t least = UINT64_MAX, most = 0;
	int bad = 0;
	for (int64_t i = 0; i < threads; i++) {
		thread_join(workers[i].tid, NULL, IPC_FOREVER);
		struct worker *w = &workers[i];
		printf("unmapstorm: thread %ld on cpu %u: %lu rounds, the longest %lu ms%s%s\n", i, w->cpu,
		       w->rounds, w->longest_ns / 1000000, w->error ? "; " : "",
		       w->error ? strerror(w->error) : "");
		least = w->rounds < least ? w->rounds : least;
		most = w->rounds > most ? w->rounds : most;
		bad |= w->error != 0;
	}
	printf("unmapstorm: %ld threads, %ld s: fewest rounds %lu, most %lu\n", threads, secs, least,
	       most);
	return bad;
}
