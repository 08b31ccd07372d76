/* SPDX-License-Identifier: BSD-2-Clause */
/* panic.h — stop the machine with a message and a backtrace. */
#ifndef MOSAIC_PANIC_H
#define MOSAIC_PANIC_H

/* Print "panic: <msg>", a backtrace from the caller and one of every
 * other CPU, then stop (under QEMU test runs: exit with status 3;
 * otherwise halt all CPUs). Never returns. */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Claim the panic for this CPU and stop the others (see panic.c); the
 * exception handler calls it before its report. */
void panic_begin(void);
/* After a report has been printed: let each stopped CPU print its
 * backtrace (NMI context, one at a time, a bounded wait for each), then
 * end the run per the panic= command-line option. Used by panic() and the
 * exception handler. */
void panic_stop(void) __attribute__((noreturn));

/* The keeper of a panic's report (kernel/save/save_panic.c's, which stores
 * it in a UEFI variable for the next boot): begin() runs in panic_begin()
 * once the other CPUs have stopped, before the report is printed; store()
 * in panic_stop() once every CPU has printed, before the run ends. Both on
 * the panicking CPU with interrupts off and the console lock broken. */
struct panic_keeper {
	void (*begin)(void);
	void (*store)(void);
};
/* Registers the keeper (one at a time; NULL: none). Boot-time. */
void panic_set_keeper(const struct panic_keeper *k);

/* Panic naming the failed condition and place, then the printf-style
 * message: KASSERT(n < max, "n=%d", n). */
#define KASSERT(cond, ...) \
	do { \
		if (!(cond)) \
			kassert_failed(#cond, __FILE__, __LINE__, __VA_ARGS__); \
	} while (0)
void kassert_failed(const char *cond, const char *file, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

#endif
