/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * user_host.h — the system-call layer of kernel/user/ (handle.c, svc.c,
 * ipc.c, sys_vm.c) on the host, on top of the machine of uvm_host.h:
 *
 *  - spinlocks panic when taken twice or released unheld, and count what
 *    is held (host_spin_depth) so pages, mutexes and user memory are never
 *    touched under one; user_lock is defined here (uwait.c is not built);
 *  - the waits of uwait.c for calls that never block: any attempt to
 *    sleep panics, and so does a channel found with a waiter on it (none
 *    ever waits);
 *  - copy_from_user(), copy_to_user() and copy_str_from_user() with the
 *    range checks of usercopy.c, through the page tables of the current
 *    process as ring 3 sees them (uvm_walk.h): a byte on a page that is
 *    not present (or not writable, for copy_to_user) faults;
 *  - proc_self() and uthread_self(): the thread made current here.
 */
#ifndef MOSAIC_TEST_USER_HOST_H
#define MOSAIC_TEST_USER_HOST_H
#include <user/uproc.h>

/* The calling thread from now on (NULL: a kernel thread). */
void host_set_current(struct uthread *ut);

#endif
