/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pmm_map.c — interpreting the UEFI memory map for pmm.c.
 * Pure functions over the map; no state, no locks. Host-testable.
 */
#include <mm/mm.h>
#include <kern/panic.h>
#include <mm/pmm_map.h>

/* Open bi's memory map. Panics if the descriptor stride is too small to hold
 * a descriptor, since every later read would be garbage. */
void pmm_map_open(struct pmm_map *m, const struct boot_info *bi,
		  const struct pmm_range *keep, unsigned nkeep)
{
	if (bi->mmap_desc_size < sizeof(struct boot_mem_desc))
		panic("pmm: memory map descriptor size %lu is smaller than a descriptor (%zu)",
		      bi->mmap_desc_size, sizeof(struct boot_mem_desc));
	m->descs = phys_to_virt(bi->mmap_phys);
	m->stride = bi->mmap_desc_size;
	m->count = bi->mmap_size / bi->mmap_desc_size;
	m->keep = keep;
	m->nkeep = nkeep;
}

/* Descriptor i (< m->count). */
const struct boot_mem_desc *pmm_map_desc(const struct pmm_map *m, uint64_t i)
{
	return (const struct boot_mem_desc *)(m->descs + i * m->stride);
}

/* Usable RAM: conventional always; loader and boot-services memory only once
 * the kernel no longer runs on anything the loader or firmware left there. */
int pmm_type_usable(uint32_t type, enum pmm_usable usable)
{
	switch (type) {
	case BOOT_MEM_CONVENTIONAL:
		return 1;
	case BOOT_MEM_LOADER_CODE:
	case BOOT_MEM_LOADER_DATA:
	case BOOT_MEM_BOOT_SERVICES_CODE:
	case BOOT_MEM_BOOT_SERVICES_DATA:
		return usable == PMM_USABLE_WITH_BOOT;
	default:
		return 0;
	}
}

/* The loader's OS-defined types: the kernel image, modules, boot info. */
int pmm_type_os(uint32_t type)
{
	return type == BOOT_MEM_KERNEL || type == BOOT_MEM_MODULE || type == BOOT_MEM_BOOT_INFO;
}

/* Byte range of a descriptor, rounded to whole pages (inward or outward).
 * A range that would pass 2^64 ends at the last page boundary instead. */
struct pmm_range pmm_desc_range(const struct boot_mem_desc *d, int inner)
{
	const uint64_t top = ~(PAGE_SIZE - 1);
	uint64_t start = d->phys_start;
	uint64_t end;
	struct pmm_range r;

	if (d->num_pages > (UINT64_MAX - start) / PAGE_SIZE)
		end = top;
	else
		end = start + d->num_pages * PAGE_SIZE;
	if (inner) {
		r.start = start > top ? top : PAGE_ROUND_UP(start);
		r.end = PAGE_ROUND_DOWN(end);
	} else {
		r.start = PAGE_ROUND_DOWN(start);
		r.end = end > top ? top : PAGE_ROUND_UP(end);
	}
	if (r.end < r.start)
		r.end = r.start;
	return r;
}

/* Blocker number i: first the descriptors whose type is not usable, then
 * the keep ranges. Returns 0 if i names a usable descriptor. */
static int pmm_map_blocker(const struct pmm_map *m, enum pmm_usable usable, uint64_t i,
			   struct pmm_range *out)
{
	if (i < m->count) {
		const struct boot_mem_desc *d = pmm_map_desc(m, i);
		if (d->num_pages == 0 || pmm_type_usable(d->type, usable))
			return 0;
		*out = pmm_desc_range(d, 0);
		return 1;
	}
	*out = m->keep[i - m->count];
	return out->start < out->end;
}

/* See pmm_map.h. Walks forward over blockers that cover the current
 * position, then stops the gap at the nearest blocker that starts after it. */
int pmm_map_next_gap(const struct pmm_map *m, enum pmm_usable usable,
		     uint64_t *start, uint64_t end, uint64_t *gap_end)
{
	uint64_t p = *start;
	uint64_t n = m->count + m->nkeep;

	while (p < end) {
		uint64_t stop = end;
		int covered = 0;
		struct pmm_range b;

		for (uint64_t i = 0; i < n; i++) {
			if (!pmm_map_blocker(m, usable, i, &b))
				continue;
			if (b.start <= p && p < b.end) {
				p = b.end;
				covered = 1;
				break;
			}
			if (b.start > p && b.start < stop)
				stop = b.start;
		}
		if (!covered) {
			*start = p;
			*gap_end = stop;
			return 1;
		}
	}
	return 0;
}
