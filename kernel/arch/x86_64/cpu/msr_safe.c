/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msr_safe.c — the fault side of rdmsr_safe() (cpu.h, msr_safe.asm): a
 * #GP raised by its one RDMSR resumes at its fault label instead of
 * stopping the kernel, as the user-copy routines' page faults do
 * (user_copy_fixup()).
 */
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/trap/trap.h>

extern const char msr_safe_rdmsr[], msr_safe_fault[];

/* See cpu.h. */
int msr_safe_fixup(struct trap_frame *tf)
{
	if (tf->vector != 13 || tf->rip != (uint64_t)msr_safe_rdmsr)
		return 0;
	tf->rip = (uint64_t)msr_safe_fault;
	return 1;
}
