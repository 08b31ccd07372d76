/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_workclock.c — the kernel side of the work clock (see
 * emul_workclock.h): the model of kernel/emul/emul_workclock_model.c behind one
 * lock, fed by the thread layer's switches, the HFI device's row changes
 * and two sysctls.
 */
#include <mm/mm.h>
#include <kern/panic.h>
#include <arch/x86_64/smp/percpu.h>
#include <kern/printk.h>
#include <arch/x86_64/spinlock.h>
#include <lib/sysctl.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/cpu/cpu.h>
#include <emul/emul_workclock_model.h>
#include <emul/machine_platform.h>
#include <emul/emul_workclock.h>

/* Guards the model: every write, and reads of other threads' clocks. A
 * leaf lock, always taken with interrupts off. */
static struct spinlock wc_lock = SPINLOCK_INIT("workclock");
static struct wc_model *wc_model;      /* NULL: inactive; set once */
static int64_t wc_enabled_value;       /* kern.emul.workclock */
static int64_t wc_power_value;         /* kern.emul.power */

/* The model when active (acquire: its contents are visible). */
static struct wc_model *wc_active(void)
{
	return __atomic_load_n(&wc_model, __ATOMIC_ACQUIRE);
}

/* kern.emul.workclock=v: switch the model at this instant. */
static int wc_sysctl_enabled(int64_t v, char *err, size_t len)
{
	struct wc_model *w = wc_active();
	if (!w) {
		ksnprintf(err, len, "kern.emul.workclock: no emulated machine (%s)",
			  machine_platform_source());
		return -1;
	}
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	wc_set_enabled(w, (int)v, time_ns());
	wc_enabled_value = v;
	spin_unlock_irqrestore(&wc_lock, flags);
	return 0;
}
SYSCTL_INT_SET(kern_emul_workclock, "kern.emul.workclock", &wc_enabled_value, 0, 1,
	       wc_sysctl_enabled,
	       "work clock of the emulated machine: 1 = each thread advances at its CPU's "
	       "modelled speed, 0 = every CPU counts as a lone P thread (docs/hfi.md)");

/* kern.emul.power=v: switch the power budget at this instant. */
static int wc_sysctl_power(int64_t v, char *err, size_t len)
{
	struct wc_model *w = wc_active();
	if (!w) {
		ksnprintf(err, len, "kern.emul.power: no emulated machine (%s)",
			  machine_platform_source());
		return -1;
	}
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	int rc = wc_set_power(w, (int)v, time_ns());
	if (rc == 0)
		wc_power_value = v;
	spin_unlock_irqrestore(&wc_lock, flags);
	if (rc)
		ksnprintf(err, len, "kern.emul.power: the machine description has no power budget (budget= on its 'power' line)");
	return rc;
}
SYSCTL_INT_SET(kern_emul_power, "kern.emul.power", &wc_power_value, 0, 1, wc_sysctl_power,
	       "power budget of the emulated machine (its 'power' line's budget=): 1 = on, 0 = off "
	       "(docs/hfi.md)");

/* See emul_workclock.h. */
int emul_workclock_energy(unsigned cpu, int cores, uint64_t *uj)
{
	struct wc_model *w = wc_active();
	if (!w || !w->power.line || cpu >= w->ncpu)
		return -1;
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	*uj = wc_energy_uj(w, wc_cpu_package(w, cpu), cores, time_ns());
	spin_unlock_irqrestore(&wc_lock, flags);
	return 0;
}

/* See emul_workclock.h. */
void emul_workclock_init(void)
{
	const struct machine *m = machine_platform_machine();
	struct thread *self = thread_current();
	if (!m || !thread_sched_running())
		return;
	struct wc_model *w = kzalloc(sizeof(*w));
	if (!w) {
		printk("workclock: out of memory; work runs uncorrected\n");
		return;
	}
	wc_init(w, m);
	wc_clock_init(&self->wc);
	/* Main's clock starts with its current run (from thread_boot() on,
	 * while every other CPU ran its idle thread), like its run time. */
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	wc_switch(w, cpu_current(), &self->wc, self->on_since_ns);
	wc_enabled_value = w->enabled;
	wc_power_value = w->power_on;
	__atomic_store_n(&wc_model, w, __ATOMIC_RELEASE);
	spin_unlock_irqrestore(&wc_lock, flags);
	printk("workclock: on: threads advance at their CPU's modelled speed%s "
	       "(sysctl kern.emul.workclock, kern.emul.power)\n",
	       w->power_on ? ", under the power budget" : "");
}

/* The clock of td, or NULL for an idle thread (not busy). */
static struct wc_clock *wc_of(struct thread *td)
{
	return td->flags & TDF_IDLE ? NULL : &td->wc;
}

/* See emul_workclock.h. The CPU's slot holds out's clock, or nothing
 * (out is idle, or its clock started before the model, or out's next CPU
 * already took it over). now may be a little older than an event another
 * CPU recorded meanwhile under the lock: the model never integrates a
 * negative span. */
void emul_workclock_switch(unsigned cpu, struct thread *out, struct thread *in, uint64_t now)
{
	struct wc_model *w = wc_active();
	if (!w)
		return;
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	struct wc_clock *was = wc_running(w, cpu);
	KASSERT(!was || was == wc_of(out), "cpu %u: work clock of another thread than %u", cpu,
		out->id);
	wc_switch(w, cpu, wc_of(in), now);
	spin_unlock_irqrestore(&wc_lock, flags);
}

/* The id of the thread whose clock k is (0: none). */
static uint32_t wc_owner_id(const struct wc_clock *k)
{
	return k ? ((const struct thread *)((const char *)k -
					    __builtin_offsetof(struct thread, wc)))->id : 0;
}

/* A running thread whose clock is not on its CPU: a broken switch
 * protocol. Panics with where the clock is and what the CPU's slot holds
 * (read under the lock), so the report says which side went wrong.
 * Interrupts off. */
static void wc_lost(struct wc_model *w, const struct thread *td, unsigned cpu)
{
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	int32_t on = __atomic_load_n(&td->wc.cpu, __ATOMIC_RELAXED);
	uint32_t held = wc_owner_id(wc_running(w, cpu));
	int64_t held_there = on >= 0 && (unsigned)on < w->ncpu ?
			     (int64_t)wc_owner_id(wc_running(w, (unsigned)on)) : -1;
	spin_unlock_irqrestore(&wc_lock, flags);
	panic("workclock: thread %u runs on cpu %u but its work clock is on cpu %d (whose slot "
	      "holds thread %ld's); cpu %u's slot holds thread %u's", td->id, cpu, on, held_there,
	      cpu, held);
}

/* See emul_workclock.h. Interrupts off so the thread stays on its CPU
 * while it reads. */
int emul_workclock_self(uint64_t *work)
{
	struct wc_model *w = wc_active();
	struct thread *td = thread_current();
	if (!w || !td || (td->flags & TDF_IDLE))
		return -1;
	uint64_t flags = cpu_save_flags_cli();
	unsigned cpu = cpu_current();
	if (wc_read_self(w, &td->wc, cpu, time_ns(), work))
		wc_lost(w, td, cpu);
	cpu_restore_flags(flags);
	return 0;
}

/* See emul_workclock.h. */
int64_t emul_workclock_run(uint64_t ns, void (*step)(void))
{
	uint64_t start, done, target;
	if (emul_workclock_self(&start))
		return -1;
	target = start + ns * WC_WORK_PER_NS;
	done = start;
	while (done < target) {
		step();
		emul_workclock_self(&done);
	}
	return (int64_t)((done - start) / WC_WORK_PER_NS);
}

/* See emul_workclock.h. */
int emul_workclock_read(const struct thread *td, uint64_t *work)
{
	struct wc_model *w = wc_active();
	if (!w || (td->flags & TDF_IDLE))
		return -1;
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	*work = wc_read(w, &td->wc, time_ns());
	spin_unlock_irqrestore(&wc_lock, flags);
	return 0;
}

/* See emul_workclock.h. */
void emul_workclock_row_perf(int row, unsigned perf_now, unsigned perf_initial)
{
	struct wc_model *w = wc_active();
	if (!w)
		return;
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	int rc = wc_row_perf(w, row, perf_now, perf_initial, time_ns());
	spin_unlock_irqrestore(&wc_lock, flags);
	KASSERT(rc == 0, "HFI row %d is not a row of the machine description", row);
}

/* See emul_workclock.h. The owner alone changes its clock's class, so the
 * unlocked comparison sees the current value. */
int emul_workclock_set_class(unsigned cls)
{
	struct wc_model *w = wc_active();
	struct thread *td = thread_current();
	if (!w || !td || (td->flags & TDF_IDLE) || cls >= MACHINE_HFI_CLASSES_MAX)
		return -1;
	if (__atomic_load_n(&td->wc.cls, __ATOMIC_RELAXED) == cls)
		return 0;
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	wc_set_class(w, &td->wc, cls, time_ns());
	spin_unlock_irqrestore(&wc_lock, flags);
	return 0;
}

/* See emul_workclock.h. */
unsigned emul_workclock_class(const struct thread *td)
{
	return wc_active() ? __atomic_load_n(&td->wc.cls, __ATOMIC_RELAXED) : 0;
}

/* See emul_workclock.h. */
void emul_workclock_info(const struct thread *td, struct thread_info *out)
{
	out->has_work = emul_workclock_read(td, &out->work) == 0;
	out->has_code_cls = out->has_work;
	out->code_cls = emul_workclock_class(td);
}

/* See emul_workclock.h. */
int emul_workclock_itd_state(unsigned *cls, uint64_t *ran_ns)
{
	struct wc_model *w = wc_active();
	uint64_t since;
	if (!w)
		return -1;
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	uint64_t now = time_ns();
	wc_itd_state(w, cpu_current(), cls, &since);
	spin_unlock_irqrestore(&wc_lock, flags);
	*ran_ns = now > since ? now - since : 0;
	return 0;
}

/* See emul_workclock.h. */
void emul_workclock_itd_reset(void)
{
	struct wc_model *w = wc_active();
	if (!w)
		return;
	uint64_t flags = spin_lock_irqsave(&wc_lock);
	wc_itd_reset(w, cpu_current(), time_ns());
	spin_unlock_irqrestore(&wc_lock, flags);
}
