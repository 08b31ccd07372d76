/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * host_sysctl.h — the sysctls of the kernel sources a host test links, set
 * by name as the shell's `sysctl NAME=VALUE` does (kernel/lib/sysctl.c on
 * the set tests/unit/host_sysctl.ld gathers; link with
 * -Wl,-T,tests/unit/host_sysctl.ld).
 */
#ifndef MOSAIC_TEST_HOST_SYSCTL_H
#define MOSAIC_TEST_HOST_SYSCTL_H
#include <stdint.h>

/* Writes value to the sysctl called name: 0, or -1 when there is none or
 * it refuses the value (the reason printed). */
int host_sysctl_set(const char *name, int64_t value);

#endif
