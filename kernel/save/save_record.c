/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save_record.c — what was measured over time, as CSV: every HFI table
 * the driver copied (hfi_history.h) and RAPL energy readings, kept in a
 * ring of the newest SAVE_RAPL_READINGS (see save.h). A reading is taken
 * when a benchmark run starts and ends and when `save` runs.
 */
#include <save/save.h>
#include <dev/hfi/hfi_history.h>
#include <dev/rapl.h>
#include <arch/x86_64/spinlock.h>
#include <arch/x86_64/clock/time.h>

#define SAVE_RAPL_READINGS 1024

struct rapl_reading {
	uint64_t time_ns, pkg_uj, pp0_uj;
};
static struct rapl_reading readings[SAVE_RAPL_READINGS];
static uint64_t taken;
static struct spinlock rapl_lock = SPINLOCK_INIT("save rapl");

/* See save.h. Without RAPL nothing is kept. Any thread. */
void save_record_rapl(void)
{
	struct rapl_reading r;
	if (rapl_energy_uj(&r.pkg_uj, &r.pp0_uj, &r.time_ns))
		return;
	uint64_t flags = spin_lock_irqsave(&rapl_lock);
	readings[taken % SAVE_RAPL_READINGS] = r;
	taken++;
	spin_unlock_irqrestore(&rapl_lock, flags);
}

/* See save.h. One row per table row and class: the raw 0..255 values. */
void save_record_hfi_csv(struct save_text *t)
{
	static struct hfi_history_rec r;
	uint64_t n = hfi_history_count();
	save_text_printf(t, "seq,time_ns,hw_timestamp,package,row,class,perf,ee\n");
	for (uint64_t seq = n > HFI_HISTORY_RECORDS ? n - HFI_HISTORY_RECORDS + 1 : 1; seq <= n; seq++) {
		if (hfi_history_get(seq, &r))
			continue;   /* overwritten since the count was read */
		for (unsigned row = 0; row < r.rows; row++)
			for (unsigned c = 0; c < r.classes; c++)
				save_text_printf(t, "%lu,%lu,%lu,%u,%u,%u,%u,%u\n", r.seq, r.time_ns, r.hw_ts, r.pkg,
						 row, c, r.perf[row * r.classes + c], r.ee[row * r.classes + c]);
	}
}

/* See save.h. */
void save_record_rapl_csv(struct save_text *t)
{
	save_text_printf(t, "time_ns,package_uj,cores_uj\n");
	uint64_t flags = spin_lock_irqsave(&rapl_lock);
	uint64_t n = taken, first = n > SAVE_RAPL_READINGS ? n - SAVE_RAPL_READINGS : 0;
	spin_unlock_irqrestore(&rapl_lock, flags);
	for (uint64_t i = first; i < n; i++) {
		flags = spin_lock_irqsave(&rapl_lock);
		struct rapl_reading r = readings[i % SAVE_RAPL_READINGS];
		int kept = taken - i <= SAVE_RAPL_READINGS;
		spin_unlock_irqrestore(&rapl_lock, flags);
		if (kept)
			save_text_printf(t, "%lu,%lu,%lu\n", r.time_ns, r.pkg_uj, r.pp0_uj);
	}
}
