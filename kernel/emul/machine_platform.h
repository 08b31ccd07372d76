/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_platform.h — the emulated hybrid platform under QEMU: the machine
 * description the host passed as fw_cfg file opt/mosaic/machine
 * (docs/machines.md) and the per-CPU descriptors taken from it.
 */
#ifndef MOSAIC_EMUL_MACHINE_PLATFORM_H
#define MOSAIC_EMUL_MACHINE_PLATFORM_H
#include <emul/machine_desc/machine.h>

#define MACHINE_FW_CFG_FILE "opt/mosaic/machine"        /* the description */
#define MACHINE_FW_CFG_PATH "opt/mosaic/machine-path"   /* its host path, for messages */

/* Read and parse the description, if the host gave one; a malformed one is
 * reported with file:line and ignored. Quiet when not under QEMU. Boot CPU,
 * boot-time, after heap_init(), before smp_start_aps(). */
void machine_platform_init(void);
/* Override the online CPUs' descriptors with the description, or report
 * why it does not fit and leave the CPUID ones; logs the topology source.
 * Once, boot CPU, after smp_start_aps() and before the topology tree is
 * built. */
void machine_platform_apply(void);
/* The applied description (speeds, HFI values, events), or NULL when the
 * topology comes from CPUID. Read-only after machine_platform_apply(). */
const struct machine *machine_platform_machine(void);
/* hmp's machine provider (HMP_PROV_MACHINE) for CPUs 0..n-1 from the
 * applied description, with its status line; without one, the status says
 * so and nothing is provided. Does not publish. Boot CPU, once, from
 * hmp_sources_init() (after hmp_init()). */
void machine_platform_provide_hmp(unsigned n);
/* "machine file <model>" or "CPUID" (also sysctl hw.topology_source). */
const char *machine_platform_source(void);

#endif
