/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save_panic.c — a panic report that survives the reboot: when the kernel
 * panics, the report (the panic's own output: message, registers,
 * every CPU's backtrace; then the last lines logged before it) is stored
 * in the non-volatile UEFI variable SAVE_PANIC_VAR of Mosaic's vendor GUID
 * (efi_rt.h), as large as the firmware takes (SAVE_PANIC_MAX bytes at
 * most, halved until it fits). The next boot prints it; `save` writes it
 * as panic-report.txt and only then clears the variable, so a report is
 * never lost for want of a stick.
 */
#include <save/save.h>
#include <kern/console.h>
#include <kern/panic.h>
#include <arch/x86_64/efi_rt.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>
#include <kern/version.h>

#define SAVE_PANIC_VAR   "MosaicPanicReport"
#define SAVE_PANIC_MAX   24576
#define SAVE_PANIC_MIN   1536
#define SAVE_PANIC_TAIL  "\n---- the last lines logged before the panic ----\n"

static uint64_t panic_from;         /* the log's stream position where the panic began */
static int panic_began;
static char report[SAVE_PANIC_MAX];
static char *previous;              /* the previous boot's report, read at boot */
static size_t previous_len;

/* Notes where the panic's output starts. The first panicking CPU,
 * interrupts off (panic_begin()). */
static void save_panic_begin(void)
{
	panic_from = console_log_total();
	panic_began = 1;
}

/* Fills report with at most cap bytes: a header, the panic's output (its
 * start kept when it is longer than three quarters of the room), then
 * the lines logged before it, as many as fit, from a line's start. */
static size_t build(size_t cap)
{
	uint64_t now = time_ns(), first;
	size_t n = (size_t)ksnprintf(report, cap, "Mosaic panic report: kernel %s, %lu.%03lu s after boot\n\n",
				     mosaic_version, now / 1000000000u, now / 1000000u % 1000u);
	size_t tail_len = sizeof(SAVE_PANIC_TAIL) - 1;
	uint64_t end = console_log_total(), own = end - panic_from;
	size_t room = cap - n - tail_len;
	size_t take = own < room * 3 / 4 ? (size_t)own : room * 3 / 4;
	n += console_log_read(panic_from, report + n, take, &first);
	memcpy(report + n, SAVE_PANIC_TAIL, tail_len);
	n += tail_len;
	size_t before = cap - n;
	uint64_t from = panic_from > before ? panic_from - before : 0;
	size_t got = console_log_read(from, report + n, (size_t)(panic_from - from), &first);
	size_t skip = 0;
	while (from > 0 && skip < got && report[n + skip] != '\n')
		skip++;             /* a line cut at its start is left out */
	if (skip < got && from > 0)
		skip++;
	memmove(report + n, report + n + skip, got - skip);
	return n + got - skip;
}

/* Stores the report; prints one line saying whether it was. The first
 * panicking CPU, once every CPU printed, interrupts off (panic_stop()). */
static void save_panic_store(void)
{
	if (!panic_began)
		return;
	uint64_t status = 0;
	for (size_t cap = SAVE_PANIC_MAX; cap >= SAVE_PANIC_MIN; cap /= 2) {
		size_t n = build(cap);
		if (efi_var_set(SAVE_PANIC_VAR, report, n, 1, &status) == 0) {
			printk("panic: report stored (%zu bytes, UEFI variable %s): the next boot prints it "
			       "and `save` writes it to a stick\n", n, SAVE_PANIC_VAR);
			return;
		}
		if (status == 0)
			break;          /* no runtime services, or the firmware was busy */
	}
	printk("panic: report not stored: %s (status 0x%lx)\n",
	       status ? "the firmware refused the variable" : "no UEFI runtime services", status);
}

/* See save.h. */
const struct panic_keeper save_panic_keeper = { save_panic_begin, save_panic_store };

/* See save.h. Boot, after efi_rt_init(); prints the previous boot's report
 * and keeps it for `save`. */
void save_panic_boot(void)
{
	size_t len = sizeof(report);
	uint64_t status;
	int rc = efi_var_get(SAVE_PANIC_VAR, report, &len, &status);
	if (rc == EFI_RT_NOT_FOUND || (rc && status == 0))
		return;
	if (rc) {
		printk("panic report: the UEFI variable %s could not be read (status 0x%lx)\n", SAVE_PANIC_VAR,
		       status);
		return;
	}
	if (!(previous = kmalloc(len ? len : 1)))
		return;
	memcpy(previous, report, len);
	previous_len = len;
	printk("==== panic report of an earlier boot (%zu bytes; `save` writes it to a stick and then "
	       "clears it) ====\n", len);
	for (size_t at = 0; at < len;) {   /* each line marked "| ": not this boot's output */
		size_t end = at;
		while (end < len && previous[end] != '\n')
			end++;
		printk("| %.*s\n", (int)(end - at), previous + at);
		at = end + 1;
	}
	printk("==== end of the panic report ====\n");
}

/* See save.h. */
const char *save_panic_text(size_t *len)
{
	*len = previous_len;
	return previous;
}

/* See save.h. Thread context. */
void save_panic_saved(void)
{
	uint64_t status;
	if (!previous)
		return;
	if (efi_var_set(SAVE_PANIC_VAR, NULL, 0, 0, &status))
		printk("save: the panic report was saved but its UEFI variable could not be cleared "
		       "(status 0x%lx)\n", status);
	else
		printk("save: the panic report's UEFI variable is cleared\n");
	kfree(previous);
	previous = NULL;
	previous_len = 0;
}
