/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_policy.h — the kernel's `bench` placement policies as sysctl
 * sets (bench_policy.c), used by the shell's `bench` command
 * (kernel/shell/cmd_bench.c). Shell thread only: no locks. */
#ifndef MOSAIC_BENCH_POLICY_H
#define MOSAIC_BENCH_POLICY_H
#include <stddef.h>

/* 1 if a policy called name exists (built-in or defined). arg unused. */
int bench_policy_known(void *arg, const char *name);
/* Saves the current value of every sysctl policy `name` sets, then sets
 * them; 0, or -1 with a reason in err (whatever was set is put back). */
int bench_policy_apply(const char *name, char *err, size_t len);
/* Puts back the values bench_policy_apply() saved; 0, or -1 with the
 * first sysctl that refused. Nothing saved: nothing done. */
int bench_policy_restore(char *err, size_t len);
/* `bench policies`: every policy with its sysctls. */
void bench_policy_list(void);
/* Prints "bench: policy LETTER = NAME: k=v k=v ...". */
void bench_policy_show(char letter, const char *name);
/* `bench policy NAME k=v ...` (argv[0] is NAME): checks every setting
 * (the sysctl exists, is writable and takes the value: written once and
 * put back) before defining NAME; prints the result or the reason.
 * Returns 0 or 1. */
int bench_policy_define(int argc, char **argv);

#endif
