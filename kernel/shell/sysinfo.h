/* SPDX-License-Identifier: BSD-2-Clause */
/* sysinfo.h — the boot summary and `sysinfo` (kernel/shell/cmd_sysinfo.c). */
#ifndef MOSAIC_SYSINFO_H
#define MOSAIC_SYSINFO_H
#include <stddef.h>
#include <stdint.h>
#include <mosaic/boot_info.h>
/* Remember the firmware's vendor string (copied, ASCII) and revision.
 * Boot-time, before sysinfo_print(). */
void sysinfo_set_firmware(const char *vendor, uint32_t revision);
/* The CPU's brand string (CPUID 0x80000002-4) without leading blanks,
 * "(no brand string)" without one; len >= 49. Any thread. */
void sysinfo_brand(char *out, size_t len);
/* Print the summary (a few lines between ==== rules). Threads context. */
void sysinfo_print(void);
#endif
