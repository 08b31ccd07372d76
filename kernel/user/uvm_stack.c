/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uvm_stack.c — the thread stacks of an address space (see uvm.h): each
 * below the last, above an unmapped guard page, never unmapped while the
 * process lives; a stack whose thread is gone is reused by the next
 * thread that fits in it.
 */
#include <user/uvm.h>
#include <user/ulayout.h>
#include <mosaic/syscall.h>
#include <mm/mm.h>

/* See uvm.h. A new stack's record is published to the lock-free readers
 * of uvm_in_guard() only once complete. */
int uvm_stack_get(struct uvm *vm, uint64_t size, struct ustack **out)
{
	struct ustack *s;
	int rc = 0;
	mutex_lock(&vm->lock);
	for (s = vm->stacks; s; s = s->next)
		if (!s->in_use && s->size >= size)
			break;
	if (!s) {
		uint64_t top = vm->stack_next;
		if (top - USER_STACK_LOW < size + USER_PAGE || !(s = kzalloc(sizeof(*s)))) {
			rc = ERR_NOMEM;
		} else if ((rc = uvm_map_zero_locked(vm, top - size, size, UVM_WRITE))) {
			uvm_unmap_locked(vm, top - size, size);
			kfree(s);
			s = NULL;
		} else {
			vm->stack_next = top - size - USER_PAGE;
			s->top = top;
			s->size = size;
			s->next = vm->stacks;
			__atomic_store_n(&vm->stacks, s, __ATOMIC_RELEASE);
		}
	}
	if (s)
		s->in_use = 1;
	mutex_unlock(&vm->lock);
	*out = s;
	return rc;
}

/* See uvm.h. */
void uvm_stack_put(struct uvm *vm, struct ustack *s)
{
	mutex_lock(&vm->lock);
	s->in_use = 0;
	mutex_unlock(&vm->lock);
}

/* See uvm.h. */
int uvm_in_guard(struct uvm *vm, uint64_t addr)
{
	for (const struct ustack *s = __atomic_load_n(&vm->stacks, __ATOMIC_ACQUIRE); s; s = s->next)
		if (addr >= s->top - s->size - USER_PAGE && addr < s->top - s->size)
			return 1;
	return 0;
}

/* See uvm.h. */
void uvm_stacks_free(struct uvm *vm)
{
	while (vm->stacks) {
		struct ustack *s = vm->stacks;
		vm->stacks = s->next;
		kfree(s);
	}
}
