/* cmd_thread.h — argument parsing shared by the thread commands
 * (cmd_thread.c, cmd_schedtest.c). */
#ifndef MOSAIC_SHELL_CMD_THREAD_H
#define MOSAIC_SHELL_CMD_THREAD_H
#include <stdint.h>
#include "../sched/topo_cpuset.h"

/* Decimal (or 0x hex) unsigned number, the whole string; 0 on success. */
int cmd_parse_u64(const char *s, uint64_t *out);
/* A CPU set: "0x" hex mask or a list "0-3,6"; only CPUs that exist.
 * 0 on success, -1 (after printing why) otherwise. */
int cmd_parse_cpus(const char *s, struct cpuset *out);

#endif
