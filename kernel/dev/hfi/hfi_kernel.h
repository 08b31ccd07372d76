/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi_kernel.h — the HFI driver in the kernel (docs/hfi.md): started once
 * at boot, then driven by the thermal interrupt (VEC_THERMAL) and its
 * publisher thread. The state it keeps is struct hfi_drv (hfi.h), which
 * the shell reads through hfi_driver().
 */
#ifndef MOSAIC_ARCH_HFI_KERNEL_H
#define MOSAIC_ARCH_HFI_KERNEL_H
#include <dev/hfi/hfi.h>

/* Detect and enable the interface on every online CPU, start the
 * publisher thread, log what was found ("hfi: 8 rows, 1 class, table 4096
 * bytes at 0x..." or "hfi: not supported: ..."). Boot CPU, once, after
 * smp_start_aps(), machine_platform_apply(), thread_boot() (and hmp_init()),
 * interrupts on. */
void hfi_init(void);
/* 1 when the publisher thread runs (not with sched=off). */
int hfi_publishing(void);
/* The driver's state, for reading (counters through hfi_count()). */
const struct hfi_drv *hfi_driver(void);

#endif
