/* SPDX-License-Identifier: BSD-2-Clause */
/* hog — an attack on a shared pool by orphans (docs/userland.md, "Jobs"):
 *     hog pages|threads|names [--children N]
 * Starts N children (default 16), each of which takes as much of the pool
 * as the kernel gives it (1 MiB mappings, then single pages; threads that
 * sleep; or service names), says it is ready and sleeps; then the parent exits, so the
 * children live on as orphans. Prints how many children it started and
 * what they hold in all. Without jobs, orphans are charged to nobody and
 * together take the whole pool; in their job they take at most its quota
 * and `kill -j` of the job ends them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define READY_NS (60ull * 1000000000ull)
#define HOUR_NS (3600ull * 1000000000ull)
#define RETRY_NS (10ull * 1000000ull)
#define MIB (1ull << 20)

static uint64_t sleeper(void *arg)
{
	(void)arg;
	sleep_ns(HOUR_NS);
	return 0;
}

static int64_t names;   /* published so far */
static int ep = -1;

/* Takes one more of kind (pages: a MiB, or a page when small); 1 if it
 * got it. */
static int take(const char *kind, int small)
{
	if (strcmp(kind, "pages") == 0)
		return vm_map(small ? 4096 : MIB) != NULL;
	if (strcmp(kind, "threads") == 0)
		return thread_create(sleeper, NULL, 4096) >= 0;
	char name[SVC_NAME_MAX];
	snprintf(name, sizeof(name), "hog.%d.%ld", getpid(), names);
	if (ep < 0 && (ep = ep_create()) < 0)
		return 0;
	return svc_publish(ep, name) == 0 && ++names;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--hold") == 0) {
		while (take(argv[2], 0))
			;
		while (take(argv[2], 1))
			;
		ready();
		for (;;) {
			sleep_ns(RETRY_NS);
			take(argv[2], 1);
		}
	}
	int64_t children = 16;
	int kind_ok = argc >= 2 && (strcmp(argv[1], "pages") == 0 || strcmp(argv[1], "threads") == 0 ||
				    strcmp(argv[1], "names") == 0);
	if (!kind_ok || (argc != 2 && (argc != 4 || strcmp(argv[2], "--children") != 0 ||
				       parse_int(argv[3], 1, 64, &children)))) {
		printf("usage: hog pages|threads|names [--children N]   (N 1..64)\n");
		return 2;
	}
	const char *args[] = { "hog", "--hold", argv[1] };
	int64_t started = 0;
	int last = 0;
	for (int64_t i = 0; i < children; i++) {
		last = spawn("hog", 3, args, NULL, NULL, 0, SPAWN_WAIT_READY, READY_NS);
		started += last > 0;
	}
	printf("hog: %ld of %ld children hold all the %s they could get%s%s; the parent exits, "
	       "they stay\n", started, children, argv[1], last < 0 ? "; the last spawn: " : "",
	       last < 0 ? strerror(last) : "");
	return 0;
}
