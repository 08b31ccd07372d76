/* cmd_thread.h — argument parsing shared by the thread commands
 * (cmd_thread.c, cmd_schedtest.c). */
#ifndef MOSAIC_SHELL_CMD_THREAD_H
#define MOSAIC_SHELL_CMD_THREAD_H
#include <stdint.h>
#include "../sched/topo_cpuset.h"

/* A CPU set: "0x" hex mask or a list "0-3,6"; only CPUs that exist.
 * 0 on success, -1 (after printing why) otherwise. */
int cmd_parse_cpus(const char *s, struct cpuset *out);

#endif
