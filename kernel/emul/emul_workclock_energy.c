/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_workclock_energy.c — the energy of an emulated machine's packages,
 * integrated exactly from event to event beside the work clocks (the
 * formula: emul_workclock_model.h, "Energy"; the numbers: the machine's
 * power line, docs/machines.md). Portable C, no allocation; the caller
 * serialises every call as for the rest of the model.
 */
#include <emul/emul_workclock_model.h>

#define PJ_PER_UJ 1000000u
#define NS_PER_MS 1000000u

/* Adds mw drawn over dt ns to (*uj, *rem_pj) exactly: mW × ms = µJ, and
 * the rest of the span in pJ (mW × ns), carried into µJ. 64 bits of µJ
 * last 584 years at 1 kW. */
static void energy_add(uint64_t *uj, uint64_t *rem_pj, uint32_t mw, uint64_t dt)
{
	*uj += (uint64_t)mw * (dt / NS_PER_MS);
	*rem_pj += (uint64_t)mw * (dt % NS_PER_MS);
	*uj += *rem_pj / PJ_PER_UJ;
	*rem_pj %= PJ_PER_UJ;
}

/* See emul_workclock_model.h. Spans that would be negative (times from
 * several CPUs a little out of order) count as nothing. */
void wc_energy_settle(struct wc_model *w, uint64_t now)
{
	if (!w->power.line || now <= w->energy_since)
		return;
	uint64_t dt = now - w->energy_since;
	for (unsigned p = 0; p < w->npkg; p++) {
		struct wc_energy *e = &w->energy[p];
		energy_add(&e->uj, &e->rem_pj, e->mw, dt);
		energy_add(&e->cores_uj, &e->cores_rem_pj, e->cores_mw, dt);
	}
	w->energy_since = now;
}

/* The clock factor cpu runs at (thousandths): its row's throttle times
 * its package's power factor; 1 with the model disabled. */
static uint64_t cpu_factor(const struct wc_model *w, const struct wc_cpu *c)
{
	uint64_t f = WC_FACTOR_ONE;
	if (!w->enabled)
		return f;
	if (c->row != MACHINE_NO_ROW)
		f = speed_throttle(w->row[c->row].perf, w->row[c->row].initial);
	if (w->power_on)
		f = f * w->pkg_factor[c->pkg] / WC_FACTOR_ONE;
	return f;
}

/* What core k draws now, mW: idle, or busy at clock factor f cubed. */
static uint32_t core_mw(const struct wc_model *w, const struct wc_core *k, uint64_t f)
{
	if (!k->busy)
		return w->power.idle_mw[k->type];
	uint64_t full = w->power.core_mw[k->type] + (uint64_t)w->power.smt_mw * (k->busy - 1u);
	return (uint32_t)(full * f * f / WC_FACTOR_ONE * f / (WC_FACTOR_ONE * WC_FACTOR_ONE));
}

/* See emul_workclock_model.h. A busy core's clock factor is the fastest
 * of its busy CPUs' (SMT threads on rows of their own, as on the Core
 * Ultra 7 155H, share one clock: the core runs at its fastest thread's). */
void wc_energy_repower(struct wc_model *w)
{
	if (!w->power.line)
		return;
	uint16_t *f = w->core_factor;
	for (unsigned i = 0; i < w->ncore; i++)
		f[i] = 0;
	for (unsigned i = 0; i < w->ncpu; i++) {
		const struct wc_cpu *c = &w->cpu[i];
		uint64_t fc = c->run ? cpu_factor(w, c) : 0;
		if (fc > f[c->core])
			f[c->core] = (uint16_t)fc;
	}
	for (unsigned p = 0; p < w->npkg; p++)
		w->energy[p].cores_mw = 0;
	for (unsigned i = 0; i < w->ncore; i++)
		w->energy[w->core[i].pkg].cores_mw += core_mw(w, &w->core[i], f[i]);
	for (unsigned p = 0; p < w->npkg; p++)
		w->energy[p].mw = w->energy[p].cores_mw + w->power.base_mw;
}

/* See emul_workclock_model.h. */
void wc_energy_start(struct wc_model *w, uint64_t now)
{
	for (unsigned p = 0; p < w->npkg; p++) {
		struct wc_energy *e = &w->energy[p];
		e->uj = e->rem_pj = e->cores_uj = e->cores_rem_pj = 0;
	}
	w->energy_since = now;
}

/* See emul_workclock_model.h. */
uint64_t wc_energy_uj(const struct wc_model *w, unsigned pkg, int cores, uint64_t now)
{
	if (!w->power.line || pkg >= w->npkg)
		return 0;
	const struct wc_energy *e = &w->energy[pkg];
	uint64_t uj = cores ? e->cores_uj : e->uj, rem = cores ? e->cores_rem_pj : e->rem_pj;
	if (now > w->energy_since)
		energy_add(&uj, &rem, cores ? e->cores_mw : e->mw, now - w->energy_since);
	return uj;
}

/* See emul_workclock_model.h. */
uint32_t wc_power_mw(const struct wc_model *w, unsigned pkg, int cores)
{
	if (!w->power.line || pkg >= w->npkg)
		return 0;
	return cores ? w->energy[pkg].cores_mw : w->energy[pkg].mw;
}

/* See emul_workclock_model.h. */
unsigned wc_packages(const struct wc_model *w)
{
	return w->npkg;
}

/* See emul_workclock_model.h. */
unsigned wc_cpu_package(const struct wc_model *w, unsigned cpu)
{
	return w->cpu[cpu].pkg;
}
