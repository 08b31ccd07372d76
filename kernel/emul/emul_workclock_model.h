/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_workclock_model.h — the work clock of an emulated machine and the speed model
 * behind it (docs/hfi.md, "The work clock and the speed model").
 * Portable: no arch headers; the host unit tests run it on scripted
 * timelines (tests/unit/test_workclock.c).
 *
 * Every thread has a clock that counts the work it has done, in time of a
 * P-core thread running alone. While the thread runs on a CPU its clock
 * advances with guest time at that CPU's rate; off CPU it stands still.
 *
 * Units. Work is counted in thousandths of a nanosecond of lone P-core
 * time (WC_WORK_PER_NS per ns). A rate is work per nanosecond of guest
 * time, so WC_RATE_ONE (1000) is the speed of a lone P-core thread and a
 * rate of 540 is 0.54 of it. Integer rates keep the figures of the
 * machine files exact: 1000 ns on an E-core of speed 0.54 are exactly 540
 * ns of work, on a busy SMT pair of throughput 1.39 exactly 695 each.
 *
 * Speed model (emul_workclock_speed.c; factors are thousandths, WC_FACTOR_ONE):
 *   share     a core of n SMT threads, k of them busy: together they do
 *             T(k) = speed + (smt_throughput - speed) * (k - 1) / (n - 1),
 *             a straight line from one thread alone (T(1) = speed) to all
 *             busy (T(n) = smt_throughput); each busy thread gets T(k) / k.
 *   throttle  a CPU whose HFI row's class-0 perf is below the row's
 *             initial perf runs at perf / initial of its speed, never
 *             below WC_THROTTLE_FLOOR (1/8); at or above initial, or with
 *             initial 0 (no reference), unthrottled.
 *   power     optional (the machine's `power` line, sysctl
 *             kern.emul.power): when the busy cores of a package ask for
 *             more power than its budget, every CPU of the package runs
 *             at cbrt(budget / demand) of its speed (dynamic power grows
 *             as the cube of the clock).
 *   class     the Thread Director class of the code the running thread
 *             executes (its clock's class, set by work_class()): the
 *             description's `class-speed` factor for that class and the
 *             CPU's core type (1.000 for class 0 and classes not given).
 *   rate      speed share × throttle × power × class, rounded down once,
 *             at least 1 (a running thread always advances).
 * Which of these are measured and which are modelled: docs/hfi.md.
 *
 * Energy (emul_workclock_energy.c), with a power line (metered; with or
 * without a budget): a package draws
 *   base + sum over its cores of  idle TYPE watts        (no busy thread)
 *                                 (TYPE + smt × (busy − 1)) × f³  (busy)
 * where f is the clock factor of the core (its fastest busy CPU's throttle
 * × power factor, WC_FACTOR_ONE = 1; with the model disabled f = 1): dynamic power
 * grows as the cube of the clock, as for the budget. Energy is integrated
 * exactly like work: settled at every event at the power in force since
 * the last one (mW × ns), so a package's energy is an exact piecewise sum.
 *
 * Exact integration. A rate changes only at events: a thread starts or
 * stops running on a CPU (its core's SMT share changes; with the power
 * model on, its package's demand), an HFI row's perf changes, the model
 * is switched (wc_set_enabled, wc_set_power), a running thread changes
 * the class of its code (wc_set_class).
 *
 * Thread Director history (for the emulated ITD device, docs/hfi.md):
 * each CPU records the class of the code it executes now (its running
 * clock's class; 0 while idle) and since when without a change of class;
 * a switch between two threads of the same class is no change (the
 * hardware cannot tell threads apart: that is what HRESET is for), and
 * wc_itd_reset() (HRESET) starts the history again. At each event the clocks
 * whose rate changes are first settled at the old rate (work += elapsed
 * × rate), so a clock is an exact piecewise sum, never a sample.
 *
 * Times passed to the events come from several CPUs and may be a little
 * out of order; a span that would be negative counts as nothing.
 *
 * Locking: the caller serialises every call (one lock for the model),
 * except wc_read_self(), which is lock-free: a thread reading its own
 * clock on the CPU it runs on (and does not leave meanwhile) retries
 * while that CPU's sequence count shows a writer at work.
 */
#ifndef MOSAIC_EMUL_WORKCLOCK_MODEL_H
#define MOSAIC_EMUL_WORKCLOCK_MODEL_H
#include <stdint.h>
#include <emul/machine_desc/machine.h>

#define WC_WORK_PER_NS     1000u   /* work units per ns of lone P-core time */
#define WC_RATE_ONE        1000u   /* rate of a lone P-core thread */
#define WC_FACTOR_ONE      1000u   /* throttle and power factors: thousandths */
#define WC_THROTTLE_FLOOR  125u    /* a throttled CPU keeps at least 1/8 of its speed */

/* ---- the speed model (emul_workclock_speed.c): pure functions ---- */

/* Rate of one busy thread of a core of `threads` SMT threads (1..8) of
 * which `busy` run threads (0 counts as 1: the rate a thread would get),
 * for a core type of `speed` alone and `smt` for all threads busy (both in
 * MACHINE_SPEED_ONE units; smt unused when threads == 1), times the
 * throttle, power and class factors (WC_FACTOR_ONE = none; cls at most
 * 8 × WC_FACTOR_ONE). Rounded down, >= 1. */
uint32_t speed_rate(unsigned speed, unsigned smt, unsigned threads, unsigned busy,
		    unsigned throttle, unsigned power, unsigned cls);
/* Throttle factor of a row whose class-0 perf is perf_now, initially
 * perf_initial: perf_now / perf_initial in thousandths, rounded down, at
 * least WC_THROTTLE_FLOOR; WC_FACTOR_ONE when perf_now >= perf_initial or
 * perf_initial is 0. */
unsigned speed_throttle(unsigned perf_now, unsigned perf_initial);
/* Power factor of a package whose busy cores ask for demand_mw under a
 * budget of budget_mw: WC_FACTOR_ONE while demand <= budget, else
 * floor(1000 × cbrt(budget / demand)), at least 1. */
unsigned speed_power(uint64_t budget_mw, uint64_t demand_mw);

/* ---- the work clock (emul_workclock_model.c) ---- */

/* A thread's clock (in struct thread). Written only by the model. */
struct wc_clock {
	uint64_t work;       /* settled work, WC_WORK_PER_NS per ns */
	uint64_t since;      /* guest ns when the running segment began */
	int32_t cpu;         /* CPU it runs on, -1 while off CPU */
	uint8_t cls;         /* Thread Director class of the code it runs (itd_class.h) */
};

struct wc_cpu {
	struct wc_clock *run;   /* the clock running here; NULL: idle */
	uint32_t rate;          /* rate of a thread running here now */
	uint32_t seq;           /* odd while run, rate or run's clock change */
	uint16_t core, pkg;     /* dense core and package indices */
	int32_t row;            /* HFI row, or MACHINE_NO_ROW */
	uint8_t type;           /* enum cpu_core_type */
	uint8_t itd_cls;        /* class of the code executed here now (0 idle) */
	uint64_t itd_since;     /* guest ns since which it has been, or the last reset */
};

struct wc_core {
	uint8_t threads;        /* SMT threads of the core */
	uint8_t busy;           /* of them running a thread now */
	uint8_t type;
	uint16_t pkg;
	uint16_t first, end;    /* its CPUs: core_cpu[first .. end - 1] */
};

/* A package's energy (settled) and the power in force since the model's
 * energy_since. */
struct wc_energy {
	uint64_t uj;            /* settled energy, µJ */
	uint64_t rem_pj;        /* and the pJ below a µJ (< 10^6) */
	uint64_t cores_uj, cores_rem_pj;   /* the same for its cores only (RAPL's PP0) */
	uint32_t mw, cores_mw;  /* power in force, mW */
};

struct wc_row {
	uint16_t perf, initial; /* class-0 perf now and at start (0..255) */
};

struct wc_model {
	unsigned ncpu, ncore, npkg, nrows;
	int enabled;            /* 0: every CPU is a lone P thread (rate = WC_RATE_ONE) */
	int power_on;           /* the power budget applies */
	uint16_t speed[MACHINE_CORE_TYPES], smt[MACHINE_CORE_TYPES];
	uint16_t cls_speed[MACHINE_HFI_CLASSES_MAX][MACHINE_CORE_TYPES];   /* machine_class_speed() */
	struct machine_power power;
	struct wc_cpu cpu[MACHINE_MAX_CPUS];
	struct wc_core core[MACHINE_MAX_CPUS];
	uint16_t core_cpu[MACHINE_MAX_CPUS];     /* CPUs by core, each core's in CPU order */
	struct wc_row row[MACHINE_MAX_ROWS];
	uint16_t pkg_factor[MACHINE_MAX_CPUS];   /* power factor per package */
	uint64_t pkg_demand[MACHINE_MAX_CPUS];   /* scratch: mW asked per package */
	uint64_t energy_since;                   /* guest ns energy was last settled at */
	struct wc_energy energy[MACHINE_MAX_CPUS];   /* per package, with a power line */
	uint16_t core_factor[MACHINE_MAX_CPUS];  /* scratch: clock factor per busy core */
};

/* Zero work, off CPU, class 0. */
void wc_clock_init(struct wc_clock *c);
/* The model of m (a checked description with cpu lines): every CPU idle,
 * rows at their initial perf, enabled, the budget on iff m's power line
 * has one, energy counted from 0 at guest time 0 iff m has a power line. */
void wc_init(struct wc_model *w, const struct machine *m);
/* At guest time now, cpu stops running whatever ran there and runs in
 * (NULL: nothing, the idle thread). If in is still recorded on another
 * CPU (its old CPU has not reached its own switch yet), it leaves that
 * CPU now. Re-rates the CPUs whose share or power changed. */
void wc_switch(struct wc_model *w, unsigned cpu, struct wc_clock *in, uint64_t now);
/* The clock running on cpu, or NULL. */
struct wc_clock *wc_running(const struct wc_model *w, unsigned cpu);
/* Switch the model (0: every CPU counts as a lone P thread) at now. */
void wc_set_enabled(struct wc_model *w, int on, uint64_t now);
/* Switch the power budget at now; -1 (nothing changed) if the machine has
 * no budget (its power line has no budget=, or there is none) and on is 1. */
int wc_set_power(struct wc_model *w, int on, uint64_t now);
/* Row's class-0 perf became perf (initially initial) at now: re-rates
 * the row's CPUs. -1 (nothing changed) if row is not a row of the model. */
int wc_row_perf(struct wc_model *w, int row, unsigned perf, unsigned initial, uint64_t now);
/* The code clock c runs is now of class cls (below MACHINE_HFI_CLASSES_MAX)
 * from now on: a running clock is settled at its old rate first, and its
 * CPU re-rated and its Thread Director history restarted if the class
 * changed. -1 (nothing changed) for a class out of range. */
int wc_set_class(struct wc_model *w, struct wc_clock *c, unsigned cls, uint64_t now);
/* cpu's Thread Director history: the class of the code it executes now
 * and the guest ns since which it has, without a change or a reset. */
void wc_itd_state(const struct wc_model *w, unsigned cpu, unsigned *cls, uint64_t *since);
/* HRESET on cpu at now: its history starts again (since = now). */
void wc_itd_reset(struct wc_model *w, unsigned cpu, uint64_t now);
/* Current rate of cpu (what a thread running there gets; with nothing
 * running, what a class-0 thread would get). */
uint32_t wc_cpu_rate(const struct wc_model *w, unsigned cpu);
/* Energy of package pkg (< wc_packages()) from the model's start to now,
 * in µJ, rounded down: the whole package, or its cores only (cores = 1).
 * 0 without a power line. Caller serialises with the writers. */
uint64_t wc_energy_uj(const struct wc_model *w, unsigned pkg, int cores, uint64_t now);
/* Power package pkg draws now, mW (its cores only with cores = 1); 0
 * without a power line. Caller serialises with the writers. */
uint32_t wc_power_mw(const struct wc_model *w, unsigned pkg, int cores);
/* Packages of the model, and the dense package index of cpu. */
unsigned wc_packages(const struct wc_model *w);
unsigned wc_cpu_package(const struct wc_model *w, unsigned cpu);
/* Energy is counted from 0 at now (no event may come before now). */
void wc_energy_start(struct wc_model *w, uint64_t now);
/* Internal to the model (emul_workclock_energy.c): settle every package's
 * energy up to now at the power in force, then recompute that power from
 * the model's state (after the caller changed it and re-rated). */
void wc_energy_settle(struct wc_model *w, uint64_t now);
void wc_energy_repower(struct wc_model *w);
/* Work of c at now (settled work plus the running segment). Caller
 * serialises with the writers. */
uint64_t wc_read(const struct wc_model *w, const struct wc_clock *c, uint64_t now);
/* The same, lock-free, for the thread that owns c and runs on cpu without
 * leaving it during the call. -1 if c is not running on cpu. */
int wc_read_self(const struct wc_model *w, const struct wc_clock *c, unsigned cpu, uint64_t now,
		 uint64_t *work);

#endif
