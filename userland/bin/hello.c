/* SPDX-License-Identifier: BSD-2-Clause */
/* hello — the smallest program: says who and where it is, and echoes its
 * arguments. */
#include <stdio.h>
#include <mosaic.h>

int main(int argc, char **argv)
{
	struct cpu_info ci;
	int cpu = current_cpu();
	cpu_info((unsigned)cpu, &ci);
	printf("hello from user mode: pid %d, thread %d, cpu %d (%s core), %d argument%s\n",
	       getpid(), gettid(), cpu, core_name(ci.core_type), argc - 1, argc == 2 ? "" : "s");
	for (int i = 1; i < argc; i++)
		printf("  argv[%d] = \"%s\"\n", i, argv[i]);
	return 0;
}
