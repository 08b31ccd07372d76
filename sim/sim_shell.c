/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_shell.c — how a run starts (docs/sim.md, "How workloads start"): as
 * a program started from a shell does. The shell is a thread that last
 * ran on some CPU, long enough ago that no cache of it is warm, and sleeps
 * waiting for input. Input arrives as an interrupt on the boot CPU (where
 * the kernel routes the ISA interrupts) and wakes it (sched_wakeup, so the
 * policy under test places it); it creates the bench main thread — the
 * program's first thread, at the cost of a thread creation — and sleeps
 * until that thread exits. The main thread runs the workload once; the
 * shell then ends (it would read input again; nothing else happens in
 * the run).
 *
 * Which CPU the shell last ran on is drawn from the run's seed, every CPU
 * alike: an interactive shell on an idle machine stays where it first
 * ran, and nothing says where that was.
 */
#include <sim/sim.h>
#include <sim/sim_wl.h>
#include <bench/bench_rt.h>

/* The bench main thread: one sample of the workload. */
static void main_entry(void *arg)
{
	(void)arg;
	struct sim_wl_args a = { sim.cfg->threads, sim.cfg->duration_ns, sim.cfg->opt };
	sim.value = sim.cfg->wl->run(sim.cfg->wl, &a);
	sim.main_done = 1;
}

/* The shell, once input woke it: the program's first thread, then a wait
 * for its end. */
static void shell_entry(void *arg)
{
	(void)arg;
	struct sim_thread *sh = sim_current("the shell");
	sim_spawn_cost();
	sim.main = sim_thread_new("bench", main_entry, NULL, sh, NULL);
	if (!sim.main)
		sim_fatal("no memory for the bench main thread");
	brt_join((struct brt_thread *)sim.main, NULL);
}

/* See sim.h. */
void sim_shell_start(void)
{
	uint64_t s = sim.cfg->seed ^ 0x7368656c6c000000ull;
	int last = (int)(sim_mix(&s) % (uint64_t)sim.ncpu);
	sim.shell = sim_thread_asleep("shell", shell_entry, NULL, last, SIM_BLK_SLEEP);
	if (!sim.shell)
		sim_fatal("no memory for the shell");
	sim_wake(sim.shell);
}
