/* SPDX-License-Identifier: BSD-2-Clause */
/* sysinfo.h — the boot summary and `sysinfo` (kernel/shell/cmd_sysinfo.c). */
#ifndef MOSAIC_SYSINFO_H
#define MOSAIC_SYSINFO_H
#include <stdint.h>
#include <mosaic/boot_info.h>
/* Remember the firmware's vendor string (copied, ASCII) and revision.
 * Boot-time, before sysinfo_print(). */
void sysinfo_set_firmware(const char *vendor, uint32_t revision);
/* Print the summary (a few lines between ==== rules). Threads context. */
void sysinfo_print(void);
#endif
