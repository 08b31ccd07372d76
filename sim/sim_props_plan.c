/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_props_plan.c — what the property run runs (sim_props.h; docs/sim.md
 * "Property run"): the workloads it judges with their thresholds, run
 * lengths, run counts and thread counts, and what a machine's description
 * says about which properties apply to it.
 *
 * The lengths and run counts are the ones whose medians the control run
 * (`--properties N --control`: ule against ule under other seeds) finds
 * steady well inside the thresholds (docs/sim.md, "The runs").
 */
#include <string.h>
#include <sim/sim_props.h>

/* perf / speed of any two CPUs with rows within this ratio (× 100): the
 * generator's truthful tables (perf = scale × speed, favoured cores up to
 * 16 of 255 below, rounding) stay within 1.10 */
#define P1_RATIO_MAX 125

/* See sim_props.h. */
const struct sim_props_wl sim_props_wls[SIM_PROPS_NWL] = {
	{ "cpu", 99, "time", 2, 0, 3, SIM_PROPS_COUNTS_EVERY },
	{ "make", 98, NULL, 0, 0, 5, SIM_PROPS_COUNTS_SHAPE },
	{ "pgbench", 98, "time", 1, 0, 1, SIM_PROPS_COUNTS_SHAPE },
	{ "hackbench", 98, "loops", 100, 1, 3, SIM_PROPS_COUNTS_GROUPS },
	{ "schbench", 98, "time", 1, 0, 1, SIM_PROPS_COUNTS_SHAPE },
	{ "frames", 98, "time", 10, 0, 3, SIM_PROPS_COUNTS_SHAPE_TO_N1 },
};

/* See sim_props.h. */
int sim_props_find(const char *name)
{
	for (int w = 0; w < SIM_PROPS_NWL; w++)
		if (!strcmp(sim_props_wls[w].name, name))
			return w;
	return -1;
}

/* See sim_props.h. */
void sim_props_defaults(int w, uint64_t *opt)
{
	const struct sim_props_wl *pw = &sim_props_wls[w];
	const struct bench_wl *bw = bench_wl_find(pw->name);
	bench_wl_defaults(bw, opt);
	if (pw->len_opt)
		opt[bench_wl_opt_index(bw, pw->len_opt)] = pw->len;
}

/* A CPU's speed in the work clock's model (a type without one runs at 1.0). */
static unsigned speed_of(const struct machine *m, int c)
{
	return m->speed[m->cpu[c].type] ? m->speed[m->cpu[c].type] : MACHINE_SPEED_ONE;
}

/* The initial HFI perf of a CPU that has a row. */
static unsigned perf_of(const struct machine *m, int c)
{
	return m->hfi[m->cpu[c].hfi_row].perf;
}

/* The counts of the shape: CPUs, cores, P-cores and their CPUs, and the
 * CPUs whose row is above perf 0 once every event has happened (all of
 * them when none is, or none is at 0: hmp then scores none of them). */
static void shape_of(const struct machine *m, struct sim_props_facts *f)
{
	int n = (int)m->cpu_count, zero = 0, rows = 0;
	unsigned perf[MACHINE_MAX_ROWS];
	for (unsigned r = 0; r < m->hfi_rows; r++)
		perf[r] = m->hfi[r].perf;
	for (unsigned e = 0; e < m->event_count; e++)
		perf[m->event[e].row] = m->event[e].perf;
	f->cpus = n;
	f->one_type = !m->event_count;
	for (int c = 0; c < n; c++) {
		const struct machine_cpu *mc = &m->cpu[c];
		f->one_type &= mc->type == m->cpu[0].type;
		f->cores += mc->thread == 0;
		f->p_cores += mc->thread == 0 && mc->type == CPU_CORE_P;
		f->p_cpus += mc->type == CPU_CORE_P;
		if (mc->hfi_row >= 0) {
			rows++;
			zero += perf[mc->hfi_row] == 0;
		}
	}
	f->scored = rows && zero < n ? n - zero : n;
}

/* Every CPU busy, in thousandths of a lone P-core thread: a core's first
 * thread its speed, each further one its share of what SMT adds. */
static unsigned capacity_of(const struct machine *m)
{
	unsigned sum = 0;
	for (unsigned c = 0; c < m->cpu_count; c++) {
		const struct machine_cpu *mc = &m->cpu[c];
		unsigned speed = speed_of(m, (int)c);
		sum += mc->thread == 0 ? speed : (m->smt_throughput[mc->type] - speed) / (mc->smt_threads - 1u);
	}
	return sum;
}

/* See sim_props.h. hmp decides by the table, the work clock runs CPUs at
 * their speeds: P1 applies where the two agree — perf / speed the same for
 * every CPU with a row above perf 0 from boot within P1_RATIO_MAX, and no
 * power budget below what every core of a package busy asks for (where it
 * binds, the most work comes from the CPUs that do most per watt, which
 * hmp's perf scores do not say). A row at perf 0 is no disagreement: from
 * boot it is what the part reports (the Core Ultra 7 155H's LP-E rows, or
 * every row: "no information"), and an event that drops a row to perf 0
 * also slows its CPUs in the work clock (its throttle floor), as hardware
 * does. P2 applies where P1 does and the oracle is an upper bound for hmp:
 * no power budget, no event and no row at perf 0 while another is above
 * (the oracle knows neither), and the perf of the CPUs with rows ordered as
 * their speeds, a faster CPU with a strictly higher perf (CPUs of one
 * speed may differ). */
void sim_props_facts_of(const struct machine *m, struct sim_props_facts *f)
{
	int n = (int)m->cpu_count, scored = 0, zero = 0, disorder = 0;
	uint64_t lo = UINT64_MAX, hi = 0;   /* perf × 2^20 / speed */
	uint64_t demand[MACHINE_MAX_CPUS] = { 0 }, most = 0;   /* mW of each package, every CPU busy */
	memset(f, 0, sizeof(*f));
	for (int c = 0; c < n; c++) {
		if (m->cpu[c].hfi_row >= 0 && perf_of(m, c)) {
			uint64_t r = ((uint64_t)perf_of(m, c) << 20) / speed_of(m, c);
			lo = r < lo ? r : lo;
			hi = r > hi ? r : hi;
			scored++;
		}
		zero += m->cpu[c].hfi_row >= 0 && !perf_of(m, c);
		uint64_t *d = &demand[m->cpu[c].package % MACHINE_MAX_CPUS];
		*d += m->cpu[c].thread ? m->power.smt_mw : m->power.core_mw[m->cpu[c].type];
		most = *d > most ? *d : most;
	}
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n && scored; b++)
			if (m->cpu[a].hfi_row >= 0 && m->cpu[b].hfi_row >= 0 && perf_of(m, a) && perf_of(m, b) &&
			    speed_of(m, a) > speed_of(m, b) && perf_of(m, a) <= perf_of(m, b))
				disorder = 1;
	f->p1_why = scored && hi * 100 > lo * P1_RATIO_MAX ? SIM_PROPS_P1_RATIO :
		    m->power.budget_mw && m->power.budget_mw < most ? SIM_PROPS_P1_POWER : SIM_PROPS_P1_APPLIES;
	f->bound = f->p1_why == SIM_PROPS_P1_APPLIES && !m->power.budget_mw && !m->event_count &&
		   !(scored && zero) && !disorder;
	f->capacity = capacity_of(m);
	shape_of(m, f);
}

/* Adds count k to the sorted set out[0..*n-1] if it is not there yet. */
static void add_count(int *out, int *n, int k)
{
	int i = 0;
	while (i < *n && out[i] < k)
		i++;
	if (i < *n && out[i] == k)
		return;
	memmove(out + i + 1, out + i, (size_t)(*n - i) * sizeof(*out));
	out[i] = k;
	(*n)++;
}

/* See sim_props.h. The shape's counts are where placement changes
 * regime: one thread; the P-cores filled (one thread each, then one more);
 * the P-cores' CPUs filled; every core with one thread; every CPU hmp
 * scores above perf 0 filled and one more; every CPU filled and one more;
 * twice the CPUs (not for frames: with two or more hogs on the renderer's
 * CPU its frame rate varies by ±10 % from run to run under either policy,
 * more than medians can resolve at 2 %). hackbench's count is groups of
 * 2 × fds threads (40 by default, more than any generated machine has
 * CPUs): 1 and 2 groups. */
int sim_props_counts(const struct sim_props *pr, int w, const struct sim_props_facts *f, const uint64_t *opt,
		     int *out)
{
	const struct bench_wl *bw = bench_wl_find(sim_props_wls[w].name);
	int want[SIM_PROPS_MAX_COUNTS], nwant = 0, n = 0, cpus = f->cpus;
	if (pr->ncounts)
		for (int k = 0; k < pr->ncounts; k++)
			add_count(want, &nwant, pr->counts[k]);
	else if (sim_props_wls[w].counts == SIM_PROPS_COUNTS_EVERY)
		for (int k = 1; k <= 2 * cpus; k++)
			want[nwant++] = k;
	else if (sim_props_wls[w].counts == SIM_PROPS_COUNTS_GROUPS) {
		add_count(want, &nwant, 1);
		add_count(want, &nwant, 2);
	} else {
		int shape[] = { 1, f->p_cores, f->p_cores + 1, f->p_cpus, f->cores, f->scored, f->scored + 1,
				cpus, cpus + 1, 2 * cpus };
		int top = sim_props_wls[w].counts == SIM_PROPS_COUNTS_SHAPE_TO_N1 ? cpus + 1 : 2 * cpus;
		for (size_t k = 0; k < sizeof(shape) / sizeof(shape[0]); k++)
			if (shape[k] <= top)
				add_count(want, &nwant, shape[k]);
	}
	char err[200];
	for (int k = 0; k < nwant; k++)
		if (want[k] <= 2 * cpus && want[k] >= bw->threads_min && want[k] <= bw->threads_max &&
		    !(bw->check && bw->check(opt, want[k], err, sizeof(err))))
			out[n++] = want[k];
	return n;
}
