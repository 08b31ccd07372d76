/* SPDX-License-Identifier: BSD-2-Clause */
/* usercopy.c — every access of the kernel to user memory through a user
 * address goes through these three functions: the range is checked first
 * (ucheck_range(): inside the user half, no wrap-around), then the copy
 * runs in usercopy.asm, where SMAP is lifted for the copy alone and a
 * page fault becomes ERR_FAULT. */
#include <user/uproc.h>
#include <user/ucheck.h>
#include <user/ulayout.h>
#include <arch/x86_64/cpu/user_cpu.h>

/* See uproc.h. */
int copy_from_user(void *dst, uint64_t src, uint64_t n)
{
	if (ucheck_range(src, n))
		return ERR_FAULT;
	return n ? (int)arch_copy_user(dst, (const void *)src, n) : 0;
}

/* See uproc.h. */
int copy_to_user(uint64_t dst, const void *src, uint64_t n)
{
	if (ucheck_range(dst, n))
		return ERR_FAULT;
	return n ? (int)arch_copy_user((void *)dst, src, n) : 0;
}

/* See uproc.h. The copy never reads past USER_TOP: a string running into
 * it has no NUL in user memory. */
int64_t copy_str_from_user(char *dst, uint64_t src, uint64_t max)
{
	if (max == 0 || ucheck_range(src, 1))
		return ERR_FAULT;
	uint64_t room = USER_TOP - src;
	int64_t n = arch_copy_user_str(dst, (const char *)src, max < room ? max : room);
	if (n == ERR_TOOBIG && max > room)
		return ERR_FAULT;
	return n;
}
