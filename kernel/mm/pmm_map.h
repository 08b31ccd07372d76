/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pmm_map.h — reading the UEFI memory map for the page allocator.
 *
 * The map may be unsorted, have overlapping or zero-length descriptors and
 * unaligned bounds; these helpers resolve that conservatively: a page is
 * usable only if a usable descriptor covers it whole and no other descriptor
 * (nor a "keep" range such as the kernel image) touches it.
 */
#ifndef MOSAIC_PMM_MAP_H
#define MOSAIC_PMM_MAP_H

#include <stdint.h>
#include <mosaic/boot_info.h>

/* [start, end) in bytes. */
struct pmm_range {
	uint64_t start, end;
};

struct pmm_map {
	const unsigned char *descs;      /* first descriptor, via the direct map */
	uint64_t count;                  /* number of descriptors */
	uint64_t stride;                 /* bytes between descriptors */
	const struct pmm_range *keep;    /* ranges never handed out */
	unsigned nkeep;
};

/* Usable memory classes: conventional only, or conventional plus the
 * loader/boot-services types (after reclaim). */
enum pmm_usable {
	PMM_USABLE_CONVENTIONAL,
	PMM_USABLE_WITH_BOOT,
};

/* Open bi's memory map; panics on a malformed descriptor size. */
void pmm_map_open(struct pmm_map *m, const struct boot_info *bi,
		  const struct pmm_range *keep, unsigned nkeep);
const struct boot_mem_desc *pmm_map_desc(const struct pmm_map *m, uint64_t i);
/* Whether memory of `type` is usable RAM under class `usable`. */
int pmm_type_usable(uint32_t type, enum pmm_usable usable);
/* Whether `type` is one of the loader's own OS types (kernel, modules,
 * boot info). */
int pmm_type_os(uint32_t type);
/* Page-aligned bytes a descriptor covers: shrunk to whole pages when
 * inner, grown to whole pages otherwise; saturates instead of wrapping. */
struct pmm_range pmm_desc_range(const struct boot_mem_desc *d, int inner);
/* Find the first run of [*start, end) that no descriptor outside `usable`
 * and no keep range touches; store it as [*start, *gap_end) and return 1,
 * or return 0 when there is none. O(descriptors) per step. */
int pmm_map_next_gap(const struct pmm_map *m, enum pmm_usable usable,
		     uint64_t *start, uint64_t end, uint64_t *gap_end);

#endif
