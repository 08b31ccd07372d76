/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_workclock_model.c — per-thread work clocks on an emulated machine, integrated
 * exactly from event to event (see emul_workclock_model.h; docs/hfi.md). Portable C:
 * the kernel runs it under one lock (kernel/emul/
 * emul_workclock.c), the host tests on scripted timelines.
 */
#include <emul/emul_workclock_model.h>
#include <lib/string.h>

/* Writers (the caller serialises them) make a CPU's sequence count odd
 * while they change its running clock or rate, and even again after; a
 * lock-free reader retries across an odd count or a change. */
static void wc_write_begin(struct wc_cpu *c)
{
	__atomic_store_n(&c->seq, c->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/* Ends the write section wc_write_begin() opened. */
static void wc_write_end(struct wc_cpu *c)
{
	__atomic_store_n(&c->seq, c->seq + 1, __ATOMIC_RELEASE);
}

/* Work done over [since, now) at rate. */
static uint64_t wc_segment(uint64_t since, uint64_t now, uint32_t rate)
{
	return now > since ? (now - since) * rate : 0;
}

/* Brings cpu's running clock up to now at the CPU's current rate. Inside
 * a write section of cpu. */
static void wc_settle(struct wc_model *w, unsigned cpu, uint64_t now)
{
	struct wc_cpu *c = &w->cpu[cpu];
	struct wc_clock *k = c->run;
	if (!k)
		return;
	__atomic_store_n(&k->work, k->work + wc_segment(k->since, now, c->rate), __ATOMIC_RELAXED);
	if (now > k->since)
		__atomic_store_n(&k->since, now, __ATOMIC_RELAXED);
}

/* What cpu's rate should be now, from the model's state. */
static uint32_t wc_rate_of(const struct wc_model *w, unsigned cpu)
{
	const struct wc_cpu *c = &w->cpu[cpu];
	const struct wc_core *k = &w->core[c->core];
	if (!w->enabled)
		return WC_RATE_ONE;
	unsigned throttle = WC_FACTOR_ONE, power = WC_FACTOR_ONE;
	if (c->row != MACHINE_NO_ROW)
		throttle = speed_throttle(w->row[c->row].perf, w->row[c->row].initial);
	if (w->power_on)
		power = w->pkg_factor[c->pkg];
	unsigned cls = c->run ? c->run->cls : 0;
	unsigned cls_factor = cls ? w->cls_speed[cls][c->type] : WC_FACTOR_ONE;
	return speed_rate(w->speed[c->type], w->smt[c->type], k->threads, k->busy, throttle, power,
			  cls_factor);
}

/* Power factor of every package from its busy cores' demand; 1 when a
 * package's factor changed. */
static int wc_power_factors(struct wc_model *w)
{
	uint64_t *demand = w->pkg_demand;
	memset(demand, 0, w->npkg * sizeof(demand[0]));
	for (unsigned i = 0; i < w->ncore; i++) {
		const struct wc_core *k = &w->core[i];
		if (k->busy)
			demand[k->pkg] += w->power.core_mw[k->type] +
					  (uint64_t)w->power.smt_mw * (k->busy - 1u);
	}
	int changed = 0;
	for (unsigned p = 0; p < w->npkg; p++) {
		uint16_t f = (uint16_t)speed_power(w->power.budget_mw, demand[p]);
		changed |= f != w->pkg_factor[p];
		w->pkg_factor[p] = f;
	}
	return changed;
}

/* Gives cpu the rate the model's state says, at now: if it changes, its
 * clock is settled at the old rate first. */
static void wc_rerate_cpu(struct wc_model *w, unsigned cpu, uint64_t now)
{
	struct wc_cpu *c = &w->cpu[cpu];
	uint32_t rate = wc_rate_of(w, cpu);
	if (rate == c->rate)
		return;
	wc_write_begin(c);
	wc_settle(w, cpu, now);
	__atomic_store_n(&c->rate, rate, __ATOMIC_RELAXED);
	wc_write_end(c);
}

/* Re-rates at now every CPU of core `core` (-1: every CPU), after the
 * state changed there, with the packages' energy settled at the old power
 * first. Every CPU when a package's power factor changed (the rate of a
 * CPU elsewhere depends on nothing that changed). */
static void wc_rerate(struct wc_model *w, int core, uint64_t now)
{
	wc_energy_settle(w, now);
	if (w->power_on && w->enabled && wc_power_factors(w))
		core = -1;
	if (core < 0)
		for (unsigned i = 0; i < w->ncpu; i++)
			wc_rerate_cpu(w, i, now);
	else
		for (unsigned k = w->core[core].first; k < w->core[core].end; k++)
			wc_rerate_cpu(w, w->core_cpu[k], now);
	wc_energy_repower(w);
}

/* See emul_workclock_model.h. */
void wc_clock_init(struct wc_clock *c)
{
	c->work = 0;
	c->since = 0;
	c->cpu = -1;
	c->cls = 0;
}

/* Dense index of id in ids[0..*n), appended if new. */
static uint16_t wc_dense(uint32_t *ids, unsigned *n, uint32_t id)
{
	for (unsigned i = 0; i < *n; i++)
		if (ids[i] == id)
			return (uint16_t)i;
	ids[*n] = id;
	return (uint16_t)(*n)++;
}

/* See emul_workclock_model.h. */
void wc_init(struct wc_model *w, const struct machine *m)
{
	uint32_t core_ids[MACHINE_MAX_CPUS], pkg_ids[MACHINE_MAX_CPUS];
	memset(w, 0, sizeof(*w));
	w->ncpu = m->cpu_count;
	w->nrows = m->hfi_rows;
	w->enabled = 1;
	w->power = m->power;
	w->power_on = m->power.budget_mw != 0;
	memcpy(w->speed, m->speed, sizeof(w->speed));
	memcpy(w->smt, m->smt_throughput, sizeof(w->smt));
	for (unsigned k = 0; k < MACHINE_HFI_CLASSES_MAX; k++)
		for (unsigned t = 0; t < MACHINE_CORE_TYPES; t++)
			w->cls_speed[k][t] = (uint16_t)machine_class_speed(m, k, t);
	for (unsigned i = 0; i < m->cpu_count; i++) {
		const struct machine_cpu *mc = &m->cpu[i];
		struct wc_cpu *c = &w->cpu[i];
		c->core = wc_dense(core_ids, &w->ncore, mc->core);
		c->pkg = wc_dense(pkg_ids, &w->npkg, mc->package);
		c->row = mc->hfi_row;
		c->type = mc->type;
		w->core[c->core].threads = mc->smt_threads;
		w->core[c->core].type = mc->type;
		w->core[c->core].pkg = c->pkg;
	}
	unsigned n = 0;
	for (unsigned k = 0; k < w->ncore; k++) {
		w->core[k].first = (uint16_t)n;
		for (unsigned i = 0; i < w->ncpu; i++)
			if (w->cpu[i].core == k)
				w->core_cpu[n++] = (uint16_t)i;
		w->core[k].end = (uint16_t)n;
	}
	for (unsigned r = 0; r < m->hfi_rows; r++) {
		w->row[r].perf = m->hfi[r].perf;
		w->row[r].initial = m->hfi[r].perf;
	}
	wc_rerate(w, -1, 0);
}

/* Stops cpu's running clock at now (settled, off CPU). Inside a write
 * section of cpu; the caller re-rates. */
static void wc_detach(struct wc_model *w, unsigned cpu, uint64_t now)
{
	struct wc_cpu *c = &w->cpu[cpu];
	struct wc_clock *k = c->run;
	if (!k)
		return;
	wc_settle(w, cpu, now);
	__atomic_store_n(&k->cpu, -1, __ATOMIC_RELAXED);
	__atomic_store_n(&c->run, NULL, __ATOMIC_RELAXED);
	w->core[c->core].busy--;
}

/* See emul_workclock_model.h. */
void wc_switch(struct wc_model *w, unsigned cpu, struct wc_clock *in, uint64_t now)
{
	struct wc_cpu *c = &w->cpu[cpu];
	int other = in ? in->cpu : -1;
	if (c->run == in)   /* nothing changes (in, if any, already runs here) */
		return;
	if (other >= 0 && other != (int)cpu) {
		struct wc_cpu *o = &w->cpu[other];
		wc_write_begin(o);
		wc_detach(w, (unsigned)other, now);
		wc_write_end(o);
	}
	wc_write_begin(c);
	wc_detach(w, cpu, now);
	if (in) {
		__atomic_store_n(&in->since, now, __ATOMIC_RELAXED);
		__atomic_store_n(&in->cpu, (int32_t)cpu, __ATOMIC_RELAXED);
		__atomic_store_n(&c->run, in, __ATOMIC_RELAXED);
		w->core[c->core].busy++;
	}
	unsigned cls = in ? in->cls : 0;
	if (cls != c->itd_cls) {
		c->itd_cls = (uint8_t)cls;
		c->itd_since = now;
	}
	wc_write_end(c);
	wc_rerate(w, c->core, now);
	if (other >= 0 && other != (int)cpu && w->cpu[other].core != c->core)
		wc_rerate(w, w->cpu[other].core, now);
}

/* See emul_workclock_model.h. */
struct wc_clock *wc_running(const struct wc_model *w, unsigned cpu)
{
	return w->cpu[cpu].run;
}

/* See emul_workclock_model.h. */
void wc_set_enabled(struct wc_model *w, int on, uint64_t now)
{
	w->enabled = on != 0;
	wc_rerate(w, -1, now);
}

/* See emul_workclock_model.h. */
int wc_set_power(struct wc_model *w, int on, uint64_t now)
{
	if (on && !w->power.budget_mw)
		return -1;
	w->power_on = on != 0;
	wc_rerate(w, -1, now);
	return 0;
}

/* See emul_workclock_model.h. */
int wc_row_perf(struct wc_model *w, int row, unsigned perf, unsigned initial, uint64_t now)
{
	if (row < 0 || (unsigned)row >= w->nrows)
		return -1;
	w->row[row].perf = (uint16_t)perf;
	w->row[row].initial = (uint16_t)initial;
	wc_rerate(w, -1, now);
	return 0;
}

/* See emul_workclock_model.h. One write section: the span before now at
 * the old class's rate, after it at the new one's. */
int wc_set_class(struct wc_model *w, struct wc_clock *k, unsigned cls, uint64_t now)
{
	if (cls >= MACHINE_HFI_CLASSES_MAX)
		return -1;
	if (k->cls == cls)
		return 0;
	if (k->cpu < 0) {
		k->cls = (uint8_t)cls;
		return 0;
	}
	unsigned cpu = (unsigned)k->cpu;
	struct wc_cpu *c = &w->cpu[cpu];
	wc_write_begin(c);
	wc_settle(w, cpu, now);
	__atomic_store_n(&k->cls, (uint8_t)cls, __ATOMIC_RELAXED);
	__atomic_store_n(&c->rate, wc_rate_of(w, cpu), __ATOMIC_RELAXED);
	c->itd_cls = (uint8_t)cls;
	c->itd_since = now;
	wc_write_end(c);
	return 0;
}

/* See emul_workclock_model.h. */
void wc_itd_state(const struct wc_model *w, unsigned cpu, unsigned *cls, uint64_t *since)
{
	*cls = w->cpu[cpu].itd_cls;
	*since = w->cpu[cpu].itd_since;
}

/* See emul_workclock_model.h. */
void wc_itd_reset(struct wc_model *w, unsigned cpu, uint64_t now)
{
	w->cpu[cpu].itd_since = now;
}

/* See emul_workclock_model.h. */
uint32_t wc_cpu_rate(const struct wc_model *w, unsigned cpu)
{
	return w->cpu[cpu].rate;
}

/* See emul_workclock_model.h. */
uint64_t wc_read(const struct wc_model *w, const struct wc_clock *c, uint64_t now)
{
	if (c->cpu < 0)
		return c->work;
	return c->work + wc_segment(c->since, now, w->cpu[c->cpu].rate);
}

/* See emul_workclock_model.h. The owner's CPU cannot change under it, so only a
 * writer on the model (another CPU re-rating this one) can interfere,
 * and that one moves the CPU's sequence count. */
int wc_read_self(const struct wc_model *w, const struct wc_clock *c, unsigned cpu, uint64_t now,
		 uint64_t *work)
{
	const struct wc_cpu *p = &w->cpu[cpu];
	for (;;) {
		uint32_t s1 = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
		if (s1 & 1)
			continue;
		int32_t on = __atomic_load_n(&c->cpu, __ATOMIC_RELAXED);
		uint64_t done = __atomic_load_n(&c->work, __ATOMIC_RELAXED);
		uint64_t since = __atomic_load_n(&c->since, __ATOMIC_RELAXED);
		uint32_t rate = __atomic_load_n(&p->rate, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) != s1)
			continue;
		if (on != (int32_t)cpu)
			return -1;
		*work = done + wc_segment(since, now, rate);
		return 0;
	}
}
