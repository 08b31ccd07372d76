/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * itd.h — the Thread Director driver (docs/hfi.md, "Thread Director"): the
 * per-thread classification of Intel hybrid CPUs, read at every context
 * switch: itd_switch.c, registered as two of the thread layer's switch
 * hooks, calls itd_read() for the thread leaving a CPU and itd_hreset()
 * before the next one runs; what a class means for placement is the
 * scheduler's (sched_itd_class_set()).
 *
 * Everything goes through the door (door.h), so the same code drives a
 * real CPU and the emulated Thread Director (kernel/emul/emul_itd.c).
 * Needs the HFI driver to have enabled Thread Director on the table
 * (IA32_HW_FEEDBACK_CONFIG bit 1, hfi_init()).
 */
#ifndef MOSAIC_ARCH_ITD_H
#define MOSAIC_ARCH_ITD_H
#include <stdint.h>

#define ITD_WHY_MAX 112
/* Classes the driver counts: ITD_CLASS_MAX of kernel/lib/itd_class.h
 * (a layer above arch, so not included here); a class read at or beyond
 * it, or beyond the enumerated count, is counted in `beyond`. */
#define ITD_DRV_CLASSES 8

/* What the driver found and counted (counters atomic). */
struct itd_info {
	int on;                           /* classification enabled, reads happen */
	int hreset;                       /* HRESET resets the history at each switch */
	unsigned classes;                 /* CPUID.06H:ECX[15:8] */
	unsigned cpus;                    /* CPUs enabled */
	char why[ITD_WHY_MAX];            /* status line: what applied, or why not */
	uint64_t valid[ITD_DRV_CLASSES];    /* valid reads per class */
	uint64_t invalid;                 /* reads with the valid bit clear */
	uint64_t beyond;                  /* valid reads of a class >= classes (ignored) */
	uint64_t faults;                  /* reads that faulted (the driver then stops) */
	uint64_t hresets;
};

/* Detects Thread Director (CPUID.06H:EAX[23], more than one class, the
 * HFI driver's table with classes) and HRESET (CPUID.07H.01H:EAX[22] and
 * leaf 0x20 EBX[0]), enables IA32_HW_FEEDBACK_THREAD_CONFIG and
 * IA32_HRESET_ENABLE on every online CPU, logs "itd: ..." either way.
 * Boot CPU, once, right after hfi_init(), interrupts on. */
void itd_init(void);
/* The calling CPU's IA32_THREAD_FEEDBACK_CHAR for the thread that ran
 * there since the last HRESET: 1 with *cls when valid, 0 when not, -1
 * when the driver is off. A faulting read turns the driver off (counted).
 * Interrupts off. */
int itd_read(unsigned *cls);
/* HRESET of the calling CPU's Thread Director history, before another
 * thread runs; nothing when off or without HRESET. Interrupts off. */
void itd_hreset(void);
/* A copy of the driver's state. Any context. */
void itd_get_info(struct itd_info *out);

struct thread;
/* The thread layer's hook points (thread.h; registered by kernel/main.c,
 * itd_switch.c). Leave: td (the current thread, not idle) leaves its
 * CPU: the class the hardware read for it feeds its history and, when
 * adopted, the scheduler. Switch: another thread is to run: the CPU's
 * history is reset for it. Both do nothing without Thread Director.
 * Interrupts off. */
void itd_switch_leave(struct thread *td);
void itd_switch_enter(unsigned cpu, struct thread *cur, struct thread *next, uint64_t now);

#endif
