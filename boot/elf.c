/* SPDX-License-Identifier: BSD-2-Clause */
/* elf.c — placing the kernel ELF. elf_check() (elf_check.c, portable and
 * host-tested) decides whether the file is a kernel we can load; this file
 * reports its verdict and places an accepted kernel: all PT_LOAD segments
 * go into ONE physically contiguous block of BOOT_MEM_KERNEL pages that
 * covers [lowest vaddr, highest vaddr end), so the kernel can find its
 * physical pages as kernel_phys_base + (vaddr - kernel_virt_base). */
#include <boot/loader.h>

/* Check the kernel ELF held in file[0..size) and place it: one contiguous
 * BOOT_MEM_KERNEL block for the whole span, file bytes copied, the rest
 * (bss, gaps) zero. Fills kernel. Prints the reason on failure. Boot
 * services only. */
EFI_STATUS elf_load_kernel(const CHAR16 *path, const UINT8 *file, UINT64 size,
			   struct kernel_image *kernel)
{
	struct elf_layout *l = &kernel->layout;
	EFI_PHYSICAL_ADDRESS block;
	EFI_STATUS status;
	char err[ELF_ERR_MAX];

	if (elf_check(file, size, l, err, sizeof(err)) != 0) {
		log_error(L"%s: %a", path, err);
		return EFI_LOAD_ERROR;
	}
	status = mem_alloc_pages(BOOT_MEM_KERNEL, l->virt_end - l->virt_base, L"the kernel image",
				 &block);
	if (EFI_ERROR(status))
		return status;
	kernel->phys_base = block;
	for (UINT32 i = 0; i < l->segment_count; i++) {
		const struct elf_segment *s = &l->segments[i];

		CopyMem((UINT8 *)(UINTN)(block + (s->vaddr - l->virt_base)), (VOID *)(file + s->offset),
			s->filesz);
	}
	log_info(L"kernel %s: 0x%lx..0x%lx at physical 0x%lx, entry 0x%lx", path, l->virt_base,
		 l->virt_end, kernel->phys_base, l->entry);
	return EFI_SUCCESS;
}
