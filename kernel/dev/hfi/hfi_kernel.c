/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi_kernel.c — the HFI driver's kernel side (hfi_kernel.h): the platform
 * services of hfi_plat.h, the thermal vector's handler, and the publisher
 * thread that hands new scores to hmp outside the interrupt. The logic is
 * the portable part (hfi.h); this file only connects it.
 */
#include <arch/x86_64/intr/lapic.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <thread/thread.h>
#include <sched/hmp.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/trap/trap.h>
#include <sync/waitq.h>
#include <dev/hfi/hfi.h>
#include <dev/hfi/hfi_kernel.h>
#include <dev/hfi/hfi_plat.h>
#include <dev/hfi/hfi_history.h>

#define HFI_LOG_MAX 200

static struct hfi_drv hfi_drv = { .vector = VEC_THERMAL };
static struct waitq hfi_wq = WAITQ_INIT("hfi publisher");
static int hfi_publisher_started;

/* ---- hfi_plat.h ---- */

/* See hfi_plat.h: smp_call_on(), which waits with interrupts on. */
int hfi_plat_run_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	return smp_call_on(cpu, fn, arg);
}

/* See hfi_plat.h. */
unsigned hfi_plat_cpu_self(void)
{
	return cpu_current();
}

/* See hfi_plat.h: the local APIC's thermal LVT (lapic.h). */
int hfi_plat_lvt_present(void)
{
	return lapic_has_thermal_lvt();
}

/* See hfi_plat.h. */
uint32_t hfi_plat_lvt_read(void)
{
	return lapic_thermal_lvt_read();
}

/* See hfi_plat.h. */
void hfi_plat_lvt_write(uint32_t v)
{
	lapic_thermal_lvt_write(v);
}

/* See hfi_plat.h. One page from pmm_alloc_page(), several from the
 * boot-time contiguous allocator; both are zeroed; nothing frees them. */
void *hfi_plat_table_alloc(unsigned pages, uint64_t *phys)
{
	uint64_t p = pages == 1 ? pmm_alloc_page() : pmm_alloc_low(pages, ~0ull);
	if (!p)
		return NULL;
	*phys = p;
	return phys_to_virt(p);
}

/* See hfi_plat.h: the heap, never freed. */
void *hfi_plat_zalloc(size_t size)
{
	return kzalloc(size);
}

/* See hfi_plat.h: one printk line. */
void hfi_plat_log(const char *fmt, ...)
{
	char line[HFI_LOG_MAX];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	printk("hfi: %s\n", line);
}

/* ---- interrupt and publisher ---- */

/* VEC_THERMAL: the HFI part of the thermal interrupt; a new table wakes
 * the publisher. Interrupts off (the dispatcher sends the EOI). */
static void hfi_thermal_irq(struct trap_frame *tf)
{
	(void)tf;
	if (hfi_event(&hfi_drv, (int)cpu_current())) {
		hfi_history_note(&hfi_drv, (int)cpu_current());
		waitq_wake_one(&hfi_wq);
	}
}

/* The publisher: sleeps until an update is pending, publishes it (or
 * waits out the rate limit first). Never returns. */
static void hfi_publisher(void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t flags = spin_lock_irqsave(&hfi_wq.lock);
		while (!hfi_publish_pending(&hfi_drv))
			waitq_sleep_locked(&hfi_wq);
		spin_unlock_irqrestore(&hfi_wq.lock, flags);
		uint64_t wait = hfi_publish_step(&hfi_drv, time_ns());
		if (wait)
			thread_sleep_ns(wait);
	}
}

/* The boot log's summary of an enabled driver. */
static void hfi_log_summary(const struct hfi_drv *d)
{
	for (int k = 0; k < d->npkg; k++) {
		const struct hfi_pkg *p = &d->pkg[k];
		if (!p->enabled)
			continue;
		char where[32] = "";
		if (d->npkg > 1)
			ksnprintf(where, sizeof(where), " (package %u)", p->package);
		printk("hfi: %u rows, %u class%s, table %u bytes at 0x%lx%s%s\n", d->rows_used,
		       d->lay.ncls, d->lay.ncls == 1 ? "" : "es", d->lay.size,
		       (unsigned long)p->table_phys, where, door_emulated() ? ", emulated" : "");
	}
}

/* See hfi_kernel.h. */
void hfi_init(void)
{
	static struct hfi_cpu_info info[MAXCPU];
	unsigned n = smp_cpu_count();
	for (unsigned i = 0; i < n; i++) {
		const struct cpu_desc *d = smp_cpu_desc(i);
		info[i].online = smp_cpu_online(i) && d;
		info[i].package = d ? d->package_id : 0;
	}
	trap_set_handler(VEC_THERMAL, hfi_thermal_irq);
	if (hfi_start(&hfi_drv, n, info)) {
		printk("hfi: %s\n", hfi_drv.why);
		return;
	}
	hfi_log_summary(&hfi_drv);
	if (!thread_sched_running())
		printk("hfi: scheduler off (sched=off): tables are copied but not handed to hmp\n");
	else if (!thread_create_detached("hfi", hfi_publisher, NULL))
		printk("hfi: out of memory for the publisher thread: scores are not handed to hmp\n");
	else
		hfi_publisher_started = 1;
}

/* See hfi_kernel.h. */
int hfi_publishing(void)
{
	return hfi_publisher_started;
}

/* See hfi_kernel.h. */
const struct hfi_drv *hfi_driver(void)
{
	return &hfi_drv;
}
