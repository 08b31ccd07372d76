/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi_rt.c — UEFI GetTime, GetVariable and SetVariable (see efi_rt.h),
 * called like ResetSystem in power.c: interrupts off, CR3 switched to the
 * identity map of the firmware's runtime regions (the kernel's half stays
 * mapped, so pointers to kernel memory are valid to the firmware), SSE
 * enabled for firmware code that uses it. The firmware is not reentrant:
 * one call at a time under efi_lock.
 */
#include <arch/x86_64/efi_rt.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <arch/x86_64/power.h>
#include <kern/printk.h>
#include <arch/x86_64/spinlock.h>
#include <lib/string.h>

#define EFI_RT_SIGNATURE     0x56524553544e5552ull /* "RUNTSERV" */
#define EFI_RT_GET_TIME      24    /* offsets in EFI_RUNTIME_SERVICES (UEFI 2.10, 8.1) */
#define EFI_RT_GET_VARIABLE  72
#define EFI_RT_SET_VARIABLE  88
#define EFI_NOT_FOUND        0x800000000000000Eull
#define EFI_VAR_ATTRS        0x7u  /* non-volatile, boot service and runtime access */
#define EFI_NAME_MAX         32

typedef uint64_t (__attribute__((ms_abi)) *efi_get_time_t)(struct efi_time *t, void *caps);
typedef uint64_t (__attribute__((ms_abi)) *efi_get_var_t)(const uint16_t *name, const void *guid,
							   uint32_t *attrs, uint64_t *size, void *data);
typedef uint64_t (__attribute__((ms_abi)) *efi_set_var_t)(const uint16_t *name, const void *guid,
							   uint32_t attrs, uint64_t size, const void *data);

/* Mosaic's vendor GUID for its variables: 5a0f1c9e-3b7d-4e21-9c6a-8d2f4b1e7a53. */
static const struct { uint32_t a; uint16_t b, c; uint8_t d[8]; } mosaic_guid = {
	0x5a0f1c9e, 0x3b7d, 0x4e21, { 0x9c, 0x6a, 0x8d, 0x2f, 0x4b, 0x1e, 0x7a, 0x53 } };

static efi_get_time_t get_time;
static efi_get_var_t get_var;
static efi_set_var_t set_var;
static struct spinlock efi_lock = SPINLOCK_INIT("efi runtime");

/* See efi_rt.h. */
void efi_rt_init(const struct boot_info *bi)
{
	if (!bi->efi_runtime_services_phys || !power_efi_cr3())
		return;   /* power_init() said why */
	const uint8_t *rt = phys_to_virt(bi->efi_runtime_services_phys);
	uint64_t sig;
	memcpy(&sig, rt, 8);
	if (sig != EFI_RT_SIGNATURE)
		return;
	memcpy(&get_time, rt + EFI_RT_GET_TIME, 8);
	memcpy(&get_var, rt + EFI_RT_GET_VARIABLE, 8);
	memcpy(&set_var, rt + EFI_RT_SET_VARIABLE, 8);
}

/* Enters physical mode for a call (efi_lock held, interrupts off): SSE
 * on, the identity CR3; returns the CR3 efi_leave() puts back. */
static uint64_t efi_enter(void)
{
	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	uint64_t cr3 = read_cr3();
	write_cr3(power_efi_cr3());
	return cr3;
}

static void efi_leave(uint64_t cr3)
{
	write_cr3(cr3);
}

/* An ASCII name as UCS-2 (at most EFI_NAME_MAX - 1 characters). */
static void ucs2(const char *name, uint16_t out[EFI_NAME_MAX])
{
	int i = 0;
	for (; name[i] && i < EFI_NAME_MAX - 1; i++)
		out[i] = (uint8_t)name[i];
	out[i] = 0;
}

/* See efi_rt.h. */
int efi_get_time(struct efi_time *t)
{
	if (!get_time)
		return -1;
	uint64_t flags = spin_lock_irqsave(&efi_lock);
	uint64_t cr3 = efi_enter(), status = get_time(t, NULL);
	efi_leave(cr3);
	spin_unlock_irqrestore(&efi_lock, flags);
	return status == 0 && t->year >= 1998 && t->month >= 1 && t->month <= 12 && t->day >= 1 &&
	       t->day <= 31 && t->hour < 24 && t->minute < 60 && t->second < 60 ? 0 : -1;
}

/* See efi_rt.h. */
int efi_var_get(const char *name, void *buf, size_t *len, uint64_t *status)
{
	uint16_t n[EFI_NAME_MAX];
	uint64_t size = *len;
	uint32_t attrs;
	*status = 0;
	if (!get_var)
		return -1;
	ucs2(name, n);
	uint64_t flags = spin_lock_irqsave(&efi_lock);
	uint64_t cr3 = efi_enter();
	*status = get_var(n, &mosaic_guid, &attrs, &size, buf);
	efi_leave(cr3);
	spin_unlock_irqrestore(&efi_lock, flags);
	if (*status == EFI_NOT_FOUND)
		return EFI_RT_NOT_FOUND;
	if (*status)
		return -1;
	*len = size;
	return 0;
}

/* See efi_rt.h. */
int efi_var_set(const char *name, const void *buf, size_t len, int panicking, uint64_t *status)
{
	uint16_t n[EFI_NAME_MAX];
	*status = 0;
	if (!set_var)
		return -1;
	uint64_t flags = cpu_save_flags_cli();
	if (panicking && !spin_trylock(&efi_lock)) {
		cpu_restore_flags(flags);
		return -1;
	}
	if (!panicking)
		spin_lock(&efi_lock);
	ucs2(name, n);
	uint64_t cr3 = efi_enter();
	*status = set_var(n, &mosaic_guid, len ? EFI_VAR_ATTRS : 0, len, buf);
	efi_leave(cr3);
	spin_unlock(&efi_lock);
	cpu_restore_flags(flags);
	return *status == 0 || (!len && *status == EFI_NOT_FOUND) ? 0 : -1;
}
