/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * console.h — where kernel output goes: every registered sink (serial,
 * framebuffer) receives every byte. Input is console_input.h.
 */
#ifndef MOSAIC_CONSOLE_H
#define MOSAIC_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

struct console_sink {
	const char *name;
	void (*write)(const char *buf, size_t len);
	struct console_sink *next;
};

/* The log of all output: the boot log (its first CONSOLE_BOOT_LOG_SIZE
 * bytes up to the shell's start), which later output never overwrites,
 * and the newest CONSOLE_LOG_SIZE bytes after it. */
#define CONSOLE_BOOT_LOG_SIZE 16384
#define CONSOLE_LOG_SIZE 16384

/* Add a sink; it receives all later output and, when replay is set, first
 * the output logged so far. Boot-time. */
void console_register(struct console_sink *sink, int replay);
/* Print the logged output again on every console (`dmesg`): the boot log,
 * then the newest output after it. */
void console_dump_log(void);
/* The boot is over (the shell starts): what comes now goes to the ring,
 * the boot log stays as it is. */
void console_boot_done(void);
/* A tap on all output (kernel/save/save_capture.c's capture of one
 * thread's output): called first by console_write(), from any context;
 * returns 1 when it took the output away from the consoles. */
extern int (*console_tap)(const char *buf, size_t len);
/* Bytes written since boot: the end of the stream console_log_read() reads. */
uint64_t console_log_total(void);
/* Copies the logged output from stream position from on (at most len
 * bytes) into buf; returns the bytes copied, *first the position of the
 * first (later than from when the ring no longer holds older output).
 * Takes the console lock, except once a panic broke it. */
size_t console_log_read(uint64_t from, char *buf, size_t len, uint64_t *first);
/* The boot log (*log, its length returned) once the boot is over; 0 before. */
size_t console_boot_log(const char **log);
/* Write to every sink. Takes the console lock (safe from any context but
 * an NMI), except on the CPU of a console block (below). */
void console_write(const char *buf, size_t len);
/* A block of lines from one CPU that no other CPU's output splits (a
 * watchdog or panic report, also from an NMI handler): begin takes the
 * console for the calling CPU, waiting a bounded time (console.c says how
 * it never waits for ever); until end, that CPU's printk() output goes
 * out without taking the console lock again, and other CPUs' waits. A
 * block begun inside the same CPU's block (an NMI) nests in it.
 * Interrupts off throughout; no sleeping inside. */
void console_hold_begin(void);
void console_hold_end(void);
/* Free the console lock whoever holds it, so a panic can print after it
 * stopped the other CPUs. Panic path only. */
void console_break_lock(void);
/* 1 once a panic broke the lock: sinks that defer output draw at once. */
int console_panicking(void);
#endif
