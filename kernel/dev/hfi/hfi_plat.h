/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi_plat.h — what the portable HFI driver (hfi.h) needs from the
 * machine besides the door: running a function on a given CPU, that CPU's
 * thermal LVT, memory for the tables, hmp, the log. The kernel implements
 * it in hfi_kernel.c, the host tests in tests/unit/hfi_fake.c.
 */
#ifndef MOSAIC_ARCH_HFI_PLAT_H
#define MOSAIC_ARCH_HFI_PLAT_H
#include <stddef.h>
#include <stdint.h>

/* Run fn(arg) on cpu with interrupts off and wait for it; 0, or -1 when
 * the CPU did not run it. Thread context. */
int hfi_plat_run_on(unsigned cpu, void (*fn)(void *), void *arg);
/* The calling CPU's logical id. */
unsigned hfi_plat_cpu_self(void);
/* Whether the calling CPU's local APIC has a thermal LVT; its value; a new
 * value. The calling CPU's own register, interrupts off. */
int hfi_plat_lvt_present(void);
uint32_t hfi_plat_lvt_read(void);
void hfi_plat_lvt_write(uint32_t v);
/* pages zeroed, physically contiguous, page-aligned 4 KiB pages that are
 * never freed nor moved; the mapped address, with the physical one in
 * *phys; NULL when out of memory. Boot. */
void *hfi_plat_table_alloc(unsigned pages, uint64_t *phys);
/* size zeroed bytes that are never freed; NULL when out of memory. Boot. */
void *hfi_plat_zalloc(size_t size);
/* One line to the log ("hfi: " and the newline are added). Any context. */
void hfi_plat_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
