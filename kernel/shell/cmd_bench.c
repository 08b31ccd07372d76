/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmd_bench.c — the `bench` command: the kernel's side of the portable
 * benchmark driver (kernel/bench/bench_drv.h). It parses the words, runs
 * each workload run in a thread of its own while the shell thread watches
 * the console for a key (any key, Ctrl-C too, stops the plan cleanly:
 * brt_stopping() becomes 1, the workload's threads end and are joined, and
 * the tables of the runs completed are printed), sets and restores the
 * policies' sysctls, and tells the report where CPUs' core types, HFI
 * updates and the work clock come from. docs/bench.md describes it.
 *
 * Shell thread only.
 */
#include <shell/shell.h>
#include <kern/console.h>
#include <dev/console_input.h>
#include <kern/printk.h>
#include <dev/rapl.h>
#include <lib/string.h>
#include <thread/thread.h>
#include <arch/x86_64/smp/smp.h>
#include <mm/mm.h>
#include <arch/x86_64/clock/time.h>
#include <emul/emul_workclock.h>
#include <dev/hfi/hfi_kernel.h>
#include <bench/bench_drv.h>
#include <bench/bench_rt_kernel.h>
#include <bench/bench_policy.h>
#include <save/save.h>
#include <shell/cmd_sched.h>
#include <thread/sched_trace.h>
#include <lib/parse.h>

#define BENCH_KEY_POLL_NS 50000000ull   /* the shell looks for a key this often during a run */
#define BENCH_ALIVE_NS    60000000000ull /* and says a long run is still going this often */
#define BENCH_OUT_LINE    1100          /* longest report line (BENCH_LINE_MAX and a newline) */
#define BENCH_SAVE_LOG    (2 * 1024 * 1024)   /* a --save run's log kept for the stick */

/* The report's output: one console write per piece, lines up to
 * BENCH_OUT_LINE (printk would cut them at 512 bytes). */
static void bench_console(void *arg, const char *fmt, va_list ap)
{
	static char line[BENCH_OUT_LINE];
	(void)arg;
	int n = kvsnprintf(line, sizeof(line), fmt, ap);
	console_write(line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static const struct bench_out bench_con = { bench_console, NULL };

/* One run, handed to the runner thread. */
struct bench_job {
	const struct bench_wl *wl;
	const uint64_t *opt;
	int threads;
	struct bench_result *res;
	int done;   /* set by the runner at its end (atomic) */
};

/* The runner thread: the workload's run(), whose threads it joins. */
static void bench_runner(void *arg)
{
	struct bench_job *j = arg;
	j->wl->run(j->opt, j->threads, j->res);
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
}

/* bench_plat.run: the workload in a thread of its own (timeshare, like its
 * threads): its main thread, created by the shell thread as a program's
 * is (docs/sim.md, "How workloads start"), while the shell sleeps and
 * looks for a key every 50 ms. The RAPL counters (rapl.h), read before
 * and after, give the run's energy. 1 if a key stopped it. */
static int bench_plat_run(void *arg, const struct bench_wl *wl, const uint64_t *opt, int threads,
			  struct bench_result *res)
{
	struct bench_job job = { wl, opt, threads, res, 0 };
	int stopped = 0;
	char c;
	(void)arg;
	uint64_t uj0 = 0, uj1 = 0, at0 = 0, at1 = 0;
	int metered = rapl_energy_uj(&uj0, NULL, &at0) == 0;
	save_record_rapl();
	brt_kernel_begin();
	uint64_t start = time_ns(), said = start;
	res->energy_uj = -1;
	struct thread *t = thread_create("bench-run", bench_runner, &job, NULL);
	if (!t) {
		bench_check(res, 0, "no memory for the run's thread");
		return 0;
	}
	while (!__atomic_load_n(&job.done, __ATOMIC_ACQUIRE)) {
		thread_sleep_ns(BENCH_KEY_POLL_NS);
		if (time_ns() - said >= BENCH_ALIVE_NS) {
			said = time_ns();
			printk("bench:   this run is still going after %lu s (a key stops)\n",
			       (unsigned long)((said - start) / 1000000000ull));
		}
		if (!stopped && console_trygetc(&c)) {
			printk("bench: a key: stopping (the run's threads end and are joined)\n");
			brt_kernel_stop();
			stopped = 1;
		}
	}
	thread_join(t);
	res->elapsed_ns = time_ns() - start;
	save_record_rapl();
	if (metered && rapl_energy_uj(&uj1, NULL, &at1) == 0) {
		res->energy_uj = (int64_t)(uj1 - uj0);
		res->elapsed_ns = at1 - at0;   /* the span the energy covers */
	}
	return stopped;
}

/* bench_plat.apply and .restore: the policies' sysctls (kernel/bench/bench_policy.c). */
static int bench_plat_apply(void *arg, const char *name, char *err, size_t len)
{
	(void)arg;
	return bench_policy_apply(name, err, len);
}

/* See bench_plat_apply(). */
static int bench_plat_restore(void *arg, char *err, size_t len)
{
	(void)arg;
	return bench_policy_restore(err, len);
}

/* Core type of a CPU from its descriptor (CPUID or the machine description). */
static int bench_plat_cpu_type(void *arg, int cpu)
{
	(void)arg;
	const struct cpu_desc *d = cpu >= 0 && (unsigned)cpu < smp_cpu_count() ? smp_cpu_desc((unsigned)cpu) : NULL;
	return d ? d->core_type & 3 : 0;
}

/* Tables the HFI driver has copied so far (every package), -1 without HFI. */
static int64_t bench_plat_hfi(void *arg)
{
	(void)arg;
	const struct hfi_drv *d = hfi_driver();
	if (!d || !d->on)
		return -1;
	int64_t n = 0;
	for (int p = 0; p < d->npkg; p++)
		n += (int64_t)hfi_count(&d->pkg[p].updates);
	return n;
}

/* Threads alive: created and not yet freed. */
static uint64_t bench_threads_alive(void)
{
	uint64_t created, exited, freed;
	thread_counts(&created, &exited, &freed);
	return created - freed;
}

/* `bench list`: the workloads and their options. */
static void bench_list(void)
{
	for (int i = 0; i < bench_wl_count(); i++) {
		const struct bench_wl *wl = bench_wl_at(i);
		printk("%-10s %s\n", wl->name, wl->descr);
		printk("           result in %s (%s is better); --threads N: %s, %d..%d (default %d)\n",
		       wl->unit, wl->higher_is_better ? "higher" : "lower", wl->threads_means,
		       wl->threads_min, wl->threads_max, wl->threads_def);
		for (int k = 0; k < wl->nopts; k++) {
			const struct bench_wl_opt *o = &wl->opts[k];
			printk("           --%-16s %lu..%lu%s%s (default %lu): %s\n", o->name, o->min, o->max,
			       o->unit[0] ? " " : "", o->unit, o->def, o->help);
		}
	}
	printk("Every workload also takes --runs N (1..%d) and --policy LIST (1..%d of bench "
	       "policies; default %s).\n", BENCH_RUNS_MAX, BENCH_MAX_POLICIES, BENCH_DEFAULT_POLICIES);
}

/* The last plan and its results, kept for `bench show` until the next. */
static struct bench_plan last_plan;
static struct bench_data last_data;
static int have_last;

/* The platform of this kernel. */
static void bench_platform(struct bench_plat *plat)
{
	uint64_t w;
	*plat = (struct bench_plat){
		.apply = bench_plat_apply, .restore = bench_plat_restore, .run = bench_plat_run,
		.cpu_type = bench_plat_cpu_type, .hfi_updates = bench_plat_hfi,
		.work_clock = emul_workclock_self(&w) == 0,
	};
}

/* Parses, runs and reports one plan; with trace > 0 under a new `sched
 * trace` of trace records per CPU, on from the first run to the report's
 * end, then dumped (docs/bench.md, "Tracing a plan"). */
static int bench_run_plan(int sweep, int argc, char **argv, uint32_t trace)
{
	static struct bench_plan plan;
	struct bench_data *data = &last_data;
	struct bench_plat plat;
	char err[200];
	if (bench_plan_parse(&plan, sweep, argc, argv, bench_policy_known, NULL, err, sizeof(err))) {
		printk("bench: %s\n", err);
		shell_usage("bench");
		return 1;
	}
	if (have_last)
		bench_data_free(data);
	have_last = 0;
	last_plan = plan;
	if (bench_data_init(data, &last_plan)) {
		printk("bench: no memory for %d runs\n", bench_plan_total(&plan));
		return 1;
	}
	have_last = 1;
	bench_platform(&plat);
	uint64_t before = bench_threads_alive();
	printk("bench: %s %s: %d thread count(s) x %d policies x %d runs = %d runs; a key stops\n",
	       sweep ? "sweep" : "run", plan.wl->name, plan.ncols, plan.npol, plan.runs, data->total);
	for (int p = 0; p < plan.npol; p++)
		bench_policy_show((char)('A' + p), plan.policy[p]);
	if (trace && sched_trace_cmd_on(trace))
		return 1;
	bench_drv_run(&last_plan, &plat, &bench_con, data);
	bench_drv_report(&last_plan, &plat, &bench_con, data, 1);
	if (trace) {
		sched_trace_stop();
		printk("bench: the plan's scheduler trace (sched trace dump):\n");
		sched_trace_cmd_dump();
	}
	uint64_t after = bench_threads_alive();
	printk("bench: threads alive before %lu, after %lu%s; workload threads not joined %d\n", before,
	       after, before == after ? "" : " (MISMATCH)", brt_kernel_live());
	return data->stopped || data->failed || before != after;
}

/* `bench show`: the last plan's tables again, without the CSV blocks. */
static int bench_show(void)
{
	struct bench_plat plat;
	if (!have_last) {
		printk("bench: show: no plan has run since boot\n");
		return 1;
	}
	bench_platform(&plat);
	bench_drv_report(&last_plan, &plat, &bench_con, &last_data, 0);
	return 0;
}

/* A plan run with --save: its output is shown and kept, and at the end
 * written with everything `save` writes (kernel/save/save.h); vol: the
 * volume --save=VOL names, NULL for save's default. */
static int bench_run_saved(const char *vol, uint32_t trace, int sweep, int argc, char **argv)
{
	char *log = kmalloc(BENCH_SAVE_LOG), name[40];
	if (!log) {
		printk("bench: --save: no memory for the run's log\n");
		return 1;
	}
	struct save_capture c;
	save_capture_start(&c, log, BENCH_SAVE_LOG, 0);
	int rc = bench_run_plan(sweep, argc, argv, trace);
	save_capture_stop(&c);
	if (c.lost)
		printk("bench: --save: the log kept its first %zu bytes (%zu more were shown only)\n", c.len, c.lost);
	ksnprintf(name, sizeof(name), "bench-%s.log", argv[0]);
	struct save_file f = { name, log, c.len };
	printk("bench: saving the log and this boot's results (save)\n");
	if (save_run(vol, SAVE_ALL, &f, 1))
		rc = 1;
	kfree(log);
	return rc;
}

/* `bench ...`: see the usage line. */
static int cmd_bench(int argc, char **argv)
{
	if (!thread_sched_running()) {
		printk("bench: the scheduler is off (sched=off)\n");
		return 1;
	}
	if (strcmp(argv[1], "list") == 0 && argc == 2) {
		bench_list();
		return 0;
	}
	if (strcmp(argv[1], "policies") == 0 && argc == 2) {
		bench_policy_list();
		return 0;
	}
	if (strcmp(argv[1], "show") == 0 && argc == 2)
		return bench_show();
	if (strcmp(argv[1], "policy") == 0 && argc >= 3)
		return bench_policy_define(argc - 2, argv + 2);
	/* --save or --save=VOL and --trace or --trace=SIZE, anywhere after
	 * the workload, are taken out. */
	const char *save_vol = NULL;
	int save = 0, k = 1;
	uint32_t trace = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--save") == 0 || strncmp(argv[i], "--save=", 7) == 0) {
			save = 1;
			save_vol = argv[i][6] == '=' ? argv[i] + 7 : NULL;
		} else if (strcmp(argv[i], "--trace") == 0 || strncmp(argv[i], "--trace=", 8) == 0) {
			uint64_t size = SCHED_TRACE_SIZE_DEFAULT;
			char err[96];
			if (argv[i][7] == '=' && parse_u64_range(argv[i] + 8, SCHED_TRACE_SIZE_MIN, SCHED_TRACE_SIZE_MAX,
								 &size, "--trace", err, sizeof(err))) {
				printk("bench: %s\n", err);
				return 1;
			}
			trace = (uint32_t)size;
		} else
			argv[k++] = argv[i];
	}
	argc = k;
	argv[argc] = NULL;
	int sweep = argc >= 2 && strcmp(argv[1], "sweep") == 0;
	if (argc < 2 + sweep) {
		shell_usage("bench");
		return 1;
	}
	if (save)
		return bench_run_saved(save_vol, trace, sweep, argc - 1 - sweep, argv + 1 + sweep);
	return bench_run_plan(sweep, argc - 1 - sweep, argv + 1 + sweep, trace);
}
SHELL_COMMAND(bench, 1, SHELL_ARGS_MAX - 1,
	      "list | policies | policy NAME k=v... | show | [sweep] WORKLOAD [--threads N,N..] [--runs N] "
	      "[--policy P,P..] [--OPTION V]... [--save[=VOLUME]] [--trace[=SIZE]]",
	      "run a workload (bench list) under placement policies (bench policies), alternating; "
	      "sweep: the seed report's tables; a key stops; --save: the log and results to a USB stick; "
	      "--trace: a sched trace of the plan, dumped at its end",
	      cmd_bench);
