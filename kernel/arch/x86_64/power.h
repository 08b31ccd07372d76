/* SPDX-License-Identifier: BSD-2-Clause */
/* power.h — ending the machine's run. */
#ifndef MOSAIC_POWER_H
#define MOSAIC_POWER_H
#include <mosaic/boot_info.h>
/* Reboot through UEFI runtime ResetSystem (fallbacks: ACPI reset register,
 * 8042 pulse, triple fault). Never returns. Any context; turns interrupts off. */
void power_reboot(void) __attribute__((noreturn));
/* Power off through UEFI runtime ResetSystem(shutdown); if that returns,
 * say so and halt. Never returns. Any context; turns interrupts off. */
void power_off(void) __attribute__((noreturn));
/* Under QEMU with isa-debug-exit (port 0xf4, 4 bytes): write status+1, so
 * QEMU exits with code 2*(status+1)+1 = 2*status+3 (codes 0 and 1 stay
 * QEMU's own). tools/qemu-run.sh turns it back into status. Returns only
 * when there is no such device. */
void power_qemu_exit(int status);
/* Remember the UEFI runtime services table (bi->efi_runtime_services_phys)
 * and build the identity-mapped page tables ResetSystem runs under (it was
 * never relocated with SetVirtualAddressMap). Without it the reset paths
 * use only the fallbacks. Needs vmm_init(). Boot-time. */
void power_init(const struct boot_info *bi);
/* The identity-mapped page tables power_init() built for UEFI runtime
 * calls (kernel/arch/x86_64/efi_rt.c uses them too), 0 without. */
uint64_t power_efi_cr3(void);
#endif
