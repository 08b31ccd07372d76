/* elf.c — checking and placing the kernel ELF. The kernel is a static
 * ELF64 x86-64 executable linked in the upper half; all its PT_LOAD
 * segments go into ONE physically contiguous block of BOOT_MEM_KERNEL
 * pages that covers [lowest vaddr, highest vaddr end), so the kernel can
 * find its physical pages as kernel_phys_base + (vaddr - kernel_virt_base). */
#include "loader.h"
#include "elf.h"

#define ELF_UPPER_HALF   0xffff800000000000ull
#define ELF_SPAN_MAX     (1024ull * 1024 * 1024)   /* a sane kernel: at most 1 GiB */
#define ELF_PAGE_MASK    0xfffull

/* Check the ELF header: magic, class, byte order, machine, type and that
 * the program header table lies inside the file. Prints the reason and
 * returns EFI_LOAD_ERROR if not. Boot services only (it prints). */
static EFI_STATUS elf_check_header(const CHAR16 *path, const UINT8 *file, UINT64 size)
{
	const struct elf64_ehdr *eh = (const struct elf64_ehdr *)file;

	if (size < sizeof(*eh) || eh->magic != ELF_MAGIC) {
		log_error(L"%s is not an ELF file (%ld bytes, no ELF magic)", path, size);
		return EFI_LOAD_ERROR;
	}
	if (eh->class != ELF_CLASS_64) {
		log_error(L"%s is not ELF64 (class %d); the kernel must be a 64-bit ELF", path,
			  (UINT32)eh->class);
		return EFI_LOAD_ERROR;
	}
	if (eh->data != ELF_DATA_LSB) {
		log_error(L"%s is not little-endian", path);
		return EFI_LOAD_ERROR;
	}
	if (eh->machine != ELF_MACHINE_X86_64) {
		log_error(L"%s is built for ELF machine %d, not x86-64 (62)", path,
			  (UINT32)eh->machine);
		return EFI_LOAD_ERROR;
	}
	if (eh->type != ELF_TYPE_EXEC) {
		log_error(L"%s has ELF type %d, not a static executable (ET_EXEC = 2)", path,
			  (UINT32)eh->type);
		return EFI_LOAD_ERROR;
	}
	if (eh->phentsize != sizeof(struct elf64_phdr) || eh->phnum == 0) {
		log_error(L"%s has no usable program headers (%d of %d bytes)", path,
			  (UINT32)eh->phnum, (UINT32)eh->phentsize);
		return EFI_LOAD_ERROR;
	}
	if (eh->phoff > size || (size - eh->phoff) / sizeof(struct elf64_phdr) < eh->phnum) {
		log_error(L"%s: program headers run past the end of the file (%ld bytes); "
			  L"truncated?", path, size);
		return EFI_LOAD_ERROR;
	}
	return EFI_SUCCESS;
}

/* Check one PT_LOAD header (number i) against the file size and the
 * address rules. Prints the reason and returns EFI_LOAD_ERROR if bad.
 * Boot services only (it prints). */
static EFI_STATUS elf_check_load(const CHAR16 *path, UINTN i, const struct elf64_phdr *ph,
				 UINT64 size)
{
	if (ph->filesz > ph->memsz) {
		log_error(L"%s: segment %ld has more file bytes (%ld) than memory bytes (%ld)", path,
			  (UINT64)i, ph->filesz, ph->memsz);
		return EFI_LOAD_ERROR;
	}
	if (ph->offset > size || size - ph->offset < ph->filesz) {
		log_error(L"%s: segment %ld needs file bytes up to %ld but the file has %ld; "
			  L"truncated?", path, (UINT64)i, ph->offset + ph->filesz, size);
		return EFI_LOAD_ERROR;
	}
	if (ph->vaddr < ELF_UPPER_HALF || ph->vaddr + ph->memsz < ph->vaddr) {
		log_error(L"%s: segment %ld at 0x%lx (+0x%lx) is not in the upper half "
			  L"(kernels are linked at 0x%lx or above)", path, (UINT64)i, ph->vaddr,
			  ph->memsz, ELF_UPPER_HALF);
		return EFI_LOAD_ERROR;
	}
	return EFI_SUCCESS;
}

/* Collect the PT_LOAD segments into kernel (base, end, segments) and check
 * they are sane: inside the file, in the upper half, not overlapping,
 * spanning at most ELF_SPAN_MAX, and the entry point executable. Boot
 * services only (it prints). */
static EFI_STATUS elf_collect(const CHAR16 *path, const UINT8 *file, UINT64 size,
			      struct kernel_image *k)
{
	const struct elf64_ehdr *eh = (const struct elf64_ehdr *)file;
	const struct elf64_phdr *ph = (const struct elf64_phdr *)(file + eh->phoff);
	BOOLEAN entry_ok = FALSE;

	k->virt_base = ~0ull;
	k->virt_end = 0;
	k->segment_count = 0;
	for (UINTN i = 0; i < eh->phnum; i++) {
		if (ph[i].type != ELF_PT_LOAD || ph[i].memsz == 0)
			continue;
		if (EFI_ERROR(elf_check_load(path, i, &ph[i], size)))
			return EFI_LOAD_ERROR;
		if (k->segment_count == KERNEL_SEGMENTS_MAX) {
			log_error(L"%s has more than %d loadable segments", path, KERNEL_SEGMENTS_MAX);
			return EFI_LOAD_ERROR;
		}
		for (UINT32 j = 0; j < k->segment_count; j++) {
			const struct kernel_segment *s = &k->segments[j];

			if (ph[i].vaddr < s->vaddr + s->memsz && s->vaddr < ph[i].vaddr + ph[i].memsz) {
				log_error(L"%s: segment %ld at 0x%lx overlaps another at 0x%lx", path,
					  (UINT64)i, ph[i].vaddr, s->vaddr);
				return EFI_LOAD_ERROR;
			}
		}
		k->segments[k->segment_count].vaddr = ph[i].vaddr;
		k->segments[k->segment_count].memsz = ph[i].memsz;
		k->segments[k->segment_count].flags = ph[i].flags;
		k->segment_count++;
		if (ph[i].vaddr < k->virt_base)
			k->virt_base = ph[i].vaddr;
		if (ph[i].vaddr + ph[i].memsz > k->virt_end)
			k->virt_end = ph[i].vaddr + ph[i].memsz;
		if ((ph[i].flags & ELF_PF_X) && eh->entry >= ph[i].vaddr &&
		    eh->entry < ph[i].vaddr + ph[i].memsz)
			entry_ok = TRUE;
	}
	if (k->segment_count == 0) {
		log_error(L"%s has no loadable (PT_LOAD) segments", path);
		return EFI_LOAD_ERROR;
	}
	k->virt_base &= ~ELF_PAGE_MASK;
	if (k->virt_end > ~ELF_PAGE_MASK) {
		log_error(L"%s: a segment ends at the very top of the address space", path);
		return EFI_LOAD_ERROR;
	}
	k->virt_end = (k->virt_end + ELF_PAGE_MASK) & ~ELF_PAGE_MASK;
	if (k->virt_end - k->virt_base > ELF_SPAN_MAX) {
		log_error(L"%s spans %ld MiB of addresses (0x%lx..0x%lx); at most %ld MiB is sane",
			  path, (k->virt_end - k->virt_base) >> 20, k->virt_base, k->virt_end,
			  ELF_SPAN_MAX >> 20);
		return EFI_LOAD_ERROR;
	}
	if (!entry_ok) {
		log_error(L"%s: entry point 0x%lx is not inside an executable segment", path,
			  eh->entry);
		return EFI_LOAD_ERROR;
	}
	k->entry = eh->entry;
	return EFI_SUCCESS;
}

/* Check the kernel ELF held in file[0..size) and place it: one contiguous
 * BOOT_MEM_KERNEL block for the whole span, file bytes copied, the rest
 * (bss, gaps) zero. Fills kernel. Prints the reason on failure. Boot
 * services only. */
EFI_STATUS elf_load_kernel(const CHAR16 *path, const UINT8 *file, UINT64 size,
			   struct kernel_image *kernel)
{
	const struct elf64_ehdr *eh = (const struct elf64_ehdr *)file;
	EFI_PHYSICAL_ADDRESS block;
	EFI_STATUS status;

	status = elf_check_header(path, file, size);
	if (EFI_ERROR(status))
		return status;
	status = elf_collect(path, file, size, kernel);
	if (EFI_ERROR(status))
		return status;
	status = mem_alloc_pages(BOOT_MEM_KERNEL, kernel->virt_end - kernel->virt_base,
				 L"the kernel image", &block);
	if (EFI_ERROR(status))
		return status;
	kernel->phys_base = block;

	const struct elf64_phdr *ph = (const struct elf64_phdr *)(file + eh->phoff);

	for (UINTN i = 0; i < eh->phnum; i++) {
		if (ph[i].type != ELF_PT_LOAD || ph[i].memsz == 0)
			continue;
		CopyMem((UINT8 *)(UINTN)(block + (ph[i].vaddr - kernel->virt_base)),
			(VOID *)(file + ph[i].offset), ph[i].filesz);
	}
	log_info(L"kernel %s: 0x%lx..0x%lx at physical 0x%lx, entry 0x%lx", path,
		 kernel->virt_base, kernel->virt_end, kernel->phys_base, kernel->entry);
	return EFI_SUCCESS;
}
