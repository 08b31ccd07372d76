/* SPDX-License-Identifier: BSD-2-Clause */
/* power.c — reboot, power off and the QEMU exit port.
 *
 * Preferred path: UEFI runtime ResetSystem, called in physical mode (the
 * loader never called SetVirtualAddressMap), so CR3 is switched to an
 * identity map of the firmware's runtime regions for the call. */
#include <arch/x86_64/power.h>
#include <arch/x86_64/acpi/acpi.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <arch/x86_64/clock/time.h>
#include <kern/printk.h>

#define EFI_RT_SIGNATURE    0x56524553544e5552ull /* "RUNTSERV" */
/* EFI_RUNTIME_SERVICES: a 24-byte table header, then GetTime, SetTime,
 * GetWakeupTime, SetWakeupTime, SetVirtualAddressMap, ConvertPointer,
 * GetVariable, GetNextVariableName, SetVariable, GetNextHighMonotonicCount,
 * ResetSystem: the 11th pointer (UEFI 2.10, 8.1). */
#define EFI_RT_RESET_SYSTEM 104
#define EFI_RESET_COLD      0
#define EFI_RESET_SHUTDOWN  2

#define FADT_FLAGS          112
#define FADT_RESET_REG      116
#define FADT_RESET_VALUE    128
#define FADT_RESET_REG_SUP  (1u << 10)


typedef void (__attribute__((ms_abi)) *efi_reset_system_t)(uint32_t type, uint64_t status,
							    uint64_t data_size, void *data);

static efi_reset_system_t efi_reset_system;   /* physical address */
static uint64_t identity_cr3;

/* See power.h. */
void power_init(const struct boot_info *bi)
{
	if (bi->efi_runtime_services_phys == 0) {
		printk("power: no UEFI runtime services; using fallbacks only\n");
		return;
	}
	const uint8_t *rt = phys_to_virt(bi->efi_runtime_services_phys);
	uint64_t sig;
	__builtin_memcpy(&sig, rt, 8);
	if (sig != EFI_RT_SIGNATURE) {
		printk("power: UEFI runtime services table has a bad signature; using fallbacks only\n");
		return;
	}
	identity_cr3 = vmm_make_identity_cr3(bi);
	if (identity_cr3 == 0) {
		printk("power: no identity page tables for UEFI; using fallbacks only\n");
		return;
	}
	__builtin_memcpy(&efi_reset_system, rt + EFI_RT_RESET_SYSTEM, 8);
	printk("power: UEFI ResetSystem at 0x%lx\n", (uint64_t)efi_reset_system);
}

/* See power.h. */
uint64_t power_efi_cr3(void)
{
	return identity_cr3;
}

/* Call ResetSystem(type) in physical mode. Returns only if the firmware
 * did (or there is none). Interrupts off. */
static void power_efi_reset(uint32_t type)
{
	if (!efi_reset_system)
		return;
	/* Firmware code may use SSE even though the kernel does not. */
	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	uint64_t cr3 = read_cr3();
	write_cr3(identity_cr3);
	efi_reset_system(type, 0, 0, NULL);
	write_cr3(cr3);
	printk("power: UEFI ResetSystem returned\n");
}

/* Wait about ms milliseconds for a reset to take effect; a port write
 * takes at least a microsecond where the TSC is not yet calibrated. */
static void power_wait_ms(uint32_t ms)
{
	if (time_tsc_hz()) {
		time_udelay(ms * 1000ull);
		return;
	}
	for (uint32_t i = 0; i < ms * 1000; i++)
		outb(0x80, 0);
}

/* Write the FADT reset value to the reset register (ACPI 6.5, 4.8.4.6). */
static void power_acpi_reset(void)
{
	const uint8_t *fadt = (const uint8_t *)acpi_find_table("FACP", 0);
	if (!fadt || ((const struct acpi_sdt_header *)fadt)->length < FADT_RESET_VALUE + 1)
		return;
	uint32_t flags;
	struct acpi_gas reg;
	__builtin_memcpy(&flags, fadt + FADT_FLAGS, 4);
	__builtin_memcpy(&reg, fadt + FADT_RESET_REG, sizeof(reg));
	uint8_t value = fadt[FADT_RESET_VALUE];
	if (!(flags & FADT_RESET_REG_SUP) || reg.address == 0)
		return;
	printk("power: ACPI reset register (space %u, 0x%lx)\n", reg.space_id, reg.address);
	switch (reg.space_id) {
	case ACPI_GAS_IO:
		outb((uint16_t)reg.address, value);
		break;
	case ACPI_GAS_MEMORY:
		*(volatile uint8_t *)vmm_map_mmio(reg.address, 1, 0) = value;
		break;
	case ACPI_GAS_PCI: {   /* bus 0; device, function, offset packed in the address */
		uint32_t dev = (reg.address >> 32) & 0x1F, fn = (reg.address >> 16) & 0x7;
		uint32_t off = reg.address & 0xFF;
		outl(0xCF8, 0x80000000u | dev << 11 | fn << 8 | (off & 0xFC));
		outb(0xCFC + (off & 3), value);
		break;
	}
	default:
		return;
	}
	power_wait_ms(500);
}

/* Pulse the CPU reset line through the keyboard controller. */
static void power_8042_reset(void)
{
	if (inb(0x64) == 0xFF)
		return;                          /* no controller */
	for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
		;                                /* input buffer full: wait */
	printk("power: 8042 reset pulse\n");
	outb(0x64, 0xFE);
	power_wait_ms(500);
}

/* See power.h. */
void power_reboot(void)
{
	cpu_cli();
	power_efi_reset(EFI_RESET_COLD);
	power_acpi_reset();
	power_8042_reset();
	printk("power: triple fault\n");
	static const struct { uint16_t limit; uint64_t base; } __attribute__((packed)) no_idt = { 0, 0 };
	__asm__ volatile("lidt %0; int3" :: "m"(no_idt));
	cpu_halt_forever();
}

/* See power.h. */
void power_off(void)
{
	cpu_cli();
	power_efi_reset(EFI_RESET_SHUTDOWN);
	printk("power off failed, halting\n");
	cpu_halt_forever();
}

/* See power.h. isa-debug-exit turns a write of v into exit code 2v+1. */
void power_qemu_exit(int status)
{
	outl(0xf4, (uint32_t)status + 1);
}
