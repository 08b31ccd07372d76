/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_sched.h — the `sched` command's parts (cmd_sched.c: statistics;
 * cmd_sched_trace.c: `sched trace`, also used by `bench --trace`). */
#ifndef MOSAIC_SHELL_CMD_SCHED_H
#define MOSAIC_SHELL_CMD_SCHED_H
#include <stdint.h>

/* `sched trace [on [SIZE] | off | dump]` (argv[1] is "trace"): 0, or 1
 * after a message naming the bad argument (nothing changed). Shell thread. */
int cmd_sched_trace(int argc, char **argv);
/* Starts a trace of size records per CPU, saying so; 0, or 1 after a message. */
int sched_trace_cmd_on(uint32_t size);
/* Writes the trace as CSV blocks on the console (docs/sched.md). */
void sched_trace_cmd_dump(void);

#endif
