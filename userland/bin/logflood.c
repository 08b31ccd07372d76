/* SPDX-License-Identifier: BSD-2-Clause */
/* logflood — an attack on the kernel's log (docs/userland.md, "Kernel
 * messages"):
 *     logflood [--time S]
 * For S seconds (default 10) it asks the kernel, as fast as it answers, to
 * start a file that is no program (init.rc: the kernel reports the refusal)
 * and starts children that fault at once (the kernel reports each fault),
 * then prints how many of each it made. Without a rate on these messages
 * the flood fills the log and pushes the boot log out of `dmesg`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define CHILD_NS (10ull * 1000000000ull)

static volatile uintptr_t bad_ptr = 16;   /* never mapped; opaque to the compiler */

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--fault") == 0)
		return (int)*(volatile uint64_t *)bad_ptr;
	int64_t secs = 10;
	if (argc != 1 && (argc != 3 || strcmp(argv[1], "--time") != 0 ||
			  parse_int(argv[2], 1, 600, &secs))) {
		printf("usage: logflood [--time S]   (S 1..600)\n");
		return 2;
	}
	const char *bad[] = { "init.rc" };
	const char *fault[] = { "logflood", "--fault" };
	uint64_t end = time_ns() + (uint64_t)secs * 1000000000ull, refused = 0, faulted = 0;
	while (time_ns() < end) {
		for (int i = 0; i < 8; i++)
			refused += spawn("init.rc", 1, bad, NULL, NULL, 0, 0, 0) == ERR_NOEXEC;
		struct wait_info wi = { 0 };
		int pid = spawn("logflood", 2, fault, NULL, NULL, 0, 0, 0);
		if (pid > 0 && wait(pid, &wi, CHILD_NS) == pid && wi.how == WAIT_FAULTED)
			faulted++;
	}
	printf("logflood: %lu refused programs, %lu faulting children in %ld s\n", refused, faulted,
	       secs);
	return 0;
}
