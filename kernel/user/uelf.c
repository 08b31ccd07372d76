/* SPDX-License-Identifier: BSD-2-Clause */
/* uelf.c — placing a program into a new address space. The file is
 * checked whole first (elf_check_rules() with the program rules: the same
 * code and strictness as the boot loader's kernel checks, boot/elf_check.c),
 * then each segment's pages are mapped with its permissions and its file
 * bytes written; the rest stays zero. */
#include <user/uproc.h>
#include <boot/elf.h>
#include <user/uelf_rules.h>
#include <user/ulayout.h>
#include <kern/panic.h>

/* See uproc.h. */
int uelf_load(struct uvm *vm, const uint8_t *file, uint64_t size, uint64_t *entry, char *err,
	      size_t err_size)
{
	struct elf_layout l;
	if (elf_check_rules(file, size, &elf_rules_program, &l, err, err_size))
		return ERR_NOEXEC;
	for (uint32_t i = 0; i < l.segment_count; i++) {
		const struct elf_segment *s = &l.segments[i];
		uint64_t start = s->vaddr & ~(USER_PAGE - 1);
		uint64_t end = (s->vaddr + s->memsz + USER_PAGE - 1) & ~(USER_PAGE - 1);
		unsigned prot = ((s->flags & ELF_PF_W) ? UVM_WRITE : 0) |
				((s->flags & ELF_PF_X) ? UVM_EXEC : 0);
		int rc = uvm_map_zero(vm, start, end - start, prot);
		if (rc)
			return rc;
		rc = uvm_write(vm, s->vaddr, file + s->offset, s->filesz);
		KASSERT(rc == 0, "uelf: segment %u's pages were just mapped", s->index);
	}
	*entry = l.entry;
	return 0;
}
