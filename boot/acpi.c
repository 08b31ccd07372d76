/* SPDX-License-Identifier: BSD-2-Clause */
/* acpi.c — where the firmware keeps the ACPI RSDP: in the system table's
 * configuration table, under the ACPI 2.0 GUID (XSDT-capable) or, on old
 * firmware, the ACPI 1.0 GUID. */
#include <boot/loader.h>

/* The RSDP found under `guid` whose signature is right, or 0. Boot
 * services only. */
static UINT64 acpi_rsdp_by_guid(EFI_GUID guid)
{
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];

		if (CompareGuid(&t->VendorGuid, &guid) != 0)
			continue;
		if (CompareMem(t->VendorTable, "RSD PTR ", 8) != 0) {
			log_warn(L"ACPI: a configuration table entry lacks the RSDP signature");
			continue;
		}
		return (UINT64)(UINTN)t->VendorTable;
	}
	return 0;
}

/* Physical address of the RSDP (ACPI 2.0 preferred), or 0 with a warning.
 * Boot services only. */
UINT64 acpi_find_rsdp(void)
{
	EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;
	UINT64 rsdp = acpi_rsdp_by_guid(acpi20);

	if (rsdp) {
		log_info(L"ACPI: RSDP (2.0) at 0x%lx", rsdp);
		return rsdp;
	}
	rsdp = acpi_rsdp_by_guid(acpi10);
	if (rsdp)
		log_info(L"ACPI: RSDP (1.0 only) at 0x%lx", rsdp);
	else
		log_warn(L"ACPI: the firmware publishes no RSDP");
	return rsdp;
}
