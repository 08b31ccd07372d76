/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ucheck.h — argument checks of the system calls that need no kernel state:
 * user pointer ranges, timeouts, names, the spawn request. Portable C
 * (host tests: tests/unit/test_ucheck.c); no locks. Each returns 0 or the
 * ERR_* code the system call hands back (include/mosaic/syscall.h).
 */
#ifndef MOSAIC_USER_UCHECK_H
#define MOSAIC_USER_UCHECK_H
#include <stdint.h>
#include <mosaic/syscall.h>

/* [addr, addr + len) lies in user memory ([USER_PTR_LOW, USER_TOP)); len 0
 * still needs addr in that range. ERR_FAULT otherwise. */
int ucheck_range(uint64_t addr, uint64_t len);
/* A timeout: 0..TIMEOUT_MAX_NS or IPC_FOREVER; ERR_INVAL otherwise. */
int ucheck_timeout(uint64_t ns);
/* A service name: 1..SVC_NAME_MAX-1 of [a-z0-9._-], starting with a letter
 * or digit; ERR_INVAL otherwise (ERR_TOOBIG when too long). s is a kernel
 * copy, NUL-terminated. */
int ucheck_svc_name(const char *s);
/* A program name in the boot archive: 1..PROC_NAME_MAX-1 of [A-Za-z0-9._-],
 * not starting with '.'; ERR_INVAL / ERR_TOOBIG. */
int ucheck_program_name(const char *s);
/* A spawn request's counts and flags (its pointers are checked as they are
 * read): argc 1..SPAWN_ARGC_MAX, nhandles 0..SPAWN_HANDLES_MAX, known flags
 * (SPAWN_WAIT_READY, SPAWN_CAP_NICE),
 * reserved 0, the ready timeout a valid timeout. */
int ucheck_spawn_req(const struct spawn_req *r);
/* A CPU mask of `bytes` bytes (a multiple of 8, 8..32): it must name at
 * least one of the ncpu CPUs and none at or above ncpu. */
int ucheck_cpumask(const uint64_t *mask, uint64_t bytes, unsigned ncpu);

#endif
