/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vmm_identity.c — a page table for calling UEFI runtime services in
 * physical mode (the kernel never calls SetVirtualAddressMap).
 */
#include <mm/mm.h>
#include <kern/panic.h>
#include <kern/printk.h>
#include <mm/pmm_map.h>
#include <mm/vmm_pt.h>

/* Lowest address that is not a lower-half (canonical) virtual address. */
#define VMM_LOWER_HALF_END (1ULL << 47)

/* See mm.h. Runtime code and data are mapped RWX because firmware images
 * mix code and data within those regions; the table only lives around one
 * call. Descriptors beyond the lower half cannot be identity-mapped and are
 * reported and skipped. */
uint64_t vmm_make_identity_cr3(const struct boot_info *bi)
{
	uint64_t root, *pml4, *kernel_pml4;
	struct pmm_map m;

	if (!vmm_kernel_cr3())
		panic("vmm_make_identity_cr3 called before vmm_init()");
	root = pmm_alloc_page();
	if (!root)
		panic("vmm: no page for the identity-mapped PML4");
	pml4 = phys_to_virt(root);
	kernel_pml4 = phys_to_virt(vmm_kernel_cr3());
	for (unsigned i = PT_KERNEL_HALF; i < 512; i++)
		pml4[i] = kernel_pml4[i];

	pmm_map_open(&m, bi, NULL, 0);
	for (uint64_t i = 0; i < m.count; i++) {
		const struct boot_mem_desc *d = pmm_map_desc(&m, i);
		struct pmm_range r = pmm_desc_range(d, 0);
		uint64_t flags;

		if (d->type == BOOT_MEM_RUNTIME_SERVICES_CODE || d->type == BOOT_MEM_RUNTIME_SERVICES_DATA)
			flags = PTE_W;
		else if (d->type == BOOT_MEM_MMIO || d->type == BOOT_MEM_MMIO_PORT_SPACE)
			flags = PTE_W | PTE_NX | PTE_CACHE_UC;
		else
			continue;
		if (r.end > VMM_LOWER_HALF_END) {
			printk("vmm: cannot identity-map 0x%lx..0x%lx (type %u)\n",
			       r.start, r.end, d->type);
			continue;
		}
		pt_map_range(root, r.start, r.start, r.end - r.start, flags);
	}
	return root;
}
