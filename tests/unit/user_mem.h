/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * user_mem.h — a fake user address space for host tests of code that reads
 * user memory through a reader (kernel/user/uargs.h): one buffer standing
 * for [USER_MEM_BASE, USER_MEM_BASE + size); any byte outside it faults.
 */
#ifndef MOSAIC_TEST_USER_MEM_H
#define MOSAIC_TEST_USER_MEM_H
#include <stdint.h>
#include <string.h>
#include <user/uargs.h>

#define USER_MEM_BASE 0x10000000ull

struct user_mem {
	uint8_t *bytes;
	uint64_t size;
};

/* Reader callback: n bytes at src, or ERR_FAULT if any lies outside. */
static inline int user_mem_read(void *ctx, void *dst, uint64_t src, uint64_t n)
{
	const struct user_mem *m = ctx;
	if (src < USER_MEM_BASE || src - USER_MEM_BASE > m->size || n > m->size - (src - USER_MEM_BASE))
		return ERR_FAULT;
	memcpy(dst, m->bytes + (src - USER_MEM_BASE), n);
	return 0;
}

/* Reader callback: the string at src, byte by byte as a kernel would. */
static inline int64_t user_mem_read_str(void *ctx, char *dst, uint64_t src, uint64_t max)
{
	for (uint64_t i = 0; i < max; i++) {
		if (user_mem_read(ctx, dst + i, src + i, 1))
			return ERR_FAULT;
		if (!dst[i])
			return (int64_t)i;
	}
	return ERR_TOOBIG;
}

#endif
