/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi_rt.h — the UEFI runtime services besides the reset (UEFI 2.10,
 * chapter 8): GetTime for the date of the results' folder, and
 * GetVariable / SetVariable for the panic report that survives a reboot
 * (kernel/save/save_panic.c). Called in physical mode, as ResetSystem is
 * (power.c's identity page tables), one call at a time; the variables are
 * Mosaic's own (its vendor GUID), non-volatile.
 */
#ifndef MOSAIC_EFI_RT_H
#define MOSAIC_EFI_RT_H
#include <stddef.h>
#include <stdint.h>
struct boot_info;

/* EFI_TIME (UEFI 2.10, 8.3). */
struct efi_time {
	uint16_t year;
	uint8_t month, day, hour, minute, second, pad1;
	uint32_t nanosecond;
	int16_t timezone;
	uint8_t daylight, pad2;
};

#define EFI_RT_NOT_FOUND 1   /* efi_var_get(): no such variable */

/* Remembers the runtime services table. After power_init(). Boot-time. */
void efi_rt_init(const struct boot_info *bi);
/* The firmware's clock: 0, or -1 (no runtime services, or it failed). */
int efi_get_time(struct efi_time *t);
/* Reads variable name (ASCII) into buf (capacity *len, set to the size
 * read): 0, EFI_RT_NOT_FOUND, or -1 with the firmware's status in *status. */
int efi_var_get(const char *name, void *buf, size_t *len, uint64_t *status);
/* Writes it (len 0: deletes it): 0 or -1 with *status. With panicking,
 * gives up at once (-1, status 0) when another CPU was inside the firmware
 * when it stopped. Interrupts are off during the call. */
int efi_var_set(const char *name, const void *buf, size_t len, int panicking, uint64_t *status);

#endif
