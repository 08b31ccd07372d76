/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_run.c — one simulated run: a booted machine (hmp, the scheduler,
 * the work clock, idle CPUs ticking at random phases), the shell starting
 * the workload's bench main thread at the start (sim_shell.c), the timed
 * HFI events, the stop, and what the run produced. Everything random
 * comes from the run's seed: the tick phases, the scheduler's per-CPU
 * LCGs (tdq_rand, which sched_init() seeds with fixed values), the CPU
 * the shell last ran on, brt_random() and the random policy.
 */
#include <string.h>
#include <sim/sim.h>
#include <sim/sim_machine.h>
#include <sim/sim_policy.h>
#include <sched/ule.h>

/* The run starts 1 s after the simulated boot (the kernel's shell comes
 * up about a second after its clock starts; machine events count from
 * boot). */
#define SIM_T0_NS 1000000000ull
/* A workload still running this long after the stop is given up. */
#define SIM_GIVE_UP_NS 60000000000ull

/* Puts the engine back to an empty machine for cfg. */
static void engine_reset(const struct sim_config *cfg, struct sim_result *res)
{
	sim.cfg = cfg;
	sim.m = &cfg->sm->m;
	sim.ncpu = (int)sim.m->cpu_count;
	sim.tick_period = 1000000000ull / (uint64_t)cfg->hz;
	sim.now = 0;
	sim.nheap = 0;
	sim.seq = 0;
	sim.nevents = 0;
	sim.threads = NULL;
	sim.shell = sim.main = NULL;
	sim.nthreads = sim.live = sim.spawned = 0;
	sim.stopping = 0;
	sim.cur = NULL;
	sim.cur_idle = -1;
	sim.self = 0;
	sim.value = -1;
	sim.main_done = 0;
	sim.res = res;
	sim.capseg = sim.caphfi = 0;
	for (int c = 0; c < MACHINE_MAX_CPUS; c++) {
		void *stack = sim.cpu[c].idle_stack;
		memset(&sim.cpu[c], 0, sizeof(sim.cpu[c]));
		sim.cpu[c].idle_stack = stack;
	}
	sim_plat_reset();
	sim_cost_reset();
	sim_watch_reset();
}

/* The machine as the kernel has it when its shell starts: work clock,
 * hmp, the scheduler with the policy's variables, smp started. */
static void boot(const struct sim_config *cfg)
{
	sim_tunables_restore();
	sched_smp_started = 0;
	wc_init(&sim.wc, sim.m);
	sim_hmp_init();
	sim.t0 = sim.now = SIM_T0_NS;
	wc_energy_start(&sim.wc, sim.t0);
	sim.ticks = SIM_T0_NS / sim.tick_period;
	sched_init(cfg->sm->topo.root, sim.ncpu);
	uint64_t s = cfg->seed ^ 0x6c63670000000000ull;
	for (int c = 0; c < sim.ncpu; c++)
		tdq_cpu(c)->tdq_rand = (uint32_t)sim_mix(&s);
	sim_policy_apply(cfg->policy);
	for (int i = 0; i < cfg->nsettings; i++)
		sim_setting_apply(&cfg->settings[i]);
	sim_policy_prepare(cfg->policy, sim.m, cfg->seed);
	sched_start_smp();
}

/* The run's first events: HFI events due by the start, the start, every
 * CPU's first tick at a random phase, the later HFI events, the stop. */
static void queue_events(const struct sim_config *cfg)
{
	const struct machine *m = sim.m;
	unsigned i = 0;
	for (; i < m->event_count && m->event[i].time_ms * 1000000ull <= sim.t0; i++)
		sim_push(sim.t0, SIM_EV_HFI, (int)i, NULL);
	sim_push(sim.t0, SIM_EV_START, 0, NULL);
	uint64_t s = cfg->seed ^ 0x7469636b00000000ull;
	for (int c = 0; c < sim.ncpu; c++) {
		sim_engine_idle_init(c);
		sim.cpu[c].tick_ns = sim.t0 + sim_mix(&s) % sim.tick_period;
		sim_push(sim.cpu[c].tick_ns, SIM_EV_TICK, c, NULL);
	}
	for (; i < m->event_count; i++)
		sim_push(m->event[i].time_ms * 1000000ull, SIM_EV_HFI, (int)i, NULL);
	sim.stop_at = sim.t0 + cfg->duration_ns;
	sim.give_up_at = sim.stop_at + SIM_GIVE_UP_NS;
	sim_push(sim.stop_at, SIM_EV_STOP, 0, NULL);
}

uint64_t sim_plan_ns;

/* See sim.h. */
int sim_run(const struct sim_config *cfg, struct sim_result *res)
{
	memset(res, 0, sizeof(*res));
	res->value = -1;
	engine_reset(cfg, res);
	boot(cfg);
	queue_events(cfg);
	int rc = sim_engine_loop();
	sim_watch_close();
	sim_plan_ns += sim.now - sim.t0;
	res->value = sim.main_done ? sim.value : -1;
	res->events = sim.nevents;
	sim_cost_collect(res->cost);
	sim_rt_reset();
	sim.nheap = 0;
	return rc;
}
