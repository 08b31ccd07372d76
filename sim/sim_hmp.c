/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_hmp.c — what hmp (kernel/sched/hmp.h) learns on a simulated
 * machine, through the same push interface the kernel's providers use on
 * an emulated one (kernel/hmp/hmp_sources.c and the HFI driver's
 * publication, kernel/dev/hfi/hfi_publish.c): core-type defaults,
 * the machine description's capacities and initial scores, then the HFI
 * table (every Thread Director class it has) at boot and after each timed event of the description, at most
 * one publication per 10 ms. The work clock is re-rated the instant a
 * row's perf changes, as the emulated HFI device does.
 */
#include <sim/sim.h>
#include <sched/hmp.h>

/* The HFI driver publishes at most once per this (HFI_PUBLISH_INTERVAL_NS). */
#define SIM_HFI_PUBLISH_INTERVAL_NS 10000000ull

/* Capacity defaults by core type when nothing better is known (the
 * kernel's provide_coretype()). */
static const int coretype_capacity[] = { 0, 1024, 600, 420 };

/* Core-type defaults, only on a machine with several core types. */
static void provide_coretype(void)
{
	unsigned count[4] = { 0 }, n = (unsigned)sim.ncpu;
	for (unsigned c = 0; c < n; c++)
		count[sim.m->cpu[c].type & 3]++;
	if (count[CPU_CORE_UNKNOWN] || count[CPU_CORE_P] == n || count[CPU_CORE_P] == 0)
		return;
	for (unsigned c = 0; c < n; c++)
		hmp_provide(HMP_PROV_CORETYPE, (int)c, HMP_CAPACITY, coretype_capacity[sim.m->cpu[c].type & 3],
			    0, 0);
}

/* The property run's P4 (docs/sim.md): every input of hmp replaced, for
 * every CPU, by a manual override (the highest provider, so later HFI
 * publications change nothing either) of a capacity 1..1024 and scores
 * 0..1020 drawn from the configuration's scramble seed. */
static void provide_scrambled(void)
{
	uint64_t s = sim.cfg->scramble_seed ^ 0x736372616d626c65ull;
	for (int c = 0; c < sim.ncpu; c++) {
		int cap = 1 + (int)(sim_mix(&s) % HMP_CAPACITY_MAX);
		int perf = (int)(sim_mix(&s) % (HMP_SCORE_MAX + 1)), ee = (int)(sim_mix(&s) % (HMP_SCORE_MAX + 1));
		hmp_provide(HMP_PROV_MANUAL, c, HMP_CAPACITY | HMP_PERF | HMP_EE, cap, perf, ee);
	}
}

/* See sim.h. */
void sim_hfi_publish(void)
{
	const struct machine *m = sim.m;
	sim.pub_queued = 0;
	for (int c = 0; c < sim.ncpu; c++) {
		int row = m->cpu[c].hfi_row;
		if (row < 0)
			continue;
		hmp_provide(HMP_PROV_HFI, c, HMP_PERF | HMP_EE, 0, sim.row_perf[row] << 2,
			    sim.row_ee[row] << 2);
		for (unsigned k = 1; k < m->hfi_classes && k < ITD_CLASS_MAX; k++)
			hmp_provide_class(HMP_PROV_HFI, c, k, sim.row_cls[row][k].perf << 2,
					  sim.row_cls[row][k].ee << 2);
	}
	hmp_publish();
	sim.last_pub = sim.now;
	sim.publications++;
}

/* See sim.h. hmp_init() and the boot-time providers, then the driver's
 * first publication of the table as the description gives it. */
void sim_hmp_init(void)
{
	const struct machine *m = sim.m;
	hmp_init(sim.ncpu);
	provide_coretype();
	machine_hmp_provide(sim.m, (unsigned)sim.ncpu);
	if (sim.cfg->hmp_scramble)
		provide_scrambled();
	hmp_publish();
	for (unsigned r = 0; r < m->hfi_rows; r++) {
		sim.row_perf[r] = m->hfi[r].perf;
		sim.row_ee[r] = m->hfi[r].ee;
		for (unsigned k = 1; k < m->hfi_classes; k++)
			sim.row_cls[r][k] = m->hfi[r].cls[k];
	}
	sim.publications = 0;
	sim.pub_queued = 0;
	if (m->hfi_rows)
		sim_hfi_publish();
}

/* See sim.h. The device writes the row (the work clock follows its perf
 * at once); the driver publishes now, or 10 ms after its last
 * publication, taking every change that arrived meanwhile. */
void sim_hfi_event(int i)
{
	const struct machine_event *e = &sim.m->event[i];
	int row = e->row;
	if (sim.cfg->trace)
		sim_trace_hfi(row, e->perf, e->ee);
	if (sim.row_perf[row] != e->perf) {
		sim.row_perf[row] = e->perf;
		wc_row_perf(&sim.wc, row, e->perf, sim.m->hfi[row].perf, sim.now);
		sim_rerate();
	}
	sim.row_ee[row] = e->ee;
	for (unsigned k = 1; k < sim.m->hfi_classes; k++)
		if (e->classes & (1u << k))
			sim.row_cls[row][k] = e->cls[k];
	if (sim.pub_queued)
		return;
	uint64_t t = sim.now;
	if (sim.publications && t < sim.last_pub + SIM_HFI_PUBLISH_INTERVAL_NS)
		t = sim.last_pub + SIM_HFI_PUBLISH_INTERVAL_NS;
	sim.pub_queued = 1;
	sim_push(t, SIM_EV_PUBLISH, 0, NULL);
}
