/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_hfi.c — `hfi`: the Hardware Feedback Interface driver's state (what
 * CPUID enumerates, the table, every row's values per class, which CPUs
 * use which row, the scores handed to hmp, the counters) and the emulated
 * device's; `hfi -w [MS]` waits for the next publication; the injection
 * verbs are in cmd_hfi_inject.c. docs/hfi.md explains the numbers. */
#include <shell/shell.h>
#include <dev/console_input.h>
#include <lib/parse.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/strbuf.h>
#include <lib/string.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>
#include <emul/emul_hfi.h>
#include <dev/hfi/hfi_kernel.h>
#include <emul/machine_desc/machine.h>
#include <shell/cmd_hfi.h>

#define HFI_WAIT_POLL_MS 50      /* how often `hfi -w` looks */
#define HFI_WAIT_DEFAULT_MS 10000
#define HFI_LINE_MAX 160

static const char *const lvt_names[] = { "-", "ours", "firmware", "absent" };

/* The CPUs of package k using row as "0-1,4" into buf ("-" if none). */
static void hfi_row_cpus(const struct hfi_drv *d, int k, int row, char *buf, size_t size)
{
	struct strbuf sb;
	strbuf_init(&sb, buf, size);
	int first = -1;
	for (unsigned i = 0; i <= d->ncpu; i++) {
		const struct hfi_cpu *c = i < d->ncpu ? &d->cpu[i] : NULL;
		int in = c && c->pkg == k && c->row_ok && c->row == row;
		if (in && first < 0)
			first = (int)i;
		if (!in && first >= 0) {
			strbuf_printf(&sb, sb.len ? ",%d" : "%d", first);
			if ((int)i - 1 > first)
				strbuf_printf(&sb, "-%u", i - 1);
			first = -1;
		}
	}
	if (!sb.len)
		strbuf_puts(&sb, "-");
	if (!strbuf_ok(&sb))
		ksnprintf(buf, size, "(many)");
}

/* One package: table, counters, rows with every class. */
static void hfi_show_pkg(const struct hfi_drv *d, int k)
{
	const struct hfi_pkg *p = &d->pkg[k];
	uint64_t in = hfi_count(&p->interrupts), up = hfi_count(&p->updates);
	printk("package %u: %s, table %u bytes at 0x%lx, last timestamp %lu\n", p->package,
	       p->enabled ? "enabled" : "off", d->lay.size, (unsigned long)p->table_phys,
	       (unsigned long)hfi_copy_timestamp(d, k));
	printk("  interrupts %lu = updates %lu + unchanged %lu + spurious %lu + busy %lu; "
	       "timestamps backwards %lu\n", (unsigned long)in, (unsigned long)up,
	       (unsigned long)hfi_count(&p->unchanged), (unsigned long)hfi_count(&p->spurious),
	       (unsigned long)hfi_count(&p->busy), (unsigned long)hfi_count(&p->ts_backwards));
	if (!p->enabled)
		return;
	char line[HFI_LINE_MAX], cpus[48];
	struct strbuf sb;
	strbuf_init(&sb, line, sizeof(line));
	strbuf_puts(&sb, "  row  cpus        ");
	for (unsigned c = 0; c < d->lay.ncls; c++)
		strbuf_printf(&sb, " class %u", c);
	printk("%s\n", line);
	for (unsigned r = 0; r < d->rows_used; r++) {
		hfi_row_cpus(d, k, (int)r, cpus, sizeof(cpus));
		strbuf_init(&sb, line, sizeof(line));
		strbuf_printf(&sb, "  %3u  %-12s", r, cpus);
		for (unsigned c = 0; c < d->lay.ncls; c++) {
			uint8_t perf, ee;
			if (hfi_copy_read(d, k, r, c, &perf, &ee) == 0)
				strbuf_printf(&sb, " %3u/%-3u", perf, ee);
		}
		printk("%s\n", line);
	}
}

/* The emulated device's summary, when there is one. */
static void hfi_show_device(void)
{
	struct emul_hfi_info e;
	char features[32];
	emul_hfi_get_info(&e);
	if (!e.active)
		return;
	machine_hfi_features_text(e.features, features, sizeof(features));
	printk("emulated device: %s (kern.emul.hfi), features %s, %u rows, %u class%s, %u page%s, "
	       "events %u of %u applied\n", e.frozen ? "frozen" : "running", features, e.rows,
	       e.classes, e.classes == 1 ? "" : "es", e.pages, e.pages == 1 ? "" : "s",
	       e.events_done, e.events_total);
	for (int k = 0; k < e.npkg; k++) {
		const struct emul_hfi_pkg_info *p = &e.pkg[k];
		printk("  package %u: writes %lu = enables %lu + changes %lu - coalesced %lu - pending %d;"
		       " acks %lu, disables %lu, timestamp %lu\n", p->package, (unsigned long)p->writes,
		       (unsigned long)p->enables, (unsigned long)p->changes,
		       (unsigned long)p->coalesced, p->pending, (unsigned long)p->acks,
		       (unsigned long)p->disables, (unsigned long)p->timestamp);
	}
	printk("  changes %lu, LVT deliveries %lu, masked %lu, faults %lu\n", (unsigned long)e.changes,
	       (unsigned long)e.raised, (unsigned long)e.masked, (unsigned long)e.faults);
}

/* `hfi`: everything, or "not supported" and why. */
static int hfi_show(void)
{
	const struct hfi_drv *d = hfi_driver();
	const struct hfi_features *f = &d->feat;
	printk("hfi: %s%s\n", d->why[0] ? d->why : "not started",
	       d->on && !hfi_publishing() ? " (nothing published: no publisher thread, sched=off?)" : "");
	if (f->hfi) {
		printk("CPUID.06H: HFI %s, ITD %s, PTS %s, %u class%s, capabilities 0x%x, %u page%s "
		       "(max leaf 0x%x)\n", f->hfi ? "yes" : "no", f->itd ? "yes" : "no",
		       f->pts ? "yes" : "no", f->classes, f->classes == 1 ? "" : "es", f->caps, f->pages,
		       f->pages == 1 ? "" : "s",
		       f->max_leaf);
	}
	if (d->npkg) {
		printk("table: %u class%s (Thread Director %s), row stride %u, %u rows fit, %u used\n",
		       d->lay.ncls, d->lay.ncls == 1 ? "" : "es", d->itd_on ? "on" : "off",
		       d->lay.row_stride, d->lay.rows_fit, d->rows_used);
		for (int k = 0; k < d->npkg; k++)
			hfi_show_pkg(d, k);
		printk("publications %lu, coalesced %lu (at most one per %lu ms), every-perf-0 tables %lu,"
		       " interrupts on unlinked CPUs %lu\n", (unsigned long)hfi_count(&d->publications),
		       (unsigned long)hfi_count(&d->coalesced),
		       (unsigned long)(HFI_PUBLISH_INTERVAL_NS / 1000000),
		       (unsigned long)hfi_count(&d->zero_tables), (unsigned long)hfi_count(&d->unlinked));
		printk("cpu  pkg  row   perf    ee  lvt       (scores handed to hmp: table byte x 4)\n");
		for (unsigned i = 0; i < d->ncpu; i++) {
			const struct hfi_cpu *c = &d->cpu[i];
			if (!c->online)
				continue;
			if (c->published)
				printk("%3u  %3d  %3d  %5u %5u  %s\n", i, c->pkg, (int)c->row, c->perf, c->ee,
				       lvt_names[c->lvt]);
			else
				printk("%3u  %3d  %3d      -     -  %s%s\n", i, c->pkg, (int)c->row,
				       lvt_names[c->lvt], c->row_ok ? "" : " (row beyond the table)");
		}
	}
	cmd_hfi_show_itd();
	hfi_show_device();
	return 0;
}

/* `hfi -w [MS]`: wait for the next publication (a key ends it early at
 * the console), then print the CPUs whose scores changed. */
static int hfi_wait(int argc, char **argv)
{
	static uint16_t perf[HFI_MAX_CPUS], ee[HFI_MAX_CPUS];
	static uint8_t had[HFI_MAX_CPUS];
	const struct hfi_drv *d = hfi_driver();
	uint64_t ms = HFI_WAIT_DEFAULT_MS;
	if (argc == 3 && shell_arg_u64("hfi", "-w MS", argv[2], 0, 1, SHELL_MS_MAX, &ms))
		return 1;
	if (!d->on || !hfi_publishing()) {
		printk("hfi: %s\n", d->on ? "-w: nothing is published (no publisher thread, sched=off?)" :
		       d->why);
		return 1;
	}
	for (unsigned i = 0; i < d->ncpu; i++) {
		perf[i] = d->cpu[i].perf;
		ee[i] = d->cpu[i].ee;
		had[i] = d->cpu[i].published;
	}
	uint64_t before = __atomic_load_n(&d->publications, __ATOMIC_ACQUIRE);
	uint64_t start = time_ns(), end = start + ms * 1000000ull;
	while (__atomic_load_n(&d->publications, __ATOMIC_ACQUIRE) == before) {
		char c;
		if (time_ns() >= end) {
			printk("hfi: no publication within %lu ms\n", (unsigned long)ms);
			return 1;
		}
		thread_sleep_ns(HFI_WAIT_POLL_MS * 1000000ull);
		if (!shell_scripted() && console_trygetc(&c)) {
			printk("hfi: -w: interrupted by a key after %lu ms\n",
			       (unsigned long)((time_ns() - start) / 1000000));
			return 1;
		}
	}
	printk("hfi: publication %lu after %lu ms\n",
	       (unsigned long)__atomic_load_n(&d->publications, __ATOMIC_ACQUIRE),
	       (unsigned long)((time_ns() - start) / 1000000));
	unsigned changed = 0;
	for (unsigned i = 0; i < d->ncpu; i++) {
		const struct hfi_cpu *c = &d->cpu[i];
		if (!c->published || (had[i] && c->perf == perf[i] && c->ee == ee[i]))
			continue;
		changed++;
		if (had[i])
			printk("cpu %u: perf %u -> %u, ee %u -> %u\n", i, perf[i], c->perf, ee[i], c->ee);
		else
			printk("cpu %u: perf %u, ee %u (first scores)\n", i, c->perf, c->ee);
	}
	if (!changed)
		printk("no CPU's scores changed\n");
	return 0;
}

/* See the usage line. */
static int cmd_hfi(int argc, char **argv)
{
	if (argc == 1)
		return hfi_show();
	if (strcmp(argv[1], "-w") == 0 && argc <= 3)
		return hfi_wait(argc, argv);
	if (strcmp(argv[1], "set") == 0 || strcmp(argv[1], "throttle") == 0 ||
	    strcmp(argv[1], "restore") == 0 || strcmp(argv[1], "storm") == 0)
		return cmd_hfi_inject(argc, argv);
	printk("hfi: unknown argument '%.*s' (expected -w, set, throttle, restore or storm)\n",
	       PARSE_ECHO_MAX, argv[1]);
	shell_usage("hfi");
	return 1;
}
SHELL_COMMAND(hfi, 0, 5,
	      "[-w [MS]] | set ROW perf=P ee=E [class=C] | throttle CPULIST [perf=P] | restore | storm N",
	      "HFI driver state; -w waits for new scores; set/throttle/restore/storm drive the "
	      "emulated device", cmd_hfi);
