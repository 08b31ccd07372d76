/* SPDX-License-Identifier: BSD-2-Clause */
/* nmi.h — NMIs one CPU sends another: the stop of a panic (each stopped
 * CPU then prints its backtrace in turn) and a report of what a CPU was
 * doing (the hard-lockup watchdog, clock/watchdog.c). */
#ifndef MOSAIC_ARCH_NMI_H
#define MOSAIC_ARCH_NMI_H
#include <stdint.h>

struct trap_frame;

/* What a CPU runs in its NMI handler when asked by nmi_request_report():
 * tf is the interrupted state. NMI context: interrupts and further NMIs
 * off, any lock may be held by the interrupted code, so it prints only
 * inside a console block (console_hold_begin()). */
typedef void (*nmi_report_fn)(struct trap_frame *tf);

/* Install the NMI handler. Boot CPU, boot-time, before any AP starts. */
void nmi_init(void);
/* Ask logical CPU cpu (online, not the caller) to run fn from an NMI.
 * 0, or -1 when a request to it is still pending (nothing sent). Any
 * context. */
int nmi_request_report(unsigned cpu, nmi_report_fn fn);
/* Panic path: stop every other online CPU with an NMI and wait (at most
 * 100 ms) until they have parked. Idempotent; a no-op on one CPU.
 * Interrupts off from here on. */
void nmi_stop_others(void);
/* Panic path, after the panic's own report: each parked CPU in turn
 * prints its backtrace (waiting at most 1 s for each); a CPU that did not
 * park is named. The panicking CPU, interrupts off. */
void nmi_print_stopped(void);
#endif
