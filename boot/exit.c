/* SPDX-License-Identifier: BSD-2-Clause */
/* exit.c — leaving UEFI boot services and entering the kernel.
 *
 * The final memory map goes straight into a BOOT_MEM_BOOT_INFO buffer
 * reserved beforehand with room to spare, because nothing may be allocated
 * between GetMemoryMap and ExitBootServices: any allocation changes the
 * map key. If ExitBootServices still rejects the key (the firmware changed
 * the map on its own, e.g. from a timer event), the map is fetched again
 * into the same buffer and the exit retried. */
#include <boot/loader.h>

#define EXIT_MAP_SLACK  64   /* descriptors of room beyond the map's size now */
#define EXIT_TRIES      4
#define MSR_EFER        0xc0000080u
#define EFER_NXE        (1u << 11)

static EFI_PHYSICAL_ADDRESS exit_map_phys;
static UINTN exit_map_capacity;

/* Reserve the buffer the final memory map is written into and record it in
 * info->mmap_phys. Boot services only. */
EFI_STATUS exit_reserve_map(struct boot_info *info)
{
	UINTN size = 0, key, desc_size;
	UINT32 desc_version;
	EFI_STATUS status;

	status = BS->GetMemoryMap(&size, NULL, &key, &desc_size, &desc_version);
	if (status != EFI_BUFFER_TOO_SMALL || desc_size == 0) {
		log_error(L"the firmware does not report its memory map size (%r)", status);
		return EFI_ERROR(status) ? status : EFI_DEVICE_ERROR;
	}
	size += EXIT_MAP_SLACK * desc_size;
	status = mem_alloc_pages(BOOT_MEM_BOOT_INFO, size, L"the memory map", &exit_map_phys);
	if (EFI_ERROR(status))
		return status;
	exit_map_capacity = EFI_SIZE_TO_PAGES(size) * EFI_PAGE_SIZE;
	info->mmap_phys = exit_map_phys;
	return EFI_SUCCESS;
}

/* Fetch the final memory map into the reserved buffer, exit boot services
 * and fill info's mmap fields. On success no firmware service but runtime
 * services may be used any more. On failure the firmware may be half shut
 * down; the message is printed on a best-effort basis. */
EFI_STATUS exit_boot_services(EFI_HANDLE image, struct boot_info *info)
{
	EFI_STATUS status = EFI_SUCCESS;

	for (UINTN attempt = 1; attempt <= EXIT_TRIES; attempt++) {
		UINTN size = exit_map_capacity, key, desc_size;
		UINT32 desc_version;

		status = BS->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)(UINTN)exit_map_phys, &key,
					  &desc_size, &desc_version);
		if (EFI_ERROR(status)) {
			log_error(L"cannot read the final memory map into %ld bytes (%r)",
				  (UINT64)exit_map_capacity, status);
			return status;
		}
		status = BS->ExitBootServices(image, key);
		if (status == EFI_SUCCESS) {
			info->mmap_size = size;
			info->mmap_desc_size = desc_size;
			info->mmap_desc_version = desc_version;
			return EFI_SUCCESS;
		}
		if (status != EFI_INVALID_PARAMETER)
			break;
	}
	log_error(L"ExitBootServices failed (%r)", status);
	return status;
}

/* Point of no return: interrupts off, EFER.NXE on (the new tables use NX),
 * CR3 = the new tables, a 16-byte aligned stack with a zero return address,
 * then jump to the kernel's entry with RDI = info_virt. The code runs from
 * the identity map, which the new tables keep. After ExitBootServices. */
void exit_enter_kernel(UINT64 cr3, UINT64 entry, UINT64 info_virt)
{
	__asm__ volatile("cli\n\t"
			 "movl %[efer], %%ecx\n\t"
			 "rdmsr\n\t"
			 "orl %[nxe], %%eax\n\t"
			 "wrmsr\n\t"
			 "movq %[cr3], %%cr3\n\t"
			 "movq %[info], %%rdi\n\t"
			 "andq $-16, %%rsp\n\t"
			 "pushq $0\n\t"
			 "jmp *%[entry]\n\t"
			 :
			 : [efer] "i"(MSR_EFER), [nxe] "i"(EFER_NXE), [cr3] "r"(cr3),
			   [entry] "r"(entry), [info] "r"(info_virt)
			 : "rax", "rcx", "rdx", "rdi", "memory");
	__builtin_unreachable();
}
