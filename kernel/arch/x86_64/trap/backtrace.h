/* SPDX-License-Identifier: BSD-2-Clause */
/* backtrace.h — symbolised frame-pointer backtraces. */
#ifndef MOSAIC_BACKTRACE_H
#define MOSAIC_BACKTRACE_H
#include <stdint.h>
/* Name of the function containing addr and the offset into it; NULL when
 * addr is outside the kernel's text. */
const char *ksym_lookup(uint64_t addr, uint64_t *offset);
/* Print "  #n 0x... name+0xoff" for rip, then for each frame of the
 * frame-pointer chain starting at rbp (stops at 0, at a non-kernel or
 * misaligned pointer, or after 32 frames). No locks; safe in panic. */
void backtrace_print(uint64_t rip, uint64_t rbp);
#endif
