/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loader.h — internal interfaces of the Mosaic UEFI loader (boot/).
 *
 * The loader runs single-threaded inside UEFI boot services, so no function
 * here takes a lock; "boot services" below means "only before
 * ExitBootServices". Every function that can fail prints its own clear
 * message on ConOut and returns an EFI error status; efi_main turns any
 * error into a return to the firmware.
 */
#ifndef MOSAIC_BOOT_LOADER_H
#define MOSAIC_BOOT_LOADER_H

#include <efi.h>
#include <efilib.h>
#include <mosaic/boot_info.h>
#include <boot/elf_check.h>

#define LOADER_VERSION      "mosaic-efi 1.0"
#define LOADER_PATH_MAX     256         /* CHAR16s in a file path, with NUL */
#define LOADER_FAIL_STALL_US 3000000    /* keep an error readable this long */
#define LOADER_DEFAULT_KERNEL L"\\mosaic\\kernel.elf"
#define LOADER_CONFIG_NAME  L"mosaic.cfg"

/* ---- log.c: messages on ConOut (OVMF mirrors them to the serial port) */
void log_info(const CHAR16 *fmt, ...);
void log_warn(const CHAR16 *fmt, ...);
void log_error(const CHAR16 *fmt, ...);

/* ---- mem.c: page allocations, remembered so a failed boot frees them */
EFI_STATUS mem_alloc_pages(UINT32 type, UINT64 bytes, const CHAR16 *what,
			   EFI_PHYSICAL_ADDRESS *phys);
void mem_free_all(void);

/* ---- path.c: the loader's own file path and small CHAR16 helpers */
void path_of_image(const EFI_DEVICE_PATH *dp, CHAR16 *out, UINTN out_len);
const CHAR16 *path_basename(const CHAR16 *path);
void path_sibling(const CHAR16 *path, const CHAR16 *name, CHAR16 *out, UINTN out_len);
BOOLEAN path_ascii_to_path(const char *src, UINTN len, CHAR16 *out, UINTN out_len);
BOOLEAN path_equal_nocase(const CHAR16 *a, UINTN a_len, const CHAR16 *b);

/* ---- volume.c: files on the loader's volume, or on any other FAT volume */
void vol_init(EFI_HANDLE own_device);
EFI_STATUS vol_open(const CHAR16 *path, EFI_FILE_HANDLE *file, UINT64 *size);
EFI_STATUS vol_read(EFI_FILE_HANDLE file, const CHAR16 *path, VOID *buf, UINT64 size);
void vol_close(EFI_FILE_HANDLE file);
/* Read all of the file at path (vol_open's search) into a new pool buffer
 * with one spare byte; *buf is the caller's to FreePool. EFI_NOT_FOUND is
 * returned without a message (the caller says what was missing); a file
 * over max bytes, no memory or a read error is reported, naming `what`. */
EFI_STATUS vol_read_whole(const CHAR16 *path, const CHAR16 *what, UINT64 max, UINT8 **buf,
			  UINT64 *size);

/* ---- config.c: mosaic.cfg */
struct loader_config {
	BOOLEAN from_file;          /* FALSE: there was no mosaic.cfg */
	CHAR16 kernel[LOADER_PATH_MAX];
	UINT32 module_count;
	CHAR16 modules[BOOT_MODULES_MAX][LOADER_PATH_MAX];
	char cmdline[BOOT_CMDLINE_MAX];
};
EFI_STATUS cfg_load(const CHAR16 *path, struct loader_config *cfg);

/* ---- options.c: the command line from the image's LoadOptions */
BOOLEAN opts_cmdline(const EFI_LOADED_IMAGE *li, const CHAR16 *image_name,
		     char *out, UINTN out_len);
void opts_copy_ascii(char *out, UINTN out_len, const char *src, UINTN src_len,
		     const CHAR16 *what);

/* ---- elf.c: the kernel image (its checks: elf_check.h) */
struct kernel_image {
	struct elf_layout layout;   /* segments, page-aligned span, entry */
	UINT64 phys_base;           /* the contiguous block holding the span */
};
EFI_STATUS elf_load_kernel(const CHAR16 *path, const UINT8 *file, UINT64 size,
			   struct kernel_image *kernel);

/* ---- gop.c, acpi.c: what the firmware tells the kernel */
/* The framebuffer in the mode cmdline's video= word asks for. */
void gop_collect(struct boot_framebuffer *fb, const char *cmdline);
UINT64 acpi_find_rsdp(void);

/* ---- paging.c: the kernel's first page tables */
EFI_STATUS paging_build(const struct kernel_image *kernel, UINT64 fb_end,
			UINT64 *cr3, UINT64 *direct_map_size);

/* ---- exit.c: leaving boot services and entering the kernel */
EFI_STATUS exit_reserve_map(struct boot_info *info);
EFI_STATUS exit_boot_services(EFI_HANDLE image, struct boot_info *info);
void exit_enter_kernel(UINT64 cr3, UINT64 entry, UINT64 info_virt) __attribute__((noreturn));

#endif
