/* SPDX-License-Identifier: BSD-2-Clause */
/* thread_boot.c — starting the scheduler: the topology tree, the boot
 * flow's own thread, one idle thread per CPU, the APs' entry into theirs,
 * and the idle loop (see thread.h). */
#include <thread/thread.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/cmdline.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <kern/panic.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <sched/topo.h>

void arch_run_on_stack(void *stack_top, void (*fn)(void *), void *arg) __attribute__((noreturn));

static struct topo thread_topo;              /* built once, then read only */
static int thread_topo_rc;                   /* what topo_build_or_flat() said of it */
static struct cpu_desc thread_descs[MAXCPU]; /* the descriptors it was built from */
static struct thread boot_thread;            /* the boot flow, later the shell */

/* See thread.h. */
struct cpu_group *thread_topo_root(void)
{
	return thread_topo.root;
}

/* See thread.h. */
int thread_topo_kind(void)
{
	if (thread_topo.root)
		return thread_topo.kind;
	return topo_kind_find(cmdline_choice("kern.sched.topology"));
}

/* See thread.h. */
const struct topo *thread_topo_live(int *rc)
{
	if (!thread_topo.root)
		return NULL;
	*rc = thread_topo_rc;
	return &thread_topo;
}

/* See thread.h. */
int thread_topo_build_online(struct topo *t, int kind, struct cpu_desc descs[])
{
	struct cpuset online;
	unsigned n = smp_cpu_count();
	if (n > MAXCPU)
		n = MAXCPU;
	cpuset_zero(&online);
	for (unsigned i = 0; i < n; i++) {
		const struct cpu_desc *d = smp_cpu_online(i) ? smp_cpu_desc(i) : NULL;
		if (d) {
			descs[i] = *d;
			cpuset_set(&online, i);
		} else {
			memset(&descs[i], 0, sizeof(descs[i]));
		}
	}
	return topo_build_or_flat(t, kind, descs, n, &online);
}

/* Builds the topology tree of the online CPUs, of the kind
 * kern.sched.topology names; 0 on success. FreeBSD's tree refused by its
 * probe gives ours, descriptors that contradict each other the flat
 * fallback (one group of all CPUs), each said on the console; only no tree
 * at all turns the scheduler off. */
static int thread_build_topo(void)
{
	int rc = thread_topo_build_online(&thread_topo, thread_topo_kind(), thread_descs);
	thread_topo_rc = rc;
	if (!thread_topo.root) {
		printk("sched: cannot build the topology tree (%s); scheduler off\n",
		       thread_topo.error);
		return -1;
	}
	if (rc == TOPO_ERR_UNMODELLED)
		printk("sched: kern.sched.topology=freebsd: %s; using the mosaic tree\n",
		       thread_topo.error);
	else if (rc != TOPO_OK)
		printk("sched: inconsistent CPU topology (%s); scheduling on one flat group of %d CPUs\n",
		       thread_topo.error, thread_topo.ncpus);
	else if (thread_topo.kind == TOPO_FREEBSD)
		printk("sched: kern.sched.topology=freebsd: FreeBSD's cpu_group tree from CPU %d's CPUID (`topo` shows it)\n",
		       thread_topo.fbsd.boot_cpu);
	return 0;
}

/* A new idle thread for cpu (not yet running). */
static struct thread *thread_idle_create(unsigned cpu)
{
	struct thread *td = kzalloc(sizeof(*td));
	if (!td || !(td->stack_top = thread_stack_alloc()))
		panic("sched: no memory for the idle thread of cpu %u", cpu);
	char name[THREAD_NAME_MAX] = "idle/";
	unsigned len = 5, digits = cpu >= 100 ? 3 : cpu >= 10 ? 2 : 1;
	for (unsigned i = digits, v = cpu; i-- > 0; v /= 10)
		name[len + i] = (char)('0' + v % 10);
	name[len + digits] = 0;
	thread_set_name(td, name);
	td->flags = TDF_IDLE;
	td->state = TD_RUNNABLE;
	td->cpu = (int)cpu;
	timer_init(&td->sleep_timer);
	waitq_init(&td->exit_wq, "thread exit");
	thread_frame_init(td, thread_idle_main, (void *)(uint64_t)cpu);
	thread_register(td);
	return td;
}

/* See thread.h. */
void thread_boot(void)
{
	if (strcmp(cmdline_choice("sched"), "off") == 0) {
		printk("sched: off (sched=off): the shell runs alone on cpu 0\n");
		return;
	}
	if (thread_build_topo())
		return;
	sched_init(thread_topo.root, (int)smp_cpu_count());

	struct thread *td = &boot_thread;
	thread_set_name(td, "main");
	td->flags = TDF_BOOT;
	td->state = TD_RUNNABLE;
	td->on_cpu = 1;
	td->cpu = 0;
	td->on_since_ns = thread_now_ns();
	timer_init(&td->sleep_timer);
	waitq_init(&td->exit_wq, "thread exit");
	uint64_t flags = cpu_save_flags_cli();
	/* The shell is the machine's console: realtime class, so it answers
	 * (and `top` samples on time) however many CPU hogs run. */
	sched_thread_init(&td->ts, NULL, SCHED_CLASS_REALTIME, 0, NULL);
	sched_adopt_running(&td->ts);
	thread_register(td);
	struct percpu *p0 = percpu_get(0);
	p0->curthread = td;
	p0->fail_nth = &td->fail_nth;
	p0->idlethread = thread_idle_create(0);
	thread_set_running();
	__atomic_store_n(&p0->sched_ready, 1, __ATOMIC_RELEASE);
	cpu_restore_flags(flags);

	unsigned started = 1;
	for (unsigned cpu = 1; cpu < smp_cpu_count(); cpu++) {
		if (!smp_cpu_online(cpu))
			continue;
		struct thread *idle = thread_idle_create(cpu);
		__atomic_store_n(&percpu_get(cpu)->idlethread, idle, __ATOMIC_RELEASE);
	}
	/* The core learns which CPUs take threads once, at sched_start_smp():
	 * wait (a tick each, 1 s at most) until every AP runs its idle thread. */
	uint64_t deadline = thread_now_ns() + 1000000000ull;
	for (unsigned cpu = 1; cpu < smp_cpu_count(); cpu++) {
		if (!smp_cpu_online(cpu))
			continue;
		while (!__atomic_load_n(&percpu_get(cpu)->sched_ready, __ATOMIC_ACQUIRE) &&
		       thread_now_ns() < deadline)
			cpu_pause();
		if (percpu_get(cpu)->sched_ready)
			started++;
		else
			printk("sched: cpu %u did not enter its idle thread; it takes no threads\n", cpu);
	}
	sched_start_smp();
	printk("sched: ULE on %u CPUs, placement %s (kern.sched.policy); the shell runs as thread %u\n",
	       started, sched_policy_name(), td->id);
}

/* See thread.h. */
uint64_t thread_idle_ns(unsigned cpu)
{
	const struct thread *td = percpu_get(cpu)->idlethread;
	if (!td)
		return 0;
	uint64_t ns = td->run_ns;
	if (td->on_cpu)
		ns += thread_now_ns() - td->on_since_ns;
	return ns;
}

/* The AP's first step on its idle stack. */
static void thread_ap_idle_start(void *arg)
{
	thread_start(thread_idle_main, arg);
}

/* See thread.h. The AP waits in its boot loop, serving interrupts, until
 * the boot CPU hands it an idle thread (a tick wakes it to look). */
void thread_ap_enter(unsigned cpu)
{
	struct percpu *p = percpu_get(cpu);
	struct thread *idle;
	while (!(idle = __atomic_load_n(&p->idlethread, __ATOMIC_ACQUIRE)))
		cpu_sti_hlt();
	cpu_cli();
	p->curthread = idle;
	p->fail_nth = &idle->fail_nth;
	idle->on_cpu = 1;
	p->switch_ns = thread_now_ns();   /* its run time starts now */
	__atomic_store_n(&p->sched_ready, 1, __ATOMIC_RELEASE);
	arch_run_on_stack(idle->stack_top, thread_ap_idle_start, (void *)(uint64_t)cpu);
}

/* See thread.h. Reaps exited threads while there is nothing else to do,
 * then lets the core steal or halt until work arrives. */
void thread_idle_main(void *arg)
{
	int cpu = (int)(uint64_t)arg;
	for (;;) {
		thread_reap();
		cpu_cli();
		sched_idle(cpu);
		thread_idle_switch();
		cpu_sti();
	}
}
