/* SPDX-License-Identifier: BSD-2-Clause */
/* mem.c — page allocations of the loader. Each block is remembered so that a
 * boot that fails before the kernel runs gives all of it back: the firmware
 * may go on to boot something else, which must not find stray blocks of the
 * OS-defined types the kernel keeps. */
#include <boot/loader.h>

#define MEM_BLOCKS_MAX 32

struct mem_block {
	EFI_PHYSICAL_ADDRESS phys;
	UINTN pages;
};

static struct mem_block mem_blocks[MEM_BLOCKS_MAX];
static UINTN mem_block_count;

/* Allocate zeroed pages of `type` anywhere in physical memory for at least
 * `bytes` (at least one page). Prints a message naming `what` on failure.
 * Boot services only. */
EFI_STATUS mem_alloc_pages(UINT32 type, UINT64 bytes, const CHAR16 *what,
			   EFI_PHYSICAL_ADDRESS *phys)
{
	UINTN pages = EFI_SIZE_TO_PAGES(bytes);
	EFI_PHYSICAL_ADDRESS addr = 0;
	EFI_STATUS status;

	if (pages == 0)
		pages = 1;
	if (mem_block_count == MEM_BLOCKS_MAX) {
		log_error(L"too many memory blocks (%d) while allocating %s", MEM_BLOCKS_MAX, what);
		return EFI_OUT_OF_RESOURCES;
	}
	status = BS->AllocatePages(AllocateAnyPages, (EFI_MEMORY_TYPE)type, pages, &addr);
	if (EFI_ERROR(status)) {
		log_error(L"out of memory: cannot allocate %ld KiB for %s (%r)",
			  (UINT64)pages * 4, what, status);
		return status;
	}
	ZeroMem((VOID *)(UINTN)addr, pages * EFI_PAGE_SIZE);
	mem_blocks[mem_block_count].phys = addr;
	mem_blocks[mem_block_count].pages = pages;
	mem_block_count++;
	*phys = addr;
	return EFI_SUCCESS;
}

/* Free every block mem_alloc_pages handed out. Only for the failure path,
 * before ExitBootServices. */
void mem_free_all(void)
{
	while (mem_block_count > 0) {
		mem_block_count--;
		BS->FreePages(mem_blocks[mem_block_count].phys, mem_blocks[mem_block_count].pages);
	}
}
