/* SPDX-License-Identifier: BSD-2-Clause */
/* sys_vm.c — the memory system calls (include/mosaic/syscall.h;
 * docs/userland.md): SYS_VM_MAP and SYS_VM_UNMAP on the caller's address
 * space (uvm_map.c). Portable: also built into the host harnesses. */
#include <user/uproc.h>

/* SYS_VM_MAP(bytes): fresh zeroed read-write memory; its address. */
int64_t sys_vm_map(struct trap_frame *tf)
{
	return uvm_map_anon(&proc_self()->vm, tf->rdi);
}

/* SYS_VM_UNMAP(addr, bytes): SYS_VM_MAP memory given back. */
int64_t sys_vm_unmap(struct trap_frame *tf)
{
	return uvm_unmap_anon(&proc_self()->vm, tf->rdi, tf->rsi);
}
