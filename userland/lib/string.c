/* SPDX-License-Identifier: BSD-2-Clause */
/* string.c — the string functions the C library has beyond the kernel's
 * (kernel/lib/string.c, built into the library too: memcpy, memmove,
 * memset, memcmp, strlen, strnlen, strcmp, strncmp, strchr). */
#include <string.h>

char *strcpy(char *dst, const char *src)
{
	char *d = dst;
	while ((*d++ = *src++))
		;
	return dst;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);
	if (size) {
		size_t k = n < size - 1 ? n : size - 1;
		memcpy(dst, src, k);
		dst[k] = 0;
	}
	return n;
}
