/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi_event.c — the thermal interrupt's HFI part (see hfi.h). The
 * hardware sets IA32_PACKAGE_THERM_STATUS bit 26 once it has written the
 * table, raises the thermal interrupt on the package's CPUs, and writes
 * the table again only after the OS clears the bit (Intel SDM vol. 3B,
 * "Hardware Feedback Interface and Intel Thread Director"). So one CPU of
 * the package copies the table and clears the bit, the others return;
 * the scores go to hmp later, from a thread (hfi_publish.c).
 */
#include <kern/printk.h>
#include <lib/string.h>
#include <dev/hfi/hfi.h>
#include <dev/hfi/hfi_plat.h>

static void count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

/* Clear bit 26 without touching any other log bit (hfi_ack_value). */
static void hfi_ack(const struct hfi_drv *d)
{
	door_wrmsr(MSR_IA32_PACKAGE_THERM_STATUS, hfi_ack_value(&d->feat));
}

/* Copy the table under the sequence count: readers retry while it moves. */
static void hfi_copy(struct hfi_pkg *p, size_t size, uint64_t ts)
{
	uint32_t s = p->seq;
	__atomic_store_n(&p->seq, s + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(p->copy, p->table, size);
	__atomic_store_n(&p->last_ts, ts, __ATOMIC_RELAXED);
	__atomic_store_n(&p->seq, s + 2, __ATOMIC_RELEASE);
}

/* See hfi.h. The order is the protocol's: status first (bit 26 clear:
 * nothing of ours, or another CPU took it), then the timestamp (equal:
 * nothing new, still acknowledged, or the hardware stops updating), then
 * the copy, then the acknowledgement. */
int hfi_event(struct hfi_drv *d, int cpu)
{
	struct hfi_cpu *c = cpu >= 0 && cpu < HFI_MAX_CPUS ? &d->cpu[cpu] : NULL;
	if (!c || !__atomic_load_n(&c->linked, __ATOMIC_ACQUIRE)) {
		count(&d->unlinked);
		return 0;
	}
	struct hfi_pkg *p = &d->pkg[c->pkg];
	count(&p->interrupts);
	if (__atomic_exchange_n(&p->event_lock, 1, __ATOMIC_ACQUIRE)) {
		count(&p->busy);
		return 0;
	}
	int copied = 0;
	uint64_t status = door_rdmsr(MSR_IA32_PACKAGE_THERM_STATUS);
	if (!(status & HFI_STATUS_CHANGED)) {
		count(&p->spurious);
	} else {
		uint64_t ts = __atomic_load_n((const uint64_t *)p->table, __ATOMIC_ACQUIRE);
		if (ts == p->last_ts) {
			count(&p->unchanged);
		} else {
			if (ts < p->last_ts) {
				count(&p->ts_backwards);
				if (!__atomic_exchange_n(&d->logged_backwards, 1, __ATOMIC_RELAXED))
					hfi_plat_log("package %u: timestamp went backwards (%lu after %lu); "
						     "data taken", p->package, (unsigned long)ts,
						     (unsigned long)p->last_ts);
			}
			hfi_copy(p, d->lay.size, ts);
			count(&p->updates);
			copied = 1;
		}
		hfi_ack(d);
	}
	__atomic_store_n(&p->event_lock, 0, __ATOMIC_RELEASE);
	return copied;
}
