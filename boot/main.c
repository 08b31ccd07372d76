/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c — the Mosaic UEFI loader: read mosaic.cfg next to the loader,
 * load the kernel ELF and the modules, collect what the firmware knows
 * (memory map, framebuffer, ACPI, command line, runtime services), build
 * the first page tables, exit boot services and jump to the kernel with
 * one struct boot_info (include/mosaic/boot_info.h). Any failure before the jump
 * prints why, frees what was allocated and returns to the firmware. */
#include <boot/loader.h>

#define KERNEL_FILE_MAX (256ull * 1024 * 1024)
#define MODULE_FILE_MAX (512ull * 1024 * 1024)

/* Read the kernel ELF at path and place it (elf.c). Boot services only. */
static EFI_STATUS load_kernel(const CHAR16 *path, struct kernel_image *kernel)
{
	UINT64 size;
	UINT8 *buf;
	EFI_STATUS status;

	status = vol_read_whole(path, L"kernel", KERNEL_FILE_MAX, &buf, &size);
	if (status == EFI_NOT_FOUND)
		log_error(L"kernel %s not found, neither on the loader's volume nor on any other",
			  path);
	if (EFI_ERROR(status))
		return status;
	status = elf_load_kernel(path, buf, size, kernel);
	FreePool(buf);
	return status;
}

/* Load every module of cfg into BOOT_MEM_MODULE pages and describe it in
 * info (its name is the file name). Boot services only. */
static EFI_STATUS load_modules(const struct loader_config *cfg, struct boot_info *info)
{
	for (UINT32 i = 0; i < cfg->module_count; i++) {
		const CHAR16 *path = cfg->modules[i];
		const CHAR16 *base = path_basename(path);
		struct boot_module *m = &info->modules[i];
		EFI_PHYSICAL_ADDRESS phys;
		EFI_FILE_HANDLE file;
		UINT64 size;
		EFI_STATUS status;

		status = vol_open(path, &file, &size);
		if (status == EFI_NOT_FOUND)
			log_error(L"module %s not found, neither on the loader's volume nor on any "
				  L"other", path);
		if (EFI_ERROR(status))
			return status;
		if (size > MODULE_FILE_MAX) {
			log_error(L"module %s is %ld MiB; at most %ld MiB", path, size >> 20,
				  MODULE_FILE_MAX >> 20);
			vol_close(file);
			return EFI_LOAD_ERROR;
		}
		status = mem_alloc_pages(BOOT_MEM_MODULE, size, path, &phys);
		if (!EFI_ERROR(status))
			status = vol_read(file, path, (VOID *)(UINTN)phys, size);
		vol_close(file);
		if (EFI_ERROR(status))
			return status;
		m->phys = phys;
		m->size = size;
		for (UINTN j = 0; base[j] && j + 1 < BOOT_MODULE_NAME_MAX; j++)
			m->name[j] = (char)base[j];   /* config paths are ASCII */
		info->module_count = i + 1;
		log_info(L"module %s: %ld bytes at 0x%lx", path, size, phys);
	}
	return EFI_SUCCESS;
}

/* Everything from the loaded image to the jump. Returns only on failure,
 * with the reason printed. Boot services until exit_boot_services. */
static EFI_STATUS loader_boot(EFI_HANDLE image)
{
	static struct loader_config cfg;
	CHAR16 image_path[LOADER_PATH_MAX], cfg_path[LOADER_PATH_MAX];
	EFI_LOADED_IMAGE *li;
	struct kernel_image kernel;
	struct boot_info *info;
	EFI_PHYSICAL_ADDRESS info_phys;
	UINT64 cr3;
	EFI_STATUS status;

	status = BS->HandleProtocol(image, &gEfiLoadedImageProtocolGuid, (VOID **)&li);
	if (EFI_ERROR(status)) {
		log_error(L"the firmware gives no LoadedImage protocol for the loader (%r)", status);
		return status;
	}
	path_of_image(li->FilePath, image_path, LOADER_PATH_MAX);
	log_info(L"%a, started as %s", LOADER_VERSION, image_path[0] ? image_path : L"(no path)");
	if (!image_path[0])
		StrCpy(image_path, L"\\EFI\\BOOT\\BOOTX64.EFI");
	vol_init(li->DeviceHandle);
	path_sibling(image_path, LOADER_CONFIG_NAME, cfg_path, LOADER_PATH_MAX);
	status = cfg_load(cfg_path, &cfg);
	if (EFI_ERROR(status))
		return status;

	status = mem_alloc_pages(BOOT_MEM_BOOT_INFO, sizeof(*info), L"boot_info", &info_phys);
	if (EFI_ERROR(status))
		return status;
	info = (struct boot_info *)(UINTN)info_phys;
	info->magic = BOOT_INFO_MAGIC;
	CopyMem(info->loader_version, LOADER_VERSION, sizeof(LOADER_VERSION));
	if (opts_cmdline(li, path_basename(image_path), info->cmdline, sizeof(info->cmdline))) {
		log_info(L"command line (from the load options): %a", info->cmdline);
	} else {
		CopyMem(info->cmdline, cfg.cmdline, sizeof(info->cmdline));
		log_info(L"command line (%s): %a", cfg.from_file ? L"from mosaic.cfg" : L"none given",
			 info->cmdline);
	}

	status = load_kernel(cfg.kernel, &kernel);
	if (EFI_ERROR(status))
		return status;
	info->kernel_phys_base = kernel.phys_base;
	info->kernel_virt_base = kernel.layout.virt_base;
	info->kernel_size = kernel.layout.virt_end - kernel.layout.virt_base;
	status = load_modules(&cfg, info);
	if (EFI_ERROR(status))
		return status;

	gop_collect(&info->fb, info->cmdline);
	info->acpi_rsdp_phys = acpi_find_rsdp();
	info->efi_system_table_phys = (UINT64)(UINTN)ST;
	info->fw_revision = ST->FirmwareRevision;
	for (UINTN i = 0; ST->FirmwareVendor && ST->FirmwareVendor[i] && i + 1 < BOOT_FW_VENDOR_MAX; i++)
		info->fw_vendor[i] = ST->FirmwareVendor[i] >= 0x20 && ST->FirmwareVendor[i] < 0x7F
					     ? (char)ST->FirmwareVendor[i] : '?';
	info->efi_runtime_services_phys = (UINT64)(UINTN)ST->RuntimeServices;
	status = paging_build(&kernel, info->fb.phys + info->fb.size, &cr3, &info->direct_map_size);
	if (EFI_ERROR(status))
		return status;
	status = exit_reserve_map(info);
	if (EFI_ERROR(status))
		return status;

	log_info(L"exiting boot services; jumping to the kernel at 0x%lx with boot_info at 0x%lx",
		 kernel.layout.entry, BOOT_DIRECT_MAP_BASE + info_phys);
	status = exit_boot_services(image, info);
	if (EFI_ERROR(status))
		return status;
	exit_enter_kernel(cr3, kernel.layout.entry, BOOT_DIRECT_MAP_BASE + info_phys);
}

/* UEFI entry point. Returns only if the boot failed: then everything the
 * loader allocated is freed and, after a pause to read the message, the
 * error goes back to the firmware (which tries its next boot option).
 * Called once by the firmware, single-threaded, in boot services. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	EFI_STATUS status;

	InitializeLib(image, system_table);
	status = loader_boot(image);
	mem_free_all();
	log_error(L"boot failed (%r); returning to the firmware", status);
	BS->Stall(LOADER_FAIL_STALL_US);
	return status;
}
