/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_hfi_inject.c — where the emulated HFI device's changes come from
 * (emul_hfi.h): the description's timed `event` lines, applied by a kernel
 * timer at their boot-relative time, and the shell's `hfi set`,
 * `throttle`, `restore` and `storm`; plus the device's state for reading
 * and the hook that tells the work clock.
 */
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>
#include <sched/topo_cpuset.h>
#include <emul/emul_hfi_dev.h>
#include <emul/emul_workclock.h>

/* See emul_hfi.h. The single place where the work clock (the per-thread
 * clock that runs at the modelled speed of the thread's CPU) learns that a
 * row's class-0 perf changed: its CPUs are re-rated at this instant. Runs
 * right after the table write that changed the row, without the device
 * lock, possibly with interrupts off; takes the work clock's lock. */
void emul_hfi_row_changed(int row)
{
	unsigned now, initial;
	if (emul_hfi_row_perf(row, &now, &initial) == 0)
		emul_workclock_row_perf(row, now, initial);
}

/* See emul_hfi.h. */
int emul_hfi_row_perf(int row, unsigned *now, unsigned *initial)
{
	if (!emul_hfi_active() || row < 0 || (unsigned)row >= emul_hfi.rows)
		return -1;
	uint64_t flags = emul_hfi_lock();
	*initial = emul_hfi.m->hfi[row].perf;
	*now = emul_hfi.was_written[row] ? emul_hfi.written[row][0].perf : *initial;
	emul_hfi_unlock(flags, NULL);
	return 0;
}

/* The timer: apply the events that are due (one change each), write what
 * a freeze held back, arm again. Tick context, interrupts off. */
static void emul_hfi_timer(void *arg)
{
	(void)arg;
	struct emul_hfi_changed ch = { { 0 } };
	uint64_t flags = emul_hfi_lock();
	const struct machine *m = emul_hfi.m;
	if (emul_hfi_running) {
		uint64_t now_ms = time_ns() / 1000000;
		emul_hfi_flush_locked(&ch);
		while (emul_hfi.next_event < m->event_count &&
		       m->event[emul_hfi.next_event].time_ms <= now_ms) {
			const struct machine_event *ev = &m->event[emul_hfi.next_event++];
			for (unsigned c = 0; c < emul_hfi.classes; c++)
				if (ev->classes & (1u << c))
					emul_hfi.cur[ev->row][c] = ev->cls[c];
			emul_hfi_change_locked(&ch);
		}
	}
	emul_hfi_arm_locked();
	emul_hfi_unlock(flags, &ch);
}

/* See emul_hfi_dev.h. A frozen device with work waiting looks again every
 * EMUL_HFI_FREEZE_POLL_NS; a running one wakes at the next event. An
 * armed timer that fires later than needed is moved; one firing right now
 * re-arms itself. */
void emul_hfi_arm_locked(void)
{
	const struct machine *m = emul_hfi.m;
	uint64_t now = time_ns(), at = UINT64_MAX;
	int waiting = 0;
	for (int k = 0; k < emul_hfi.npkg; k++)
		waiting |= emul_hfi.pkg[k].pending;
	if (emul_hfi.next_event < m->event_count) {
		uint64_t ev = m->event[emul_hfi.next_event].time_ms * 1000000ull;
		at = emul_hfi_running ? ev : (ev <= now ? now + EMUL_HFI_FREEZE_POLL_NS : ev);
	}
	if (!emul_hfi_running && waiting && now + EMUL_HFI_FREEZE_POLL_NS < at)
		at = now + EMUL_HFI_FREEZE_POLL_NS;
	if (at == UINT64_MAX)
		return;
	struct timer *t = &emul_hfi.timer;
	if (__atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE) >= 0) {
		if (t->deadline_ns <= at || !timer_cancel(t))
			return;
	}
	timer_arm(t, at > now ? at - now : 0, emul_hfi_timer, NULL);
}

/* Lock, and refuse when the device is off or frozen. */
static int emul_hfi_begin(uint64_t *flags, char *err, size_t n)
{
	if (!emul_hfi_active()) {
		ksnprintf(err, n, "no emulated HFI device (real hardware, or a machine without HFI rows)");
		return -1;
	}
	*flags = emul_hfi_lock();
	if (!emul_hfi_running) {
		emul_hfi_unlock(*flags, NULL);
		ksnprintf(err, n, "the emulated HFI device is frozen (sysctl kern.emul.hfi=0)");
		return -1;
	}
	return 0;
}

/* See emul_hfi.h. */
int emul_hfi_set(unsigned row, unsigned cls, unsigned perf, unsigned ee, char *err, size_t n)
{
	uint64_t flags;
	struct emul_hfi_changed ch = { { 0 } };
	if (emul_hfi_begin(&flags, err, n))
		return -1;
	const char *bad = row >= emul_hfi.rows ? "row" : cls >= emul_hfi.classes ? "class" :
			  perf > 255 ? "perf" : ee > 255 ? "ee" : NULL;
	if (bad) {
		emul_hfi_unlock(flags, NULL);
		ksnprintf(err, n, "%s out of range (rows 0..%u, classes 0..%u, perf and ee 0..255)",
			  bad, emul_hfi.rows - 1, emul_hfi.classes - 1);
		return -1;
	}
	emul_hfi.cur[row][cls] = (struct machine_hfi_value){ (uint8_t)perf, (uint8_t)ee };
	emul_hfi_change_locked(&ch);
	emul_hfi_unlock(flags, &ch);
	return 0;
}

/* See emul_hfi.h. Every CPU must have a row; nothing changes otherwise. */
int emul_hfi_throttle(const struct cpuset *cpus, unsigned ncpu, unsigned perf, char *err, size_t n)
{
	uint64_t flags;
	struct emul_hfi_changed ch = { { 0 } };
	if (emul_hfi_begin(&flags, err, n))
		return -1;
	const struct machine *m = emul_hfi.m;
	for (unsigned cpu = 0; cpu < ncpu && cpu < TOPO_MAXCPU; cpu++) {
		if (!cpuset_isset(cpus, cpu))
			continue;
		if (cpu >= m->cpu_count || m->cpu[cpu].hfi_row == MACHINE_NO_ROW || perf > 255) {
			emul_hfi_unlock(flags, NULL);
			ksnprintf(err, n, perf > 255 ? "perf %u out of range (0..255)" :
				  "cpu %u has no HFI row", perf > 255 ? perf : cpu);
			return -1;
		}
	}
	for (unsigned cpu = 0; cpu < ncpu && cpu < TOPO_MAXCPU; cpu++)
		if (cpuset_isset(cpus, cpu))
			for (unsigned c = 0; c < emul_hfi.classes; c++)
				emul_hfi.cur[m->cpu[cpu].hfi_row][c].perf = (uint8_t)perf;
	emul_hfi_change_locked(&ch);
	emul_hfi_unlock(flags, &ch);
	return 0;
}

/* See emul_hfi.h. */
int emul_hfi_restore(char *err, size_t n)
{
	uint64_t flags;
	struct emul_hfi_changed ch = { { 0 } };
	if (emul_hfi_begin(&flags, err, n))
		return -1;
	for (unsigned r = 0; r < emul_hfi.rows; r++)
		memcpy(emul_hfi.cur[r], emul_hfi.m->hfi[r].cls, sizeof(emul_hfi.cur[r]));
	emul_hfi_change_locked(&ch);
	emul_hfi_unlock(flags, &ch);
	return 0;
}

/* See emul_hfi.h. One change per lock hold, so interrupts (the driver's
 * acknowledgements among them) are served in between. */
int emul_hfi_storm(unsigned count, char *err, size_t n)
{
	static uint8_t before[MACHINE_MAX_ROWS];   /* the shell runs one storm at a time */
	uint64_t flags;
	if (count < 1 || count > EMUL_HFI_STORM_MAX) {
		ksnprintf(err, n, "count %u out of range (1..%d)", count, EMUL_HFI_STORM_MAX);
		return -1;
	}
	if (emul_hfi_begin(&flags, err, n))
		return -1;
	for (unsigned r = 0; r < emul_hfi.rows; r++)
		before[r] = emul_hfi.cur[r][0].perf;
	emul_hfi_unlock(flags, NULL);
	for (unsigned i = 0; i < count; i++) {
		struct emul_hfi_changed ch = { { 0 } };
		flags = emul_hfi_lock();
		if (i + 1 < count) {
			emul_hfi.cur[i % emul_hfi.rows][0].perf ^= 1;
		} else {
			for (unsigned r = 0; r < emul_hfi.rows; r++)
				emul_hfi.cur[r][0].perf = before[r];
		}
		emul_hfi_change_locked(&ch);
		emul_hfi_unlock(flags, &ch);
	}
	return 0;
}

/* See emul_hfi.h. */
void emul_hfi_get_info(struct emul_hfi_info *out)
{
	memset(out, 0, sizeof(*out));
	if (!emul_hfi_active())
		return;
	uint64_t flags = emul_hfi_lock();
	out->active = 1;
	out->frozen = !emul_hfi_running;
	out->rows = emul_hfi.rows;
	out->classes = emul_hfi.classes;
	out->features = emul_hfi.features;
	out->pages = emul_hfi.pages;
	out->events_done = emul_hfi.next_event;
	out->events_total = emul_hfi.m->event_count;
	out->changes = emul_hfi.changes;
	out->raised = __atomic_load_n(&emul_hfi.raised, __ATOMIC_RELAXED);
	out->masked = __atomic_load_n(&emul_hfi.masked, __ATOMIC_RELAXED);
	out->faults = emul_hfi.faults;
	out->npkg = emul_hfi.npkg;
	for (int k = 0; k < emul_hfi.npkg; k++) {
		const struct emul_hfi_pkg *p = &emul_hfi.pkg[k];
		struct emul_hfi_pkg_info *o = &out->pkg[k];
		o->package = p->package;
		o->ptr = p->ptr;
		o->config = p->config;
		o->status = p->status;
		o->timestamp = p->ts;
		o->pending = p->pending;
		o->enables = p->enables;
		o->changes = p->changes;
		o->writes = p->writes;
		o->coalesced = p->coalesced;
		o->acks = p->acks;
		o->disables = p->disables;
	}
	emul_hfi_unlock(flags, NULL);
}
