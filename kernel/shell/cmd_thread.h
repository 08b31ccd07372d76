/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_thread.h — argument parsing shared by the thread commands
 * (cmd_thread.c, cmd_spawn.c, cmd_schedtest.c). */
#ifndef MOSAIC_SHELL_CMD_THREAD_H
#define MOSAIC_SHELL_CMD_THREAD_H
#include <stddef.h>
#include <stdint.h>
#include <lib/cpulist.h>

/* cpulist_parse (cpulist.h) on this machine, and at least one CPU must be online.
 * 0 on success, -1 (after printing "CMD: why") otherwise. */
int cmd_parse_cpus(const char *cmd, const char *s, struct cpuset *out);
/* The WORK(ms) and SPEED texts of a thread that did `work` (work-clock
 * units) in run_ns of CPU time: whole ms of P-core work, and work per run
 * time with three decimals ("0.540"; "-" before it ran). */
void cmd_work_text(uint64_t work, uint64_t run_ns, char *wbuf, size_t wlen, char *sbuf, size_t slen);
/* `ps`, after the threads: the user processes (pid, parent, name, state,
 * handles, pages, age, thread ids); nothing before user mode is up
 * (cmd_user.c). */
void cmd_ps_procs(void);

#endif
