/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_workclock.h — the work clock of the emulated machine in the kernel
 * (the model: kernel/emul/emul_workclock_model.h; docs/hfi.md, "The work clock
 * and the speed model").
 *
 * Active only under QEMU with an applied machine description (cpu lines)
 * and the scheduler running; on real hardware, without a description or
 * with sched=off every function here does nothing and the readers answer
 * -1. One spinlock (taken with interrupts off, a leaf: nothing is locked
 * under it) guards the model; a thread reads its own clock without it,
 * through its CPU's sequence count.
 *
 * sysctl kern.emul.workclock (1 when active; 0: every CPU counts as a
 * lone P thread, so work equals run time) and kern.emul.power (the
 * description's power budget: 1 iff it has a `power` line) switch the
 * model at run time; a switch is an event like any other.
 */
#ifndef MOSAIC_EMUL_WORKCLOCK_H
#define MOSAIC_EMUL_WORKCLOCK_H
#include <stdint.h>

struct thread;

/* Start the work clock if the machine is emulated: the calling thread
 * ("main", on the boot CPU) counts from the start of its current run.
 * Once, boot CPU, in thread
 * main right after thread_boot(), before any other thread than the idle
 * threads exists (so every thread is switched in through
 * emul_workclock_switch()). */
void emul_workclock_init(void);
/* The thread layer's switch hook (thread.h, registered by kernel/main.c):
 * on CPU cpu, at guest time now (the
 * instant the run times use), `out` leaves and `in` enters (either may be
 * the CPU's idle thread, which does not count as busy; `out` may be
 * exiting). Called once per switch, after the scheduler chose `in` and
 * before the context switch, interrupts off, no lock held. Does nothing
 * when inactive. */
void emul_workclock_switch(unsigned cpu, struct thread *out, struct thread *in, uint64_t now);
/* The calling thread's work so far (thousandths of a ns of lone P-core
 * time), lock-free; -1 when inactive or called from an idle thread or
 * before the scheduler. Any thread context. */
int emul_workclock_self(uint64_t *work);
/* The work-clock half of work(W) (kernel/bench/work.c): calls step() again and
 * again until the calling thread's clock has advanced by ns of lone P-core
 * work, and returns by how much it advanced, in ns: at least ns, more when
 * the last step ran past the target (a vCPU the host paused mid-step). -1,
 * without calling step(), when the clock is inactive (as
 * emul_workclock_self()). Any thread context, interrupts on (it may be
 * preempted and migrate: the clock belongs to the thread). */
int64_t emul_workclock_run(uint64_t ns, void (*step)(void));
/* td's work so far (same unit); -1 when inactive or td is an idle
 * thread. Takes the model lock (callers may hold the thread list lock). */
int emul_workclock_read(const struct thread *td, uint64_t *work);
/* The calling thread's code is of Thread Director class cls (below
 * ITD_CLASS_MAX) from now on: its clock runs at its CPU's rate for that
 * class (the description's class-speed; docs/hfi.md), settled at the old
 * class's rate first. Lock-free when the class does not change. -1 when
 * inactive (as emul_workclock_self()) or cls out of range. Any thread
 * context. */
int emul_workclock_set_class(unsigned cls);
/* td's current class (its clock's; 0 when inactive). Lock-free. */
unsigned emul_workclock_class(const struct thread *td);
struct thread_info;
/* The thread layer's info hook (thread.h, registered by kernel/main.c):
 * td's work so far and class into out (has_work, work, has_code_cls,
 * code_cls: both flags 0 when inactive or td is an idle thread). Takes
 * the model lock (under the thread list lock). */
void emul_workclock_info(const struct thread *td, struct thread_info *out);
/* The emulated Thread Director's view of the calling CPU (kernel/emul/
 * emul_itd.c): the class of the code it executes and for how many ns of
 * guest time it has without a change of class or an HRESET. -1 when
 * inactive. Interrupts off (the caller stays on its CPU). */
int emul_workclock_itd_state(unsigned *cls, uint64_t *ran_ns);
/* HRESET of the calling CPU's Thread Director history. Interrupts off. */
void emul_workclock_itd_reset(void);
/* HFI: row's class-0 performance capability is now perf_now (perf_initial
 * at boot); re-rates that row's CPUs at this instant. For the emulated
 * HFI device, after each table write. Does nothing when inactive; a row
 * the description does not have is a caller's bug (panics). Any context. */
void emul_workclock_row_perf(int row, unsigned perf_now, unsigned perf_initial);

/* Energy of the package of cpu from boot to now, µJ (the whole package,
 * or its cores only with cores = 1), from the description's power model
 * (emul_workclock_model.h, "Energy"): 0 and *uj set, or -1 when the clock
 * is inactive, the description has no power line or cpu is not one of
 * it. Takes the model lock; any context. */
int emul_workclock_energy(unsigned cpu, int cores, uint64_t *uj);

#endif
