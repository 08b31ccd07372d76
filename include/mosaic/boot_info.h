/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * boot_info.h — the one structure the loader hands to the kernel.
 *
 * Shared by boot/ (GNU-EFI loader) and kernel/. Plain fixed-width types only,
 * no UEFI headers, so both sides compile it unchanged.
 *
 * Entry contract (loader -> kernel):
 *   - long mode, interrupts disabled, boot services exited;
 *   - CR3 holds loader-built page tables that map
 *       * the kernel image at its link address (virtual -> one contiguous
 *         physical block, kernel_phys_base),
 *       * all of physical memory 0..direct_map_size at BOOT_DIRECT_MAP_BASE,
 *       * the same range identity-mapped (for the switch; the kernel drops it);
 *   - RDI = virtual address (in the direct map) of struct boot_info;
 *   - RSP is a valid loader stack; the kernel switches to its own at once.
 */
#ifndef MOSAIC_BOOT_INFO_H
#define MOSAIC_BOOT_INFO_H

#include <stdint.h>

#define BOOT_INFO_MAGIC   0x3130434941534f4dULL /* "MOSAIC01" */
#define BOOT_DIRECT_MAP_BASE 0xFFFF800000000000ULL
#define BOOT_CMDLINE_MAX  1024
#define BOOT_MODULES_MAX  8
#define BOOT_MODULE_NAME_MAX 64
#define BOOT_FW_VENDOR_MAX 64

/* UEFI memory types (UEFI spec 2.10, 7.2), as found in the memory map. */
enum boot_mem_type {
	BOOT_MEM_RESERVED = 0,
	BOOT_MEM_LOADER_CODE = 1,
	BOOT_MEM_LOADER_DATA = 2,
	BOOT_MEM_BOOT_SERVICES_CODE = 3,
	BOOT_MEM_BOOT_SERVICES_DATA = 4,
	BOOT_MEM_RUNTIME_SERVICES_CODE = 5,
	BOOT_MEM_RUNTIME_SERVICES_DATA = 6,
	BOOT_MEM_CONVENTIONAL = 7,
	BOOT_MEM_UNUSABLE = 8,
	BOOT_MEM_ACPI_RECLAIM = 9,
	BOOT_MEM_ACPI_NVS = 10,
	BOOT_MEM_MMIO = 11,
	BOOT_MEM_MMIO_PORT_SPACE = 12,
	BOOT_MEM_PAL_CODE = 13,
	BOOT_MEM_PERSISTENT = 14,
	/* OS-defined types (0x80000000+) the loader allocates with. */
	BOOT_MEM_KERNEL = 0x80000000u,   /* kernel image: never reclaimed */
	BOOT_MEM_MODULE = 0x80000001u,   /* loaded modules: kept */
	BOOT_MEM_BOOT_INFO = 0x80000002u,/* boot_info + memory map copy: kept */
};

/* One UEFI memory descriptor; entries are mmap_desc_size bytes apart. */
struct boot_mem_desc {
	uint32_t type;
	uint32_t pad;
	uint64_t phys_start;
	uint64_t virt_start;
	uint64_t num_pages;   /* 4 KiB pages */
	uint64_t attribute;
};

enum boot_fb_format {
	BOOT_FB_NONE = 0,     /* no framebuffer */
	BOOT_FB_RGBX = 1,     /* byte 0 red */
	BOOT_FB_BGRX = 2,     /* byte 0 blue (the common one) */
	BOOT_FB_BITMASK = 3,  /* see the masks */
};

struct boot_framebuffer {
	uint64_t phys;
	uint64_t size;        /* bytes */
	uint32_t width;       /* pixels */
	uint32_t height;
	uint32_t pitch;       /* bytes per scan line */
	uint32_t format;      /* enum boot_fb_format; 32 bits per pixel */
	uint32_t red_mask, green_mask, blue_mask, reserved_mask;
};

struct boot_module {
	uint64_t phys;
	uint64_t size;
	char name[BOOT_MODULE_NAME_MAX];
};

struct boot_info {
	uint64_t magic;                 /* BOOT_INFO_MAGIC */
	uint64_t kernel_phys_base;      /* physical address of the lowest kernel page */
	uint64_t kernel_virt_base;      /* link address it is mapped at */
	uint64_t kernel_size;           /* bytes, page-rounded */
	uint64_t direct_map_size;       /* bytes of physical space mapped at BOOT_DIRECT_MAP_BASE */

	uint64_t mmap_phys;             /* copy of the final UEFI memory map */
	uint64_t mmap_size;             /* bytes */
	uint64_t mmap_desc_size;        /* stride between descriptors */
	uint32_t mmap_desc_version;
	uint32_t pad0;

	struct boot_framebuffer fb;

	uint64_t acpi_rsdp_phys;        /* 0 if none */
	uint64_t efi_system_table_phys;
	uint64_t efi_runtime_services_phys; /* EFI_RUNTIME_SERVICES, physical mode */

	uint32_t module_count;
	uint32_t pad1;
	struct boot_module modules[BOOT_MODULES_MAX];

	char cmdline[BOOT_CMDLINE_MAX]; /* NUL-terminated ASCII */
	char loader_version[32];
	/* The UEFI system table's FirmwareVendor (ASCII, others as '?', cut
	 * at BOOT_FW_VENDOR_MAX - 1 characters) and FirmwareRevision. */
	char fw_vendor[BOOT_FW_VENDOR_MAX];
	uint32_t fw_revision;
	uint32_t pad2;
};

#endif
