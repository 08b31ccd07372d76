/* SPDX-License-Identifier: BSD-2-Clause */
/* hmp_sources.h — start hmp and its boot-time providers (kernel/hmp/hmp_sources.c). */
#ifndef MOSAIC_HMP_SOURCES_H
#define MOSAIC_HMP_SOURCES_H

/* hmp_init() for every CPU, then the core-type, HWP and machine-description
 * providers, then one publication. Boot CPU, after machine_platform_apply()
 * (descriptors final) and before the scheduler and the HFI driver start. */
void hmp_sources_init(void);

#endif
