/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * schedsim — the kernel's scheduler (kernel/sched/, unmodified) on
 * simulated models of the machines/ descriptions, in simulated time,
 * running the benchmark workloads written against kernel/bench/bench_rt.h.
 * docs/sim.md describes it.
 *
 *   schedsim --machine NAME|FILE --workload NAME [--threads LIST] [--runs N]
 *            [--policy LIST] [--seed N] [--duration-ms MS] [--hz N]
 *            [--ipi-ns NS] [--resume-ns NS] [--spawn-ns NS] [--sysctl NAME=VALUE]...
 *            [--presets DIR] [--name NAME] [--trace FILE] [--compare TABLE]
 *            [--cost] [--flat] [--topology mosaic|freebsd] [--hmp-scramble SEED]
 *            [--OPTION VALUE]...
 *   schedsim --properties N [--seed S] [--runs R] [--threads LIST] [--hz N]
 *            [--ipi-ns NS] [--resume-ns NS] [--spawn-ns NS] [--sysctl NAME=VALUE]...
 *            [--control POLICY] [--workload LIST] [--procs N] [--OPTION VALUE]...
 *   schedsim --gen SEED
 *   schedsim --list
 *   schedsim --vars-markdown ule|hmp|peers|policies
 *
 * --OPTION VALUE are the workload's own options, as `bench` takes them
 * (`--time 10`, `--max-prime 10000`), checked by kernel/bench's rules;
 * `--wl-OPTION VALUE` is the same and reaches one whose name schedsim
 * uses itself (make's --seed: `--wl-seed 3`).
 *
 * A kernel/bench workload under at most four policies named as bench names
 * them runs through kernel/bench's driver and prints what `bench sweep`
 * prints (sim_sweep.c); any other sweep runs in schedsim's own loop and
 * prints the seed report's tables (bench_report, with their CSV blocks).
 * Then schedsim's own summary. The same command prints the same
 * output, byte for byte; the time it took goes to stderr.
 * --properties N checks generated machines (sim_props.c) and --gen SEED
 * prints one of them (sim_gen.c); --hmp-scramble SEED replaces every hmp
 * input (the property run's P4); --topology freebsd gives the scheduler
 * the cpu_group tree FreeBSD's x86 code builds (topo_freebsd.c).
 * --vars-markdown prints a generated table of the docs (sim_vars_markdown).
 * Exit status: 0 (also for --help, whose usage goes to stdout); 1 when a run
 * failed (or a property); 2 for a usage error.
 */
#include <stdlib.h>
#include <string.h>
#include <lib/parse.h>
#include <bench/bench_csv.h>
#include <bench/bench_drv.h>
#include <bench/bench_wl.h>
#include <sim/sim_clock.h>
#include <sim/sim_gen.h>
#include <sim/sim_procs.h>
#include <sim/sim_props.h>
#include <sim/sim_report.h>

/* The usage on f. */
static void usage(FILE *f)
{
	fprintf(f, "usage: schedsim --machine NAME|FILE --workload NAME [--threads LIST] [--runs N]\n"
			"                [--policy LIST] [--seed N] [--duration-ms MS] [--hz N] [--ipi-ns NS]\n"
			"                [--resume-ns NS] [--spawn-ns NS] [--sysctl NAME=VALUE]... [--presets DIR]\n"
			"                [--name NAME] [--trace FILE] [--compare TABLE] [--cost] [--flat]\n"
			"                [--topology mosaic|freebsd] [--hmp-scramble SEED] [--OPTION VALUE]...\n"
			"       schedsim --properties N [--seed S] [--runs R] [--threads LIST] [--hz N] [--ipi-ns NS]\n"
			"                [--resume-ns NS] [--spawn-ns NS] [--sysctl NAME=VALUE]... [--control POLICY]\n"
			"                [--workload LIST] [--procs N] [--OPTION VALUE]...\n"
			"       schedsim --gen SEED\n"
			"       schedsim --list\n"
			"       schedsim --vars-markdown ule|hmp|peers|policies\n"
			"docs/sim.md explains every option.\n");
}

/* The reason and the usage on stderr; exit status 2. */
static void usage_exit(const char *msg)
{
	fprintf(stderr, "schedsim: %s\n", msg);
	usage(stderr);
	exit(2);
}

/* A number of option opt in min..max, or a usage error naming it. */
static uint64_t number(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	uint64_t v;
	char err[160];
	if (parse_u64_range(s, min, max, &v, opt, err, sizeof(err)))
		usage_exit(err);
	return v;
}

struct options {
	const char *machine, *presets, *workload, *threads, *policies, *name, *trace, *compare;
	uint64_t runs, seed, duration_ms, hz, ipi_ns, resume_ns, spawn_ns;
	uint64_t gen, properties;    /* --gen SEED, --properties N */
	uint64_t procs;              /* --procs N (with --properties) */
	int cost, flat;
	const char *control;         /* --control POLICY (with --properties), or NULL */
	int topology;                /* enum topo_kind: --topology */
	int duration_given, runs_given, gen_given, threads_given, policies_given;
	int hmp_scramble;            /* --hmp-scramble SEED */
	uint64_t scramble_seed;
	struct sim_setting settings[32];
	const char *sysctl_arg[32];
	int nsettings;
	const char *wl_opt[BENCH_WL_OPT_MAX][2];   /* the workload's --NAME VALUE */
	int nwl_opt;
};

/* --list: workloads, policies, options, variables; exit status 0. */
static void list_exit(void)
{
	printf("workloads:\n");
	for (int i = 0; i < sim_workload_count(); i++) {
		const struct sim_workload *w = sim_workload_at(i);
		const struct bench_wl *bw = sim_workload_bench(w);
		printf("  %-16s %s (%s%s)\n", w->name, w->what, w->unit,
		       !bw ? "" : bw->higher_is_better ? ", higher is better" : ", lower is better");
		for (int k = 0; bw && k < bw->nopts; k++)
			printf("    --%-14s %llu..%llu, default %llu%s%s: %s\n", bw->opts[k].name,
			       (unsigned long long)bw->opts[k].min, (unsigned long long)bw->opts[k].max,
			       (unsigned long long)bw->opts[k].def, bw->opts[k].unit[0] ? " " : "",
			       bw->opts[k].unit, bw->opts[k].help);
	}
	sim_policy_list(stdout);
	exit(0);
}

/* --gen SEED: the generated description on stdout; exit status 0 (1 if
 * the kernel's parser refuses it: a generator bug, its reason on stderr). */
static void gen_exit(uint64_t seed)
{
	static struct sim_machine sm;
	static char text[SIM_GEN_TEXT_MAX];
	char err[600];
	if (sim_gen_load(seed, &sm, text, err, sizeof(err))) {
		fprintf(stderr, "schedsim: %s\n", err);
		exit(1);
	}
	fputs(text, stdout);
	exit(0);
}

/* The command line into *o; a usage error exits. */
static void parse_args(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .presets = "machines", .threads = "4,6,8,10,12,16,20", .policies = "ule,hmp",
			       .runs = 12, .seed = 1, .duration_ms = 10000, .hz = 100, .ipi_ns = 1000,
			       .resume_ns = 2000, .spawn_ns = SIM_SPAWN_NS };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char err[200];
		if (!strcmp(a, "--list"))
			list_exit();
		if (!strcmp(a, "--vars-markdown")) {
			if (!v || sim_vars_markdown(stdout, v))
				usage_exit("--vars-markdown: give ule, hmp, peers or policies");
			exit(0);
		}
		if (!strcmp(a, "--cost")) {
			o->cost = 1;
			continue;
		}
		if (!strcmp(a, "--flat")) {
			o->flat = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		}
		if (!v) {
			snprintf(err, sizeof(err), "%s: missing value (or unknown option)", a);
			usage_exit(err);
		}
		i++;
		if (!strcmp(a, "--machine"))
			o->machine = v;
		else if (!strcmp(a, "--presets"))
			o->presets = v;
		else if (!strcmp(a, "--workload"))
			o->workload = v;
		else if (!strcmp(a, "--threads")) {
			o->threads = v;
			o->threads_given = 1;
		} else if (!strcmp(a, "--hmp-scramble")) {
			o->scramble_seed = number("--hmp-scramble", v, 0, UINT64_MAX);
			o->hmp_scramble = 1;
		}
		else if (!strcmp(a, "--policy")) {
			o->policies = v;
			o->policies_given = 1;
		}
		else if (!strcmp(a, "--control")) {
			struct sim_policy check;
			char why[200];
			if (sim_policy_parse(v, &check, why, sizeof(why)))
				usage_exit(why);
			if (check.kind != SIM_POL_SCHED)
				usage_exit("--control: a placement policy (not oracle or random)");
			o->control = v;
		} else if (!strcmp(a, "--name"))
			o->name = v;
		else if (!strcmp(a, "--trace"))
			o->trace = v;
		else if (!strcmp(a, "--compare"))
			o->compare = v;
		else if (!strcmp(a, "--topology")) {
			o->topology = topo_kind_find(v);
			if (o->topology < 0) {
				snprintf(err, sizeof(err), "--topology '%.40s': expected mosaic (ours, the default) or freebsd", v);
				usage_exit(err);
			}
		}
		else if (!strcmp(a, "--runs")) {
			o->runs = number("--runs", v, 1, BENCH_MAX_SAMPLES);
			o->runs_given = 1;
		} else if (!strcmp(a, "--seed")) {
			o->seed = number("--seed", v, 0, UINT64_MAX);
		} else if (!strcmp(a, "--gen")) {
			o->gen = number("--gen", v, 0, UINT64_MAX);
			o->gen_given = 1;
		} else if (!strcmp(a, "--properties"))
			o->properties = number("--properties", v, 1, 1000000);
		else if (!strcmp(a, "--procs"))
			o->procs = number("--procs", v, 1, SIM_PROCS_MAX);
		else if (!strcmp(a, "--duration-ms")) {
			o->duration_ms = number("--duration-ms", v, 1, 3600000);
			o->duration_given = 1;
		}
		else if (!strcmp(a, "--hz"))
			o->hz = number("--hz", v, 10, 10000);
		else if (!strcmp(a, "--ipi-ns"))
			o->ipi_ns = number("--ipi-ns", v, 0, 1000000);
		else if (!strcmp(a, "--resume-ns"))
			o->resume_ns = number("--resume-ns", v, 0, 1000000);
		else if (!strcmp(a, "--spawn-ns"))
			o->spawn_ns = number("--spawn-ns", v, 0, 1000000);
		else if (!strcmp(a, "--sysctl")) {
			if (o->nsettings == 32)
				usage_exit("--sysctl: more than 32");
			o->sysctl_arg[o->nsettings] = v;
			if (sim_sysctl_parse(v, &o->settings[o->nsettings++], err, sizeof(err)))
				usage_exit(err);
		} else if (!strncmp(a, "--", 2) && a[2]) {
			if (o->nwl_opt == BENCH_WL_OPT_MAX) {
				snprintf(err, sizeof(err), "%s: more than %d workload options", a, BENCH_WL_OPT_MAX);
				usage_exit(err);
			}
			o->wl_opt[o->nwl_opt][0] = a + (strncmp(a, "--wl-", 5) ? 2 : 5);
			o->wl_opt[o->nwl_opt++][1] = v;
		} else {
			snprintf(err, sizeof(err), "unknown option '%s'", a);
			usage_exit(err);
		}
	}
	if (o->gen_given)
		gen_exit(o->gen);
	if (!o->properties && (!o->machine || !o->workload))
		usage_exit("--machine and --workload are required");
	if (!o->properties && o->control)
		usage_exit("--control: only with --properties");
	if (!o->properties && o->procs)
		usage_exit("--procs: only with --properties");
	if (o->flat && o->topology == TOPO_FREEBSD)
		usage_exit("--flat and --topology freebsd: two different trees, give one");
}

/* The workload's options of o into opt, which holds the starting values
 * (kernel/bench's defaults): each --NAME VALUE checked by
 * bench_wl_set_opt; every thread count threads[0..n-1] checked against the
 * workload's range and its own check. A test workload takes no options. */
static void workload_options(const struct options *o, const struct sim_workload *wl, uint64_t *opt,
			     const int *threads, int n)
{
	char err[200];
	const struct bench_wl *bw = sim_workload_bench(wl);
	if (!bw) {
		if (o->nwl_opt) {
			snprintf(err, sizeof(err), "unknown option '--%s'", o->wl_opt[0][0]);
			usage_exit(err);
		}
		return;
	}
	for (int i = 0; i < o->nwl_opt; i++) {
		for (int j = 0; j < i; j++)
			if (!strcmp(o->wl_opt[i][0], o->wl_opt[j][0])) {
				snprintf(err, sizeof(err), "--%s: given twice", o->wl_opt[i][0]);
				usage_exit(err);
			}
		if (bench_wl_opt_index(bw, o->wl_opt[i][0]) < 0) {
			snprintf(err, sizeof(err), "unknown option '--%s' (%s has: schedsim --list)",
				 o->wl_opt[i][0], bw->name);
			usage_exit(err);
		}
		if (bench_wl_set_opt(bw, opt, o->wl_opt[i][0], o->wl_opt[i][1], err, sizeof(err)))
			usage_exit(err);
	}
	for (int c = 0; c < n; c++)
		if (bench_wl_check_threads(bw, threads[c], err, sizeof(err)) ||
		    (bw->check && bw->check(opt, threads[c], err, sizeof(err))))
			usage_exit(err);
}

/* The comma-separated thread counts of s into sw. */
static void parse_threads(const char *s, struct sim_sweep *sw)
{
	char buf[256], err[200];
	if (strlen(s) >= sizeof(buf))
		usage_exit("--threads: list too long");
	snprintf(buf, sizeof(buf), "%s", s);
	char *save = NULL;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (sw->ncols == BENCH_MAX_COLS) {
			snprintf(err, sizeof(err), "--threads '%s': more than %d counts", s, BENCH_MAX_COLS);
			usage_exit(err);
		}
		sw->threads[sw->ncols++] = (int)number("--threads", w, 1, SIM_MAX_THREADS - 1);
	}
	if (!sw->ncols)
		usage_exit("--threads: no thread count");
}

/* The comma-separated policy specs of s into sw. */
static void parse_policies(const char *s, struct sim_sweep *sw)
{
	char buf[2048], err[200];
	if (strlen(s) >= sizeof(buf))
		usage_exit("--policy: list too long");
	snprintf(buf, sizeof(buf), "%s", s);
	char *save = NULL;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (sw->npol == SIM_MAX_POLICIES) {
			snprintf(err, sizeof(err), "--policy: more than %d policies", SIM_MAX_POLICIES);
			usage_exit(err);
		}
		if (sim_policy_parse(w, &sw->pol[sw->npol++], err, sizeof(err)))
			usage_exit(err);
	}
	if (!sw->npol)
		usage_exit("--policy: no policy");
}

/* The plan as `bench sweep` takes it, for kernel/bench's driver: NULL
 * when it does not fit bench's limits (at most 4 policies, names of at
 * most 23 characters without ':' — bench names its policies, it does not
 * take options in them), else words[] filled and *n their number. */
static char **bench_words(const struct options *o, const struct sim_sweep *sw, int *n)
{
	static char *words[8 + 2 * BENCH_WL_OPT_MAX];
	static char names[BENCH_WL_OPT_MAX][48], runs[24];
	if (sw->npol > BENCH_MAX_POLICIES)
		return NULL;
	for (int p = 0; p < sw->npol; p++)
		if (strlen(sw->pol[p].name) >= BENCH_POLICY_NAME_MAX || strchr(sw->pol[p].name, ':'))
			return NULL;
	snprintf(runs, sizeof(runs), "%d", sw->runs);
	int k = 0;
	words[k++] = (char *)sw->wl->name;
	words[k++] = "--threads";
	words[k++] = (char *)o->threads;
	words[k++] = "--runs";
	words[k++] = runs;
	words[k++] = "--policy";
	words[k++] = (char *)o->policies;
	for (int i = 0; i < o->nwl_opt; i++) {
		snprintf(names[i], sizeof(names[i]), "--%s", o->wl_opt[i][0]);
		words[k++] = names[i];
		words[k++] = (char *)o->wl_opt[i][1];
	}
	*n = k;
	return words;
}

/* --properties' --workload LIST: the set of sim_props_wls indices (bit
 * w), each name once; a usage error names what is refused. */
static unsigned props_workloads(const char *list)
{
	char buf[256], err[200];
	unsigned set = 0;
	if (strlen(list) >= sizeof(buf))
		usage_exit("--workload: list too long");
	snprintf(buf, sizeof(buf), "%s", list);
	char *save = NULL;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int k = sim_props_find(w);
		if (k < 0 || (set & (1u << k))) {
			snprintf(err, sizeof(err), "--properties --workload '%.40s': %s", w, k < 0 ?
				 "one of cpu, make, pgbench, hackbench, schbench, frames" : "given twice");
			usage_exit(err);
		}
		set |= 1u << k;
	}
	if (!set)
		usage_exit("--properties --workload: no workload");
	return set;
}

/* --properties N: the property run (sim_props.c) over machines --seed ..
 * --seed + N - 1: every workload of its plan (sim_props_plan.c), or those
 * --workload LIST names, with the plan's options, runs and counts (one
 * workload alone with its options as given over the plan's); --runs and
 * --threads for every workload when given. Its exit status: 0 when every property held, else 1. */
static int properties_main(const struct options *o)
{
	static struct sim_props pr;
	static struct sim_sweep sw;   /* the --threads list */
	static uint64_t opt[BENCH_WL_OPT_MAX];
	static char args[2048];
	char err[200];
	if (o->machine)
		usage_exit("--properties: generated machines (no --machine)");
	if (o->trace || o->compare || o->name || o->cost || o->flat || o->hmp_scramble ||
	    o->topology != TOPO_MOSAIC)
		usage_exit("--properties: its own policies and report (no --trace, --compare, --name, "
			   "--cost, --flat, --topology, --hmp-scramble)");
	if (o->runs_given && o->runs > SIM_PROPS_MAX_RUNS) {
		snprintf(err, sizeof(err), "--runs with --properties: at most %d", SIM_PROPS_MAX_RUNS);
		usage_exit(err);
	}
	if (o->properties > UINT64_MAX - o->seed)
		usage_exit("--properties N --seed S: S + N beyond 2^64");
	if (o->threads_given)
		parse_threads(o->threads, &sw);
	pr.only = -1;
	pr.workloads = (1u << SIM_PROPS_NWL) - 1;
	if (o->workload)
		pr.workloads = props_workloads(o->workload);
	if (o->workload && !(pr.workloads & (pr.workloads - 1))) {
		pr.only = __builtin_ctz(pr.workloads);
		static const int one[] = { 1 };
		sim_props_defaults(pr.only, opt);
		workload_options(o, sim_workload_find(sim_props_wls[pr.only].name), opt, sw.ncols ? sw.threads : one,
				 sw.ncols ? sw.ncols : 1);
		const char *len_opt = sim_props_wls[pr.only].len_opt;
		for (int i = 0; i < o->nwl_opt; i++)
			pr.only_len_given |= len_opt && !strcmp(o->wl_opt[i][0], len_opt);
		pr.only_opt = opt;
	} else if (o->nwl_opt) {
		snprintf(err, sizeof(err), "--properties: a workload option (--%s) needs --workload with one workload",
			 o->wl_opt[0][0]);
		usage_exit(err);
	}
	size_t n = 0;
	if (o->duration_given)
		n += (size_t)snprintf(args + n, sizeof(args) - n, " --duration-ms %llu", (unsigned long long)o->duration_ms);
	if (o->hz != 100)
		n += (size_t)snprintf(args + n, sizeof(args) - n, " --hz %llu", (unsigned long long)o->hz);
	if (o->ipi_ns != 1000)
		n += (size_t)snprintf(args + n, sizeof(args) - n, " --ipi-ns %llu", (unsigned long long)o->ipi_ns);
	if (o->resume_ns != 2000)
		n += (size_t)snprintf(args + n, sizeof(args) - n, " --resume-ns %llu", (unsigned long long)o->resume_ns);
	if (o->spawn_ns != SIM_SPAWN_NS)
		n += (size_t)snprintf(args + n, sizeof(args) - n, " --spawn-ns %llu", (unsigned long long)o->spawn_ns);
	for (int i = 0; i < o->nsettings; i++)
		n += (size_t)snprintf(args + n, sizeof(args) - n, " --sysctl %s", o->sysctl_arg[i]);
	pr.first = o->seed;
	pr.count = o->properties;
	pr.runs = o->runs_given ? (int)o->runs : 0;
	pr.ncounts = sw.ncols;
	memcpy(pr.counts, sw.threads, sizeof(pr.counts));
	pr.args = args + (n ? 1 : 0);
	pr.procs = o->procs ? (int)o->procs : 1;
	pr.control = o->control != NULL;
	pr.control_name = o->control;
	pr.candidate = o->policies_given ? o->policies : NULL;
	if (pr.candidate) {
		struct sim_policy check;
		if (sim_policy_parse(pr.candidate, &check, err, sizeof(err)))
			usage_exit(err);
		if (check.kind != SIM_POL_SCHED)
			usage_exit("--policy with --properties: one placement policy (not oracle or random)");
	}
	pr.base = (struct sim_config){ .settings = o->settings, .nsettings = o->nsettings,
				       .duration_ns = (o->duration_given ? o->duration_ms : 3600000) * 1000000ull,
				       .hz = (int)o->hz, .ipi_ns = o->ipi_ns, .resume_ns = o->resume_ns,
				       .spawn_ns = o->spawn_ns };
	return sim_props_run(&pr);
}

/* Runs every policy at every thread count runs times, then reports. */
int main(int argc, char **argv)
{
	static struct sim_machine sm;
	static struct sim_sweep sw;
	struct options o;
	char err[600];
	sim_tunables_save();
	parse_args(argc, argv, &o);
	if (o.properties)
		return properties_main(&o);
	if (!(sw.wl = sim_workload_find(o.workload))) {
		snprintf(err, sizeof(err), "--workload '%s': unknown (schedsim --list shows them)", o.workload);
		usage_exit(err);
	}
	if (sim_machine_load(o.presets, o.machine, &sm, err, sizeof(err)) ||
	    ((o.flat || o.topology != TOPO_MOSAIC) &&
	     sim_machine_topology(&sm, o.flat, o.topology, err, sizeof(err)))) {
		fprintf(stderr, "schedsim: %s\n", err);
		return 2;
	}
	sw.sm = &sm;
	sw.runs = (int)o.runs;
	parse_threads(o.threads, &sw);
	parse_policies(o.policies, &sw);
	static uint64_t wl_opt[BENCH_WL_OPT_MAX];
	if (sim_workload_bench(sw.wl))
		bench_wl_defaults(sim_workload_bench(sw.wl), wl_opt);
	workload_options(&o, sw.wl, wl_opt, sw.threads, sw.ncols);
	/* A benchmark workload ends by itself (its --time, its work); the
	 * stop is then only a limit, an hour unless --duration-ms says. */
	if (sim_workload_bench(sw.wl) && !o.duration_given)
		o.duration_ms = 3600000;
	snprintf(sw.name, sizeof(sw.name), "%s", o.name ? o.name : sw.wl->name);
	if (!bench_csv_name_ok(sw.name))
		usage_exit("--name: 1..40 of A-Z a-z 0-9 . _ -");
	sw.v = calloc((size_t)sw.npol * (size_t)sw.ncols * (size_t)sw.runs, sizeof(int64_t));
	sw.cost = calloc((size_t)sw.npol, sizeof(*sw.cost));
	FILE *trace = o.trace ? fopen(o.trace, "w") : NULL;
	if (!sw.v || !sw.cost || (o.trace && !trace)) {
		fprintf(stderr, "schedsim: %s\n", o.trace && !trace ? "cannot write the trace file" : "no memory");
		return 1;
	}
	printf("schedsim: machine %s (%s, %u CPUs%s), workload %s: %s\n", sm.m.model, sm.path, sm.m.cpu_count,
	       o.flat ? ", a flat topology for the scheduler" :
	       o.topology == TOPO_FREEBSD ? ", FreeBSD's topology for the scheduler" : "", sw.wl->name, sw.wl->what);
	const struct bench_wl *bw = sim_workload_bench(sw.wl);
	if (bw) {
		printf("schedsim: options");
		for (int k = 0; k < bw->nopts; k++)
			printf(" --%s %llu", bw->opts[k].name, (unsigned long long)wl_opt[k]);
		printf("\n");
	}
	printf("schedsim: %d run%s %s %llu ms per policy and thread count, seed %llu, hz %llu, IPI %llu ns, "
	       "resume %llu ns, thread creation %llu ns\n\n", sw.runs, sw.runs == 1 ? "" : "s",
	       bw ? "of at most" : "of", (unsigned long long)o.duration_ms, (unsigned long long)o.seed,
	       (unsigned long long)o.hz, (unsigned long long)o.ipi_ns, (unsigned long long)o.resume_ns,
	       (unsigned long long)o.spawn_ns);
	sw.base = (struct sim_config){ .sm = &sm, .settings = o.settings, .nsettings = o.nsettings, .wl = sw.wl,
				       .duration_ns = o.duration_ms * 1000000ull, .hz = (int)o.hz, .ipi_ns = o.ipi_ns,
				       .resume_ns = o.resume_ns, .spawn_ns = o.spawn_ns, .opt = bw ? wl_opt : NULL,
				       .hmp_scramble = o.hmp_scramble, .scramble_seed = o.scramble_seed };
	if (o.hmp_scramble)
		printf("schedsim: every hmp input scrambled (--hmp-scramble %llu)\n\n",
		       (unsigned long long)o.scramble_seed);
	sw.seed = o.seed;
	sw.trace = trace;
	size_t tlen = o.trace ? strlen(o.trace) : 0;
	sw.trace_json = tlen > 5 && !strcmp(o.trace + tlen - 5, ".json");
	if (sw.trace_json)
		sim_trace_json_begin(trace);
	int nwords = 0;
	char **words = bw ? bench_words(&o, &sw, &nwords) : NULL;
	if (bw && !words)
		printf("schedsim: more than %d policies, a policy with options or a name of %d characters or "
		       "more: schedsim's own runner (bench's tables, in groups of %d policies)\n\n",
		       BENCH_MAX_POLICIES, BENCH_POLICY_NAME_MAX, BENCH_MAX_POLICIES);
	double t0 = sim_host_seconds();
	int failed = words ? sim_sweep_bench(&sw, nwords, words) : sim_sweep_own(&sw);
	double secs = sim_host_seconds() - t0;
	if (failed)
		return failed;
	sim_report_summary(&sw);
	if (o.compare && sim_report_compare(&sw, o.compare))
		return 1;
	if (o.cost)
		sim_report_cost(&sw);
	if (trace && sw.trace_json)
		sim_trace_json_end(trace);
	if (trace && fclose(trace)) {
		fprintf(stderr, "schedsim: %s: write error\n", o.trace);
		return 1;
	}
	fprintf(stderr, "schedsim: %d runs, %llu events in %.2f s\n", sw.runs * sw.ncols * sw.npol,
		(unsigned long long)sw.events, secs);
	return 0;
}
