/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmdline_tunables.h — boot-time tunables: a command-line word whose key is
 * a dotted name that is not one of the command line's own keys
 * (`kern.sched.policy=ule`, `kern.sched.hmp.perf0=ee0-never`) is a sysctl
 * write done at boot, checked as `sysctl key=value` checks it
 * (docs/cmdline.md, "Tunables"). Portable C: the host tests use it with
 * their own sysctl sets.
 */
#ifndef MOSAIC_CMDLINE_TUNABLES_H
#define MOSAIC_CMDLINE_TUNABLES_H
#include <lib/cmdline.h>
#include <lib/sysctl.h>

/* Writes every tunable of cl (only the word that wins for its key), in the
 * order of the words, to the variable of that name in set. Prints one line
 * per tunable, as `sysctl` does: "cmdline: tunable kern.sched.policy: hmp
 * -> ule", or why it was not set: "cmdline: tunable kern.x=1 not set: no
 * such sysctl", "...: kern.hz is read-only", or the variable's own reason
 * for refusing the value; the
 * variable then keeps its value. Returns the number not set. Takes the
 * locks each variable's write takes; call once the subsystems behind the
 * variables are up. */
int cmdline_tunables_apply(const struct cmdline *cl, const struct sysctl_set *set);

#endif
