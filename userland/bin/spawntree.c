/* SPDX-License-Identifier: BSD-2-Clause */
/* spawntree — an attack on the process table (docs/userland.md, "Jobs"):
 *     spawntree [--fanout N] [--depth D]
 * Every node above depth D (default 2) keeps N children (default 32)
 * alive: it spawns until refused, and whenever a child ends, or a spawn
 * was refused, it tries again 20 ms later, so a slot that frees anywhere
 * is taken again at once. Nodes at depth D sleep. The root says once that
 * it started; the tree itself prints nothing more (`ustat` shows it).
 * Without jobs such a tree takes every process of the system and outlives
 * a kill of its root; in its job it takes at most the job's quota and
 * `kill` of the root ends all of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define RETRY_NS (20ull * 1000000ull)
#define HOUR_NS (3600ull * 1000000000ull)

int main(int argc, char **argv)
{
	int64_t fanout = 32, depth = 2, level = 0;
	for (int i = 1; i < argc; i += 2) {
		int64_t *dst = strcmp(argv[i], "--fanout") == 0  ? &fanout
			     : strcmp(argv[i], "--depth") == 0 ? &depth
			     : strcmp(argv[i], "--level") == 0 ? &level : NULL;
		if (!dst || i + 1 >= argc || parse_int(argv[i + 1], 0, 64, dst)) {
			printf("usage: spawntree [--fanout N] [--depth D]   (0..64)\n");
			return 2;
		}
	}
	if (level == 0)
		printf("spawntree: pid %d: fanout %ld, depth %ld, refilling every slot that frees\n",
		       getpid(), fanout, depth);
	if (level >= depth) {
		sleep_ns(HOUR_NS);
		return 0;
	}
	char f[8], d[8], l[8];
	snprintf(f, sizeof(f), "%ld", fanout);
	snprintf(d, sizeof(d), "%ld", depth);
	snprintf(l, sizeof(l), "%ld", level + 1);
	const char *args[] = { "spawntree", "--fanout", f, "--depth", d, "--level", l };
	int64_t alive = 0;
	for (;;) {
		while (alive < fanout && spawn("spawntree", 7, args, NULL, NULL, 0, 0, 0) > 0)
			alive++;
		if (wait(-1, NULL, RETRY_NS) > 0)
			alive--;
	}
}
