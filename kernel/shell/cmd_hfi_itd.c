/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_hfi_itd.c — the Thread Director part of `hfi`: the driver's state
 * and its reads per class (kernel/dev/hfi/itd.h), then the
 * emulated Thread Director's answers (kernel/emul/emul_itd.h). */
#include <kern/printk.h>
#include <lib/itd_names.h>
#include <emul/emul_itd.h>
#include <dev/hfi/itd.h>
#include <shell/cmd_hfi.h>

/* "scalar 12, vector 40, ..." for the classes below n (at least
 * ITD_CLASSES) of counts. */
static void itd_print_counts(const char *what, const uint64_t *counts, unsigned n)
{
	if (n < ITD_CLASSES)
		n = ITD_CLASSES;
	printk("  %s:", what);
	for (unsigned c = 0; c < n && c < ITD_CLASS_MAX; c++)
		printk("%s %s %lu", c ? "," : "", itd_class_name(c), (unsigned long)counts[c]);
	printk("\n");
}

/* See cmd_hfi.h. */
void cmd_hfi_show_itd(void)
{
	struct itd_info d;
	struct emul_itd_info e;
	itd_get_info(&d);
	printk("itd: %s\n", d.why[0] ? d.why : "not started");
	if (d.classes) {
		itd_print_counts("valid reads per class", d.valid, d.classes);
		printk("  invalid reads %lu, beyond the classes %lu, faults %lu, HRESETs %lu\n",
		       (unsigned long)d.invalid, (unsigned long)d.beyond, (unsigned long)d.faults,
		       (unsigned long)d.hresets);
	}
	emul_itd_get_info(&e);
	if (!e.active)
		return;
	printk("emulated Thread Director: %u classes, %u CPUs enabled, valid after %lu us in a class\n",
	       e.classes, e.cpus_enabled, (unsigned long)(EMUL_ITD_SETTLE_NS / 1000));
	itd_print_counts("valid answers per class", e.valid, e.classes);
	printk("  invalid answers %lu, HRESETs %lu (ignored %lu), faults %lu\n",
	       (unsigned long)e.invalid, (unsigned long)e.hresets, (unsigned long)e.hresets_ignored,
	       (unsigned long)e.faults);
}
