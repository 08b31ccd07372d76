/* SPDX-License-Identifier: BSD-2-Clause */
/* stdlib.h — memory, numbers and process end of Mosaic's C library. */
#ifndef MOSAIC_LIBC_STDLIB_H
#define MOSAIC_LIBC_STDLIB_H
#include <stddef.h>
#include <stdint.h>

/* Thread-safe; memory comes from SYS_VM_MAP and is reused, never unmapped. */
void *malloc(size_t n);
void *calloc(size_t count, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);
__attribute__((noreturn)) void exit(int status);
__attribute__((noreturn)) void abort(void);
/* All of s as a number in min..max (base 0: 0x hex, else decimal; an
 * optional '-'): 0, or -1 when it is not one or out of range. */
int parse_int(const char *s, int64_t min, int64_t max, int64_t *out);

#endif
