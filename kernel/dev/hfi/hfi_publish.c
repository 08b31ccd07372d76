/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi_publish.c — handing the HFI scores to hmp, from the publisher
 * thread, never from the interrupt (see hfi.h); and consistent reads of
 * the local copies for the shell.
 *
 * Each CPU gets the columns of its own row — class 0 (the row of the
 * legacy, classless table) and, with Thread Director on, every other class
 * the table has (hmp_provide_class) — scaled to hmp's 0..1020 by shifting
 * left two. A
 * score of 0 means "do not schedule here" (Intel SDM vol. 3B, "Hardware
 * Feedback Interface"); every CPU at perf 0 at once is read as "no
 * information" (hmp does so too). Publications are at most one per
 * HFI_PUBLISH_INTERVAL_NS; the updates that arrive in between are
 * coalesced into the next one.
 */
#include <kern/printk.h>
#include <lib/string.h>
#include <sched/hmp.h>
#include <dev/hfi/hfi.h>
#include <dev/hfi/hfi_plat.h>

/* Copies taken so far by package p's interrupt path (seq / 2), acquire. */
static uint64_t hfi_copies(const struct hfi_pkg *p)
{
	return __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE) / 2;
}

/* See hfi.h. */
int hfi_publish_pending(const struct hfi_drv *d)
{
	for (int k = 0; k < d->npkg; k++)
		if (d->pkg[k].enabled && hfi_copies(&d->pkg[k]) != d->pkg[k].consumed)
			return 1;
	return 0;
}

/* Classes of the layout that hmp keeps (at most ITD_CLASS_MAX). */
static unsigned hfi_classes(const struct hfi_drv *d)
{
	return d->lay.ncls < ITD_CLASS_MAX ? d->lay.ncls : ITD_CLASS_MAX;
}

/* Package k's values of its CPUs with a valid row into perf/ee (raw
 * bytes, by CPU and class, every class of the layout), read under the
 * sequence count; returns the number of copies the values come from. */
static uint64_t hfi_snapshot(const struct hfi_drv *d, int k, uint8_t (*perf)[ITD_CLASS_MAX],
			     uint8_t (*ee)[ITD_CLASS_MAX])
{
	const struct hfi_pkg *p = &d->pkg[k];
	for (;;) {
		uint32_t s = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
		if (s & 1)
			continue;
		for (unsigned i = 0; i < d->ncpu; i++) {
			const struct hfi_cpu *c = &d->cpu[i];
			for (unsigned cls = 0; c->pkg == k && c->row_ok && cls < hfi_classes(d); cls++)
				hfi_table_read(&d->lay, p->copy, (uint32_t)c->row, cls, &perf[i][cls],
					       &ee[i][cls]);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) == s)
			return s / 2;
	}
}

/* The class count CPUID enumerates now, against the one the layout was
 * built from (logged once). */
static void hfi_check_classes(struct hfi_drv *d)
{
	struct door_cpuid_regs r;
	door_cpuid(HFI_CPUID_LEAF, 0, &r);
	uint8_t now = (uint8_t)(r.ecx >> 8);
	if (now != d->feat.classes && !d->logged_classes) {
		hfi_plat_log("CPUID.06H:ECX[15:8] now enumerates %u classes, %u at start: "
			     "keeping the start layout", now, d->feat.classes);
		d->logged_classes = 1;
	}
}

/* Every published CPU at perf 0: say so, at most once per
 * HFI_ZERO_LOG_INTERVAL_NS. Returns 1 when all are 0. */
static int hfi_all_zero(struct hfi_drv *d, uint64_t now)
{
	int any = 0;
	for (unsigned i = 0; i < d->ncpu; i++) {
		if (!d->cpu[i].published)
			continue;
		if (d->cpu[i].perf)
			return 0;
		any = 1;
	}
	if (!any)
		return 0;
	__atomic_fetch_add(&d->zero_tables, 1, __ATOMIC_RELAXED);
	if (d->last_zero_log_ns && now - d->last_zero_log_ns < HFI_ZERO_LOG_INTERVAL_NS) {
		d->zero_unlogged++;
		return 1;
	}
	hfi_plat_log("every row reports perf 0: taken as no information, not as 'use no CPU'"
		     " (%lu such tables not logged since the last message)",
		     (unsigned long)d->zero_unlogged);
	d->last_zero_log_ns = now ? now : 1;
	d->zero_unlogged = 0;
	return 1;
}

/* See hfi.h. */
uint64_t hfi_publish_step(struct hfi_drv *d, uint64_t now_ns)
{
	static uint8_t perf[HFI_MAX_CPUS][ITD_CLASS_MAX], ee[HFI_MAX_CPUS][ITD_CLASS_MAX];   /* publisher only */
	if (!d->on || !hfi_publish_pending(d))
		return 0;
	if (d->publications && now_ns - d->last_pub_ns < HFI_PUBLISH_INTERVAL_NS)
		return HFI_PUBLISH_INTERVAL_NS - (now_ns - d->last_pub_ns);
	hfi_check_classes(d);
	unsigned mask = HMP_PERF | (d->lay.ee_col >= 0 ? HMP_EE : 0);
	uint64_t taken = 0;
	for (int k = 0; k < d->npkg; k++) {
		struct hfi_pkg *p = &d->pkg[k];
		if (!p->enabled || hfi_copies(p) == p->consumed)
			continue;
		uint64_t n = hfi_snapshot(d, k, perf, ee);
		taken += n - p->consumed;
		p->consumed = n;
		for (unsigned i = 0; i < d->ncpu; i++) {
			struct hfi_cpu *c = &d->cpu[i];
			if (c->pkg != k || !c->row_ok)
				continue;
			__atomic_store_n(&c->perf, (uint16_t)(perf[i][0] << 2), __ATOMIC_RELAXED);
			__atomic_store_n(&c->ee, (uint16_t)(ee[i][0] << 2), __ATOMIC_RELAXED);
			__atomic_store_n(&c->published, 1, __ATOMIC_RELAXED);
			hmp_provide(HMP_PROV_HFI, (int)i, mask, 0, c->perf, c->ee);
			for (unsigned cls = 1; cls < hfi_classes(d); cls++)
				hmp_provide_class(HMP_PROV_HFI, (int)i, cls, perf[i][cls] << 2,
						  ee[i][cls] << 2);
		}
	}
	int zero = hfi_all_zero(d, now_ns);
	hmp_publish();
	__atomic_fetch_add(&d->coalesced, taken - 1, __ATOMIC_RELAXED);
	__atomic_store_n(&d->publications, d->publications + 1, __ATOMIC_RELEASE);
	d->last_pub_ns = now_ns;
	ksnprintf(d->why, sizeof(d->why), "table of %u row%s, %u class%s%s", d->rows_used,
		  d->rows_used == 1 ? "" : "s",
		  d->lay.ncls, d->lay.ncls == 1 ? "" : "es",
		  zero ? "; every perf 0: no information" : "");
	hmp_set_status(HMP_PROV_HFI, 1, d->why);
	return 0;
}

/* See hfi.h. */
int hfi_copy_read(const struct hfi_drv *d, int pkg, uint32_t row, unsigned cls, uint8_t *perf,
		  uint8_t *ee)
{
	if (pkg < 0 || pkg >= d->npkg || !d->pkg[pkg].copy)
		return -1;
	const struct hfi_pkg *p = &d->pkg[pkg];
	for (;;) {
		uint32_t s = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
		if (s & 1)
			continue;
		int rc = hfi_table_read(&d->lay, p->copy, row, cls, perf, ee);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) == s)
			return rc;
	}
}

/* See hfi.h. */
uint64_t hfi_copy_timestamp(const struct hfi_drv *d, int pkg)
{
	return pkg >= 0 && pkg < d->npkg ? __atomic_load_n(&d->pkg[pkg].last_ts, __ATOMIC_RELAXED) : 0;
}
