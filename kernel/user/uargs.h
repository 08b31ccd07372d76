/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uargs.h — a new program's arguments: collected from the spawning process
 * (or the shell) into one kernel buffer, then laid out at the top of the
 * program's first stack:
 *
 *   top -> [argument strings, back to back, NUL-terminated]
 *          [padding to 16]
 *   rsp -> [argv[0] .. argv[argc-1], NULL]   (rsp 16-byte aligned)
 *
 * and the program starts with RDI = argc, RSI = argv (docs/userland.md).
 * Portable C (host tests and fuzzing: tests/unit/test_uargs.c,
 * tests/fuzz/fuzz_uargs.c); user memory is read only through the reader
 * the caller supplies. No locks.
 */
#ifndef MOSAIC_USER_UARGS_H
#define MOSAIC_USER_UARGS_H
#include <stdint.h>
#include <mosaic/syscall.h>

struct uargs {
	uint32_t argc;
	uint32_t bytes;                     /* of buf in use, NULs included */
	char buf[SPAWN_ARGS_TOTAL];         /* the strings, back to back */
};

/* How user memory is read. read: copy n bytes from user address src, 0 or
 * ERR_FAULT. read_str: copy the string at src including its NUL, at most
 * max bytes; its length without the NUL, ERR_FAULT, or ERR_TOOBIG when no
 * NUL comes within max bytes. */
struct uargs_reader {
	void *ctx;
	int (*read)(void *ctx, void *dst, uint64_t src, uint64_t n);
	int64_t (*read_str)(void *ctx, char *dst, uint64_t src, uint64_t max);
};

/* Empty argument list. */
void uargs_init(struct uargs *a);
/* Append one argument (a kernel string): 0, or ERR_TOOBIG (too many, too
 * long, or over SPAWN_ARGS_TOTAL), a unchanged then. */
int uargs_add(struct uargs *a, const char *s);
/* Collect argc (1..SPAWN_ARGC_MAX) strings whose pointers lie at user
 * address uargv: 0, or ERR_INVAL (argc), ERR_FAULT (a pointer or string
 * not readable), ERR_TOOBIG (a string over SPAWN_ARG_MAX bytes with its
 * NUL, or all of them over SPAWN_ARGS_TOTAL). a is unspecified on error. */
int uargs_collect(struct uargs *a, uint64_t uargv, uint32_t argc, const struct uargs_reader *rd);
/* Bytes the layout takes below top (strings, padding, the argv array). */
uint64_t uargs_stack_bytes(const struct uargs *a);
/* Lay the arguments out for a stack ending at user address top (16-byte
 * aligned): img[0..img_size) stands for [top - img_size, top). Sets *rsp
 * and *argv. 0, or ERR_TOOBIG when img_size is smaller than
 * uargs_stack_bytes(), ERR_INVAL when top is not 16-byte aligned. */
int uargs_layout(const struct uargs *a, uint64_t top, uint8_t *img, uint64_t img_size,
		 uint64_t *rsp, uint64_t *argv);

#endif
