/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_thread.c — `ps` and `top`: looking at threads (`spawn`, which
 * starts load by hand, is in cmd_spawn.c). */
#include <shell/shell.h>
#include <thread/thread.h>
#include <dev/console_input.h>
#include <lib/parse.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <mm/mm.h>
#include <emul/emul_workclock_model.h>
#include <lib/itd_names.h>
#include <shell/cmd_thread.h>

#define PS_MAX 1024
#define TOP_THREADS 10
#define TOP_PERIOD_MS 1000
#define TOP_FRAMES_MAX 86400   /* a day of frames */

/* See cmd_thread.h. */
int cmd_parse_cpus(const char *cmd, const char *s, struct cpuset *out)
{
	char err[128];
	if (cpulist_parse(s, smp_cpu_count(), out, err, sizeof(err))) {
		printk("%s: %s\n", cmd, err);
		return -1;
	}
	for (int c = cpuset_first(out); c >= 0; c = cpuset_next(out, c))
		if (smp_cpu_online((unsigned)c))
			return 0;
	printk("%s: cpus: '%.*s' names no online CPU\n", cmd, PARSE_ECHO_MAX, s);
	return -1;
}

/* Short name of a thread's state. */
static const char *ps_state(const struct thread_info *ti)
{
	if (ti->state == TD_DEAD)
		return "dead";
	if (ti->state == TD_SLEEPING)
		return "sleep";
	return ti->running ? "run" : "ready";
}

/* "rt", "int" (interactive timeshare), "batch", "idle": what ULE made of it. */
static const char *ps_kind(const struct thread_info *ti)
{
	if (ti->pri_class == SCHED_CLASS_REALTIME)
		return "rt";
	if (ti->pri_class == SCHED_CLASS_IDLE)
		return "idle";
	return ti->pri <= PRI_MAX_INTERACT ? "int" : "batch";
}

/* See cmd_thread.h. */
void cmd_work_text(uint64_t work, uint64_t run_ns, char *wbuf, size_t wlen, char *sbuf, size_t slen)
{
	ksnprintf(wbuf, wlen, "%lu", work / WC_WORK_PER_NS / 1000000);
	ksnprintf(sbuf, slen, "-");
	if (run_ns) {
		uint64_t milli = work / run_ns;   /* WC_WORK_PER_NS = 1000: thousandths */
		ksnprintf(sbuf, slen, "%lu.%03lu", milli / 1000, milli % 1000);
	}
}

/* A snapshot of every thread (kmalloc'ed, PS_MAX entries); NULL on no memory. */
static struct thread_info *ps_take(size_t *n)
{
	struct thread_info *ti = kcalloc(PS_MAX, sizeof(*ti));
	if (!ti) {
		printk("ps: out of memory\n");
		return NULL;
	}
	*n = thread_snapshot(ti, PS_MAX);
	return ti;
}

/* `ps`: one line per thread. */
/* Hundredths of a percent part/whole, 0 for an empty whole. */
static unsigned share(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned)(part * 10000 / whole) : 0;
}

/* `ps -w`: where each thread ran, as shares of its run time (to the last
 * switch or tick): P-cores, E-cores, LP-E cores, CPUs without a core type,
 * and while an SMT sibling of its CPU was busy. */
static void ps_where(const struct thread_info *ti, size_t n)
{
	printk("%5s %-16s %4s %10s %7s %7s %7s %7s %7s\n", "ID", "NAME", "LAST", "TIME(ms)", "P%",
	       "E%", "LP-E%", "OTHER%", "SMT%");
	for (size_t i = 0; i < n; i++) {
		const struct thread_info *t = &ti[i];
		if (t->flags & TDF_IDLE)
			continue;
		uint64_t all = t->sched_ns_type[0] + t->sched_ns_type[1] + t->sched_ns_type[2] +
			       t->sched_ns_type[3];
		unsigned s[5] = { share(t->sched_ns_type[CPU_CORE_P], all),
				  share(t->sched_ns_type[CPU_CORE_E], all),
				  share(t->sched_ns_type[CPU_CORE_LPE], all),
				  share(t->sched_ns_type[CPU_CORE_UNKNOWN], all),
				  share(t->sched_ns_shared, all) };
		printk("%5u %-16s %4d %10lu", t->id, t->name, t->lastcpu, all / 1000000);
		for (int k = 0; k < 5; k++)
			printk(" %4u.%02u", s[k] / 100, s[k] % 100);
		printk("\n");
	}
}

/* `ps -c`: Thread Director classes: the class of the code each thread
 * runs (its work clock's, `-` without one), the class the kernel adopted
 * from the hardware's reads at its switches (itd_hist.h, handed to the
 * scheduler), the valid reads per class, invalid reads and adoptions. */
static void ps_classes(const struct thread_info *ti, size_t n)
{
	printk("%5s %-16s %-6s %-6s %8s %8s %8s %8s %8s %8s %7s\n", "ID", "NAME", "CODE", "ITD",
	       "SCALAR", "VECTOR", "VNNI", "SPIN", "OTHER", "INVALID", "CHANGES");
	for (size_t i = 0; i < n; i++) {
		const struct thread_info *t = &ti[i];
		uint32_t other = 0;
		if (t->flags & TDF_IDLE)
			continue;
		for (unsigned c = ITD_CLASSES; c < ITD_CLASS_MAX; c++)
			other += t->itd_reads[c];
		printk("%5u %-16s %-6s %-6s %8u %8u %8u %8u %8u %8u %7u\n", t->id, t->name,
		       t->has_code_cls ? itd_class_name(t->code_cls) : "-", itd_class_name(t->itd_cls),
		       t->itd_reads[ITD_SCALAR], t->itd_reads[ITD_VECTOR], t->itd_reads[ITD_VNNI],
		       t->itd_reads[ITD_SPIN], other, t->itd_invalid, t->itd_changes);
	}
}

static int cmd_ps(int argc, char **argv)
{
	int where = argc == 2 && strcmp(argv[1], "-w") == 0;
	int classes = argc == 2 && strcmp(argv[1], "-c") == 0;
	if (argc == 2 && !where && !classes) {
		shell_usage("ps");
		return 1;
	}
	if (!thread_sched_running()) {
		printk("ps: the scheduler is off (sched=off)\n");
		return 1;
	}
	size_t n;
	struct thread_info *ti = ps_take(&n);
	if (!ti)
		return 1;
	if (where || classes) {
		if (where)
			ps_where(ti, n);
		else
			ps_classes(ti, n);
		kfree(ti);
		return 0;
	}
	printk("%5s %-16s %-5s %3s %4s %3s %4s %-5s %5s %6s %10s %10s %5s %6s\n", "ID", "NAME",
	       "STATE", "CPU", "LAST", "PRI", "NICE", "KIND", "SCORE", "%CPU", "TIME(ms)", "WORK(ms)",
	       "SPEED", "MIGR");
	for (size_t i = 0; i < n; i++) {
		const struct thread_info *t = &ti[i];
		char cpu[8] = "-", work[24] = "-", speed[8] = "-";
		if (t->running)
			ksnprintf(cpu, sizeof(cpu), "%d", t->cpu);
		if (t->has_work)
			cmd_work_text(t->work, t->run_ns, work, sizeof(work), speed, sizeof(speed));
		printk("%5u %-16s %-5s %3s %4d %3d %4d %-5s %5d %3d.%02d %10lu %10s %5s %6lu\n",
		       t->id, t->name, ps_state(t), cpu, t->lastcpu, t->pri, t->nice, ps_kind(t),
		       t->score, t->pctcpu / 100, t->pctcpu % 100, t->run_ns / 1000000, work, speed,
		       t->migrations);
	}
	printk("%lu threads\n", (uint64_t)n);
	kfree(ti);
	cmd_ps_procs();
	return 0;
}
SHELL_COMMAND(ps, 0, 1, "[-w|-c]",
	      "threads: id, name, state, CPU now/last, priority, nice, ULE kind, interactivity "
	      "score, %CPU, run time, work done and speed (work/run), migrations; -w: share of run "
	      "time on P, E, LP-E cores and beside a busy SMT sibling; -c: Thread Director classes "
	      "(code, adopted, reads per class); then the user processes",
	      cmd_ps);

/* Run time of the thread with id in snapshot a (0 if absent). */
static uint64_t top_prev_ns(const struct thread_info *a, size_t na, uint32_t id)
{
	for (size_t i = 0; i < na; i++)
		if (a[i].id == id)
			return a[i].run_ns;
	return 0;
}

/* One `top` frame over [a, b]: per-CPU busy % and load, then the threads
 * that ran most in between. */
static void top_print(const struct thread_info *a, size_t na, const uint64_t *idle_a,
		      struct thread_info *b, size_t nb, const uint64_t *idle_b, uint64_t span_ns)
{
	unsigned ncpu = smp_cpu_count(), busy_cpus = 0;
	printk("cpu  busy%%  load  lowpri\n");
	for (unsigned c = 0; c < ncpu; c++) {
		if (!smp_cpu_online(c))
			continue;
		uint64_t idle = idle_b[c] - idle_a[c];
		uint64_t busy = idle >= span_ns ? 0 : 100 - idle * 100 / span_ns;
		busy_cpus += busy >= 50;
		printk("%3u  %4lu%%  %4d  %6d\n", c, busy, sched_cpu_load((int)c),
		       sched_cpu_lowpri((int)c));
	}
	printk("busy CPUs (>= 50%%): %u of %u\n", busy_cpus, smp_online_count());
	/* Selection by the run time gained, highest first; idle threads out. */
	for (size_t i = 0; i < nb; i++)
		b[i].run_ns = (b[i].flags & TDF_IDLE) ? 0 : b[i].run_ns - top_prev_ns(a, na, b[i].id);
	printk("%5s %-16s %-5s %3s %3s %-5s %6s\n", "ID", "NAME", "STATE", "CPU", "PRI", "KIND",
	       "CPU%");
	for (int k = 0; k < TOP_THREADS; k++) {
		size_t best = nb;
		for (size_t i = 0; i < nb; i++)
			if (b[i].run_ns && (best == nb || b[i].run_ns > b[best].run_ns))
				best = i;
		if (best == nb)
			break;
		struct thread_info *t = &b[best];
		printk("%5u %-16s %-5s %3d %3d %-5s %5lu%%\n", t->id, t->name, ps_state(t),
		       t->cpu, t->pri, ps_kind(t), t->run_ns * 100 / span_ns);
		t->run_ns = 0;
	}
}

/* Sleeps ms, in steps, returning 1 early if a key was pressed. */
static int top_wait_key(uint64_t ms)
{
	char c;
	for (uint64_t waited = 0; waited < ms; waited += 100) {
		thread_sleep_ns(100 * 1000000ull);
		if (console_trygetc(&c))
			return 1;
	}
	return 0;
}

/* `top [-n N]`: frames every second until a key (script: one frame). */
static int cmd_top(int argc, char **argv)
{
	uint64_t frames = shell_scripted() ? 1 : UINT64_MAX;
	if (argc == 3 && strcmp(argv[1], "-n") == 0) {
		if (shell_arg_u64("top", "FRAMES", argv[2], 0, 1, TOP_FRAMES_MAX, &frames))
			return 1;
	} else if (argc != 1) {
		shell_usage("top");
		return 1;
	}
	if (!thread_sched_running()) {
		printk("top: the scheduler is off (sched=off)\n");
		return 1;
	}
	static uint64_t idle_a[MAXCPU], idle_b[MAXCPU];
	int rc = 0;
	for (uint64_t f = 0; f < frames; f++) {
		size_t na = 0, nb = 0;
		struct thread_info *a = ps_take(&na);
		for (unsigned c = 0; c < smp_cpu_count(); c++)
			idle_a[c] = thread_idle_ns(c);
		uint64_t t0 = time_ns();
		int key = top_wait_key(TOP_PERIOD_MS);
		struct thread_info *b = ps_take(&nb);
		for (unsigned c = 0; c < smp_cpu_count(); c++)
			idle_b[c] = thread_idle_ns(c);
		uint64_t span = time_ns() - t0;
		if (a && b) {
			printk("top: frame %lu, %lu ms\n", f + 1, span / 1000000);
			top_print(a, na, idle_a, b, nb, idle_b, span);
		} else {
			rc = 1;
		}
		kfree(a);
		kfree(b);
		if (key || rc)
			break;
	}
	return rc;
}
SHELL_COMMAND(top, 0, 2, "[-n FRAMES (1..86400)]",
	      "per-CPU busy % and load, busiest threads; every second until a key "
	      "(boot script: one frame)", cmd_top);
