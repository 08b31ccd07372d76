/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_engine.c — the discrete-event engine: the event queue, and the
 * kernel's way of driving the scheduler replayed on simulated CPUs
 * (kernel/thread/thread_switch.c, thread_boot.c): the tick (timers, then
 * sched_clock), the scheduler IPI (sched_ipi), the switch at interrupt
 * exit when need_resched is set, the switch a thread asks for (sleep,
 * exit, a SCHED_RESCHED of its own call), and the idle loop (sched_idle,
 * then sched_switch(NULL, SCHED_SW_YIELD)). Each simulated thread's work
 * is timed from its CPU's rate in the work clock model and re-timed when
 * that rate changes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <sim/sim.h>
#include <sim/sim_wl.h>

struct sim sim;

/* See sim.h. */
void sim_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fflush(stdout);
	fprintf(stderr, "schedsim: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/* ---- the event queue: a binary heap on (time, seq) ---- */

/* a comes before b: earlier, or queued first at the same instant. */
static int ev_before(const struct sim_event *a, const struct sim_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* See sim.h. */
void sim_push(uint64_t t, int kind, int cpu, struct sim_thread *td)
{
	if (t < sim.now)
		sim_fatal("event in the past (%llu < %llu)", (unsigned long long)t,
			  (unsigned long long)sim.now);
	if (sim.nheap == sim.capheap) {
		size_t cap = sim.capheap ? sim.capheap * 2 : 1024;
		struct sim_event *h = realloc(sim.heap, cap * sizeof(*h));
		if (!h)
			sim_fatal("no memory for the event queue");
		sim.heap = h;
		sim.capheap = cap;
	}
	struct sim_event e = { t, sim.seq++, td, td ? td->version : 0, cpu, (uint8_t)kind };
	size_t i = sim.nheap++;
	while (i > 0 && ev_before(&e, &sim.heap[(i - 1) / 2])) {
		sim.heap[i] = sim.heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	sim.heap[i] = e;
}

/* Takes the earliest event into *out; 0 if the queue is empty. */
static int sim_pop(struct sim_event *out)
{
	if (!sim.nheap)
		return 0;
	*out = sim.heap[0];
	struct sim_event last = sim.heap[--sim.nheap];
	size_t i = 0, n = sim.nheap;
	for (;;) {
		size_t l = 2 * i + 1, best = l;
		if (l >= n)
			break;
		if (l + 1 < n && ev_before(&sim.heap[l + 1], &sim.heap[l]))
			best = l + 1;
		if (!ev_before(&sim.heap[best], &last))
			break;
		sim.heap[i] = sim.heap[best];
		i = best;
	}
	if (n)
		sim.heap[i] = last;
	return 1;
}

/* See sim.h. */
uint64_t sim_next_time(void)
{
	return sim.nheap ? sim.heap[0].time : UINT64_MAX;
}

/* ---- threads' events ---- */

/* Makes td's queued events stale. */
static void td_cancel(struct sim_thread *td)
{
	td->version++;
}

/* See sim.h. The work ends at the first ns at which the clock, advancing
 * at the CPU's rate, reaches the target: exact, as the clock is. */
void sim_time_work(struct sim_thread *td)
{
	uint64_t have = wc_read(&sim.wc, &td->wc, sim.now);
	uint32_t rate = wc_cpu_rate(&sim.wc, (unsigned)td->cpu);
	uint64_t t = sim.now;
	sim.cpu[td->cpu].rate_seen = rate;
	if (have < td->work_target)
		t += (td->work_target - have + rate - 1) / rate;
	td_cancel(td);
	sim_push(t, SIM_EV_RESUME, td->cpu, td);
}

/* See sim.h. */
void sim_rerate(void)
{
	for (int c = 0; c < sim.ncpu; c++) {
		struct sim_thread *td = sim.cpu[c].cur;
		if (td && td->state == SIM_TD_WORK && !sim.stopping &&
		    wc_cpu_rate(&sim.wc, (unsigned)c) != sim.cpu[c].rate_seen)
			sim_time_work(td);
	}
}

/* A trace array full at *cap entries of size each, twice as large (first
fill entries); exits on no memory. */
static void *trace_grow(void *arr, size_t *cap, size_t first, size_t size)
{
	size_t n = *cap ? *cap * 2 : first;
	void *grown = realloc(arr, n * size);
	if (!grown)
		sim_fatal("no memory for the trace");
	*cap = n;
	return grown;
}

/* See sim.h. */
void sim_trace_end(struct sim_thread *td, int cpu)
{
	struct sim_result *r = sim.res;
	if (!sim.cfg->trace || sim.now <= td->seg_start)
		return;
	if (r->nseg == sim.capseg)
		r->seg = trace_grow(r->seg, &sim.capseg, 4096, sizeof(*r->seg));
	r->seg[r->nseg++] = (struct sim_seg){ (uint32_t)td->id, (uint16_t)cpu, td->seg_start, sim.now };
}

/* See sim.h. */
void sim_trace_hfi(int row, unsigned perf, unsigned ee)
{
	struct sim_result *r = sim.res;
	if (r->nhfi == sim.caphfi)
		r->hfi = trace_grow(r->hfi, &sim.caphfi, 16, sizeof(*r->hfi));
	r->hfi[r->nhfi++] = (struct sim_hfi_mark){ sim.now, (uint16_t)row, (uint8_t)perf, (uint8_t)ee };
}

/* ---- switching ---- */

/* sched_switch() on cpu for its current context (the kernel's
 * thread_switch()): the outgoing thread stops, the incoming one starts
 * (its code after the resume cost, or its work timed at this CPU's
 * rate). Returns the thread now running, NULL for the idle loop. */
static struct sim_thread *cpu_sched_switch(int c, int how)
{
	struct sim_cpu *cpu = &sim.cpu[c];
	struct sim_thread *cur = cpu->cur;
	sim.self = c;
	cpu->need_resched = 0;
	struct td_sched *nts = sched_switch(cur ? &cur->ts : NULL, how);
	struct sim_thread *next = (struct sim_thread *)nts;   /* ts is its first member */
	if (next == cur)
		return cur;
	if (cur) {
		td_cancel(cur);
		sim_trace_end(cur, c);
		cur->cpu = -1;
	}
	wc_switch(&sim.wc, (unsigned)c, next ? &next->wc : NULL, sim.now);
	cpu->cur = next;
	sim_watch_dirty(c);
	if (next) {
		if (next->state != SIM_TD_READY && next->state != SIM_TD_WORK)
			sim_fatal("cpu %d: the scheduler chose thread %d, which is not runnable", c, next->id);
		next->cpu = c;
		next->seg_start = sim.now;
		td_cancel(next);
		if (next->state == SIM_TD_WORK && !sim.stopping)
			sim_time_work(next);
		else
			sim_push(sim.now + (next->state == SIM_TD_READY ? sim.cfg->resume_ns : 0),
				 SIM_EV_RESUME, c, next);
	}
	sim_rerate();
	return next;
}

/* Resumes cpu's idle loop until it halts or a thread takes the CPU
 * (thread_idle_main: sched_idle(), then thread_idle_switch()). */
static void run_idle(int c)
{
	struct sim_cpu *cpu = &sim.cpu[c];
	for (;;) {
		sim.self = c;
		sim.cur_idle = c;
		sim_ctx_switch(&sim.main_ctx, &cpu->idle_ctx);
		sim.cur_idle = -1;
		if (cpu->idle_req == SIM_REQ_HALT) {
			cpu->halted = 1;
			return;
		}
		if (cpu_sched_switch(c, SCHED_SW_YIELD))
			return;
	}
}

/* A switch asked for on cpu; if the CPU is left idle its idle loop runs. */
static void cpu_switch(int c, int how)
{
	if (!cpu_sched_switch(c, how))
		run_idle(c);
}

/* End of an interrupt on cpu (thread_irq_exit): a thread is switched out
 * if need_resched; a halted idle loop wakes (the hlt returns). */
static void irq_exit(int c)
{
	struct sim_cpu *cpu = &sim.cpu[c];
	if (cpu->cur) {
		if (cpu->need_resched)
			cpu_switch(c, SCHED_SW_PREEMPT);
	} else if (cpu->halted) {
		cpu->halted = 0;
		run_idle(c);
	}
}

/* The scheduler IPI arrives on cpu (thread_resched_ipi). */
static void on_ipi(int c)
{
	struct sim_cpu *cpu = &sim.cpu[c];
	sim.self = c;
	if (sched_ipi(c, cpu->cur ? &cpu->cur->ts : NULL))
		cpu->need_resched = 1;
	irq_exit(c);
}

/* cpu's timer interrupt (time_tick → thread_tick): the global count on
 * CPU 0, expired timers, sched_clock; then the next tick. */
static void on_tick(int c)
{
	struct sim_cpu *cpu = &sim.cpu[c];
	sim.self = c;
	if (c == 0)
		sim.ticks++;
	sim_rt_timers(c);
	if (sched_clock(c, cpu->cur ? &cpu->cur->ts : NULL, 1))
		cpu->need_resched = 1;
	irq_exit(c);
	cpu->tick_ns += sim.tick_period;
	sim_push(cpu->tick_ns, SIM_EV_TICK, c, NULL);
}

/* See sim.h. */
void sim_resched_self(void)
{
	int c = sim.self;
	sim.cpu[c].need_resched = 1;
	if (sim.cur)
		sim.cur->self_ipi = 1;   /* taken when its call returns */
	else
		sim_push(sim.now, SIM_EV_IPI, c, NULL);   /* after this interrupt */
}

/* See sim.h. */
int sim_wake(struct sim_thread *td)
{
	if (td->state != SIM_TD_BLOCKED)
		return 0;
	td->state = SIM_TD_READY;
	td->blk = SIM_BLK_NONE;
	if (sched_wakeup(&td->ts) & SCHED_RESCHED)
		sim_resched_self();
	return 1;
}

/* See sim.h. */
struct sim_thread *sim_current(const char *what)
{
	if (!sim.cur)
		sim_fatal("%s called outside a simulated thread", what);
	return sim.cur;
}

/* See sim.h. */
void sim_yield(struct sim_thread *td, int req)
{
	td->req = (uint8_t)req;
	sim_ctx_switch(&td->ctx, &sim.main_ctx);
}

/* A thread asked to be switched because its own call returned
 * SCHED_RESCHED: the self-IPI is taken first (sched_ipi), then the switch
 * at its exit; a thread the core keeps continues at once. */
static void preempt_point(struct sim_thread *td, int c)
{
	struct sim_cpu *cpu = &sim.cpu[c];
	td->self_ipi = 0;
	if (sched_ipi(c, &td->ts))
		cpu->need_resched = 1;
	if (cpu->need_resched)
		cpu_switch(c, SCHED_SW_PREEMPT);
	if (cpu->cur == td && td->state == SIM_TD_READY) {
		td_cancel(td);
		sim_push(sim.now, SIM_EV_RESUME, c, td);
	}
}

/* Runs td's code until it hands control back, then does what it asked. */
static void run_thread(struct sim_thread *td)
{
	int c = td->cpu;
	sim.cur = td;
	sim.self = c;
	sim_ctx_switch(&sim.main_ctx, &td->ctx);
	sim.cur = NULL;
	int req = td->req;
	td->req = SIM_REQ_NONE;
	if (td->self_ipi && req != SIM_REQ_PREEMPT) {   /* owed IPI, taken after the switch */
		td->self_ipi = 0;
		sim_push(sim.now, SIM_EV_IPI, c, NULL);
	}
	switch (req) {
	case SIM_REQ_WORK:
		sim_time_work(td);
		break;
	case SIM_REQ_SLEEP:
		if (td == sim.main && sim.cfg->watch && sim.spawned == sim.cfg->threads)
			sim_watch_open();
		cpu_switch(c, SCHED_SW_SLEEP);
		break;
	case SIM_REQ_EXIT:
		if (sim_workload_thread(td))
			sim_watch_close();
		sim.live--;
		cpu_switch(c, SCHED_SW_EXIT);
		break;
	case SIM_REQ_PREEMPT:
		preempt_point(td, c);
		break;
	default:
		sim_fatal("thread %d handed control back without a request", td->id);
	}
}

/* A SIM_EV_RESUME: td's switch-in cost has passed or its work is done. */
static void on_resume(const struct sim_event *e)
{
	struct sim_thread *td = e->td;
	if (e->version != td->version)
		return;   /* stale: it was switched out or re-timed */
	if (td->cpu != e->cpu || sim.cpu[e->cpu].cur != td)
		sim_fatal("thread %d resumed on cpu %d, where it does not run", td->id, e->cpu);
	if (td->state == SIM_TD_WORK) {
		if (!sim.stopping && wc_read(&sim.wc, &td->wc, sim.now) < td->work_target)
			sim_fatal("thread %d: work timed to end too early", td->id);
		td->state = SIM_TD_READY;
	}
	run_thread(td);
}

/* The stop: brt_stopping() turns 1 on CPU 0's behalf; sleepers and
 * channel waiters wake; work in progress ends now. */
static void on_stop(void)
{
	sim.stopping = 1;
	sim.self = 0;
	sim_watch_close();
	sim_rt_stop();
	for (int c = 0; c < sim.ncpu; c++) {
		struct sim_thread *td = sim.cpu[c].cur;
		if (td && td->state == SIM_TD_WORK) {
			td_cancel(td);
			sim_push(sim.now, SIM_EV_RESUME, c, td);
		}
	}
}

/* Entry of each CPU's idle coroutine (thread_idle_main). */
static void idle_main(void *arg)
{
	int c = (int)(intptr_t)arg;
	struct sim_cpu *cpu = &sim.cpu[c];
	for (;;) {
		sched_idle(c);
		cpu->idle_req = SIM_REQ_IDLE_SWITCH;
		sim_ctx_switch(&cpu->idle_ctx, &sim.main_ctx);
	}
}

/* See sim.h. */
void sim_engine_idle_init(int c)
{
	struct sim_cpu *cpu = &sim.cpu[c];
	if (!cpu->idle_stack && !(cpu->idle_stack = malloc(SIM_STACK_SIZE)))
		sim_fatal("no memory for the idle stack of cpu %d", c);
	sim_ctx_make(&cpu->idle_ctx, cpu->idle_stack, SIM_STACK_SIZE, idle_main, (void *)(intptr_t)c);
}

/* Why a run did not end: every thread still alive and what it waits for. */
static void report_alive(void)
{
	static const char *const state[] = { "runnable", "in brt_work", "blocked", "exited" };
	static const char *const blk[] = { "", " in brt_sleep", " on a channel", " in brt_join" };
	for (const struct sim_thread *td = sim.threads; td; td = td->all_next)
		if (td->state != SIM_TD_EXITED)
			fprintf(stderr, "schedsim:   thread %d (%s): %s%s\n", td->id, td->name, state[td->state],
				td->state == SIM_TD_BLOCKED ? blk[td->blk] : "");
}

/* See sim.h. */
int sim_engine_loop(void)
{
	struct sim_event e;
	int started = 0;
	while (!started || sim.live > 0) {
		if (!sim_pop(&e))
			sim_fatal("no events left with %d threads alive", sim.live);
		if (e.time > sim.give_up_at) {
			fprintf(stderr, "schedsim: %s: %d thread(s) still alive %llu ms after the stop\n",
				sim.cfg->wl->name, sim.live,
				(unsigned long long)((e.time - sim.stop_at) / 1000000));
			report_alive();
			return -1;
		}
		if (sim.w.open && e.time > sim.now)
			sim_watch_settle();
		sim.now = e.time;
		sim.nevents++;
		switch (e.kind) {
		case SIM_EV_START:
			for (int c = 0; c < sim.ncpu; c++)
				run_idle(c);
			sim.self = 0;
			sim_shell_start();
			started = 1;
			break;
		case SIM_EV_TICK:
			on_tick(e.cpu);
			break;
		case SIM_EV_IPI:
			on_ipi(e.cpu);
			break;
		case SIM_EV_RESUME:
			on_resume(&e);
			break;
		case SIM_EV_HFI:
			sim_hfi_event(e.cpu);
			break;
		case SIM_EV_PUBLISH:
			sim_hfi_publish();
			break;
		case SIM_EV_STOP:
			on_stop();
			break;
		default:
			sim_fatal("unknown event kind %d", e.kind);
		}
	}
	return 0;
}
