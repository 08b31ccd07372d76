/* SPDX-License-Identifier: BSD-2-Clause */
/* hfi_history.c — the ring of HFI tables copied (see hfi_history.h). */
#include <dev/hfi/hfi_history.h>
#include <arch/x86_64/spinlock.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>
#include <thread/sched_trace.h>

static struct hfi_history_rec ring[HFI_HISTORY_RECORDS];
static uint64_t made;
static struct spinlock history_lock = SPINLOCK_INIT("hfi history");

/* For `sched trace`: every CPU of r's package whose row's class-0 values
 * differ from the previous table of that package (all of them when there
 * is none kept). History lock held, interrupts off. */
static void trace_changed_rows(const struct hfi_drv *d, const struct hfi_history_rec *r)
{
	const struct hfi_history_rec *prev = NULL;
	for (uint64_t back = 1; back < made + 1 && back < HFI_HISTORY_RECORDS; back++) {
		const struct hfi_history_rec *q = &ring[(made - back) % HFI_HISTORY_RECORDS];
		if (q->pkg == r->pkg) {
			prev = q->rows == r->rows && q->classes == r->classes ? q : NULL;
			break;
		}
	}
	for (unsigned cpu = 0; cpu < d->ncpu; cpu++) {
		const struct hfi_cpu *c = &d->cpu[cpu];
		if (c->pkg != r->pkg || !c->row_ok || c->row < 0 || (unsigned)c->row >= r->rows)
			continue;
		unsigned k = (unsigned)c->row * r->classes;
		if (!prev || prev->perf[k] != r->perf[k] || prev->ee[k] != r->ee[k])
			sched_trace_hfi(r->time_ns, cpu, r->perf[k], r->ee[k]);
	}
}

/* See hfi_history.h. Reads the package's local copy as the publisher does. */
void hfi_history_note(const struct hfi_drv *d, int cpu)
{
	if (cpu < 0 || (unsigned)cpu >= d->ncpu || d->cpu[cpu].pkg < 0)
		return;
	int pkg = d->cpu[cpu].pkg;
	unsigned classes = d->lay.ncls ? d->lay.ncls : 1, rows = d->rows_used;
	if (rows * classes > HFI_HISTORY_CELLS)
		rows = HFI_HISTORY_CELLS / classes;
	uint64_t flags = spin_lock_irqsave(&history_lock);
	struct hfi_history_rec *r = &ring[made % HFI_HISTORY_RECORDS];
	r->seq = made + 1;
	r->time_ns = time_ns();
	r->hw_ts = hfi_copy_timestamp(d, pkg);
	r->pkg = (uint16_t)pkg;
	r->rows = (uint16_t)rows;
	r->classes = (uint16_t)classes;
	for (unsigned row = 0; row < rows; row++)
		for (unsigned c = 0; c < classes; c++) {
			uint8_t perf = 0, ee = 0;
			hfi_copy_read(d, pkg, row, c, &perf, &ee);
			r->perf[row * classes + c] = perf;
			r->ee[row * classes + c] = ee;
		}
	trace_changed_rows(d, r);
	made++;
	spin_unlock_irqrestore(&history_lock, flags);
}

/* See hfi_history.h. */
int hfi_history_get(uint64_t seq, struct hfi_history_rec *out)
{
	int rc = -1;
	uint64_t flags = spin_lock_irqsave(&history_lock);
	if (seq >= 1 && seq <= made && made - seq < HFI_HISTORY_RECORDS) {
		*out = ring[(seq - 1) % HFI_HISTORY_RECORDS];
		rc = 0;
	}
	spin_unlock_irqrestore(&history_lock, flags);
	return rc;
}

/* See hfi_history.h. */
uint64_t hfi_history_count(void)
{
	return __atomic_load_n(&made, __ATOMIC_RELAXED);
}
