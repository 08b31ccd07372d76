/* SPDX-License-Identifier: BSD-2-Clause */
/* crt0.c — where every program starts. The kernel enters _start with RSP
 * 16-byte aligned on the first stack, RDI = argc, RSI = argv (on that
 * stack), RDX = the number of handles passed (docs/userland.md). */
#include <mosaic.h>
#include <stdlib.h>

int main(int argc, char **argv);

uint32_t handles_given;

/* Runs main and exits with what it returns. */
__attribute__((used, noreturn)) static void libc_start(int argc, char **argv, uint64_t nhandles)
{
	handles_given = (uint32_t)nhandles;
	exit(main(argc, argv));
}

/* A zero frame pointer ends user backtraces; the call keeps the ABI's
 * stack alignment for C. */
__asm__(".section .text.start, \"ax\"\n"
	".globl _start\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"
	"	call libc_start\n"
	"	ud2\n"
	".previous\n");
