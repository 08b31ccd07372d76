/* SPDX-License-Identifier: BSD-2-Clause */
/* string.h — the C string and memory functions the kernel provides. */
#ifndef MOSAIC_STRING_H
#define MOSAIC_STRING_H
#ifdef MOSAIC_HOST
#include <string.h>   /* on the host: the C library's (no header here shadows it) */
#else
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
#endif
#endif
